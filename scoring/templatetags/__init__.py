"""Template tags of scoring."""
