"""The core wing: errors the services raise, time zones, the task base, what pages share."""
