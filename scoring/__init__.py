"""The project's base: every model, and the services that change the record, in wings by domain.

The wings, from the top down (an import contract keeps them one way): ``signoff`` (protocols,
signatures, PINs, printing), ``party`` (the party record: its row lock, deals, event log, the
party's end) beside ``people`` (profiles, careers, lockouts), ``ranking`` (standings, seasons,
rating lists), then ``totals``, ``webhooks`` and ``access`` (permissions, idempotency), and
``core`` (errors, time zones, the task base, what pages share). Below them the models and the
plain-Python engines: ``rules`` (one rule set per game), ``standings``, ``protocols``, ``ratings``.
"""
