"""Registration in one step, players' accounts and PINs, and choosing or merging profiles."""
