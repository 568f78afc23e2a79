"""Set-up: creating a tournament, its regulations, players, pairs and tables, and the party page."""
