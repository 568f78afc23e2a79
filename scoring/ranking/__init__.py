"""The ranking wing: a tournament's standings and places, season tables and rating lists."""
