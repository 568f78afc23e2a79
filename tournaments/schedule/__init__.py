"""The schedule: the public calendar of tournaments, each tournament's timetable, iCalendar feeds."""
