"""Set-up: creating a tournament and its regulations, and the organizer's page of it."""
