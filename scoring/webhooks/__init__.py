"""The webhooks wing: events emitted to organizers' URLs, their delivery and the URL guard."""
