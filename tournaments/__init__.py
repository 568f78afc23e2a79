"""The event as organizers, players and the public meet it: set-up, registration, rounds and
draws, public pages, the player area, ranking pages, webhooks, the API, import and export."""
