"""Penalties, rulings, the party event log, party clocks and the referee screens."""
