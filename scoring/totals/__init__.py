"""The totals wing: the one function deriving a party's totals, and the totals stored for speed."""
