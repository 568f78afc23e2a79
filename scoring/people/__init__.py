"""The people wing: player profiles, careers across tournaments and login lockouts."""
