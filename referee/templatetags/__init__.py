"""Template tags of the referee desk."""
