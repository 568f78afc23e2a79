"""The organizer's read-only API tokens: the page and the API that issue and revoke them."""
