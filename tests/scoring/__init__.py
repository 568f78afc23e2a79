"""Tests of the scoring app."""
