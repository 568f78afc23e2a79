"""Tests of the whole API: schemathesis fuzzing and the permission matrix."""
