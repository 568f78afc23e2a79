"""Check-in at the hall before a round: windows, the three ways in, and the draw's field."""
