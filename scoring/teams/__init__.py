"""Team events: team match results and team standings from ordinary parties."""
