"""The party record wing: the party's row lock, deals, totals, the event log and the party's end."""
