"""Online entries: the organizer opens them, players enter (with a partner), a waiting list
beyond the places, the organizer decides; the mails they send (``mail``)."""
