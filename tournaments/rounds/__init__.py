"""Rounds and draws: the round flow's services, the draw manager, the round pages and the party
page."""
