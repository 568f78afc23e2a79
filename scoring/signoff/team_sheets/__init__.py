"""The team match sheet: its content, the captains' signatures, the signed PDF, its pages
and API."""
