"""Rounds and draws: the round flow's services, the draw manager and the round pages."""
