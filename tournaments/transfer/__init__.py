"""Import and export of tournaments: rosters from CSV or XLSX, standings, results and deals as
CSV or XLSX, and a whole tournament as a versioned JSON file for another installation.

* :mod:`.sheets` reads and writes the tabular files (deterministic CSV and XLSX bytes);
* :mod:`.roster` imports players and pairs with a row-by-row report;
* :mod:`.exports` builds the standings, results and deal-by-deal sheets;
* :mod:`.archive` writes a tournament to JSON and reads it back, with nothing lost.

Views (:mod:`.views`), the API endpoint (:mod:`.api`) and the management commands
``export_tournament`` / ``import_tournament`` are thin layers over these functions.
"""
