"""Tournaments, regulations, players, pairs, tables, rounds, draws and parties."""
