"""Management commands of the tournaments app."""
