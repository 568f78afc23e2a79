"""Management commands of scoring: protocol PDFs, round prints, the signing identity."""
