"""Ranking pages: season tables and rating lists, their forms and services."""
