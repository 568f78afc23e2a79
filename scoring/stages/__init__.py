"""A tournament's stages: the qualifying stage, groups and the knockout bracket's matches."""
