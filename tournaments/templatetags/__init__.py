"""Template tags of the tournaments app."""
