"""Registration: players, pairs and tables (one at a time or in one step), withdrawing them,
players' accounts and PINs, and choosing or merging profiles."""
