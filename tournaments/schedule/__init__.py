"""The schedule: the public calendar of tournaments, the timetable's pages, iCalendar feeds."""
