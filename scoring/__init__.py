"""Deals and scores, the rule sets, standings and protocols."""
