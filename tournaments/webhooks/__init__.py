"""The organizer's webhooks: the page and the API of subscriptions and deliveries."""
