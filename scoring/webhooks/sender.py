"""Who sends the outbox's deliveries, in each setup, and when.

- **With a broker** (``CELERY_BROKER_URL``): an event's commit queues ``deliver_webhooks`` for
  the subscription; the worker sends its due deliveries in order and queues itself again for a
  retry's time. The beat's ``sweep_webhooks`` (every ``WEBHOOK_SWEEP_SECONDS``) queues the task
  for every due head whose message was lost or early.
- **Without a broker** (Celery eager, ``make run``): nothing is sent in the request. Each web
  process runs one sender thread (``SENDER``), started by its first request; an event's commit
  wakes it, and it sleeps until the next retry is due (at most ``WEBHOOK_SWEEP_SECONDS``, so it
  also finds what other processes wrote). ``WEBHOOK_SENDER_THREAD=0`` turns it off: then
  ``manage.py send_webhooks --watch`` is the sender.

Every sender claims a delivery before it sends it (``scoring.webhooks.outbox``), so any number
of them may run at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from celery import shared_task
from django.db import close_old_connections, connections, transaction

from scoring.core.background import RecordTask
from scoring.webhooks import outbox
from scoring.webhooks.delivery import setting

logger = logging.getLogger(__name__)

MIN_WAIT = 0.05
"""The shortest pause between two sweeps (a head another sender just took)."""
ERROR_WAIT = 1.0
"""The pause after a sweep that failed (the database busy or away): then it tries again."""


def poll_seconds() -> float:
    """The longest a sender waits between two sweeps (``WEBHOOK_SWEEP_SECONDS``)."""
    return float(setting("WEBHOOK_SWEEP_SECONDS", 10.0))


def broker_configured() -> bool:
    """Whether tasks go to workers (False: Celery runs them eagerly, in-process)."""
    return not deliver_webhooks.app.conf.task_always_eager


@shared_task(base=RecordTask, name="scoring.webhook_delivery.deliver_webhooks")
def deliver_webhooks(subscription_id: int, retry_of: int | None = None) -> int:
    """Send a subscription's due deliveries in order; queue the next try of one that failed.

    ``retry_of`` is kept for messages queued by earlier versions (the outbox knows what is due).
    """
    done = outbox.send_queue(subscription_id)
    if done and done[-1].retry_in is not None:
        retry_later(subscription_id, done[-1].retry_in)
    return len(done)


def retry_later(subscription_id: int, seconds: float) -> None:
    """Have the subscription's queue looked at again in ``seconds``: a task with a countdown
    on a worker; without a broker the sender thread's own wait (never now, in-process)."""
    if broker_configured():
        deliver_webhooks.send_quietly((subscription_id,), countdown=seconds)
    else:
        SENDER.wake()


def notify_on_commit(subscription_id: int) -> None:
    """Once the current transaction commits, tell a sender that the subscription has work."""
    if broker_configured():
        deliver_webhooks.delay_on_commit(subscription_id)
    else:
        transaction.on_commit(SENDER.wake)


def run_sweeps(wait: Callable[[float], object], *, stopped: Callable[[], bool] = lambda: False,
               until_empty: bool = False, deadline: float | None = None,
               own_connection: bool = True) -> outbox.Sweep:
    """Sweep the outbox again and again, waiting (``wait(seconds)``) until the next head falls
    due; until ``stopped()``, the ``deadline`` (monotonic) or, with ``until_empty``, until
    nothing is pending. What was done in all.

    ``own_connection``: the sender's database connection is its own (a thread, a command), so
    one broken or too old is closed before a sweep and opened again.
    """
    total = outbox.Sweep()
    while not stopped():
        pause = poll_seconds()
        try:
            if own_connection:
                close_old_connections()
            done = outbox.sweep()
            total.outcomes.extend(done.outcomes)
            total.next_in = done.next_in
            if until_empty and outbox.pending_count() == 0:
                break
            if done.next_in is not None:
                pause = min(pause, done.next_in)
        except Exception:  # the database busy or away: this sender goes on after a pause
            logger.exception("webhook sweep failed; trying again in %s s", ERROR_WAIT)
            pause = ERROR_WAIT
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            pause = min(pause, left)
        wait(max(MIN_WAIT, pause))
    return total


class SenderThread:
    """The web process's sender when there is no broker: one daemon thread sweeping the outbox,
    woken by a commit that wrote deliveries, asleep until the next one is due."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        """Whether the thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> bool:
        """Start the thread unless it runs already; True if it was started now."""
        with self._lock:
            if self.running:
                return False
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="webhook-sender",
                                            daemon=True)
            self._thread.start()
            return True

    def wake(self) -> None:
        """Sweep now (if the thread runs; else the next request starts it, or a command sends)."""
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the thread after its current attempt and wait for it."""
        self._stop.set()
        self._wake.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _sleep(self, seconds: float) -> None:
        self._wake.wait(seconds)
        self._wake.clear()

    def _run(self) -> None:
        logger.info("webhook sender thread started")
        try:
            run_sweeps(self._sleep, stopped=self._stop.is_set)
        finally:
            connections.close_all()  # this thread's own connections


SENDER = SenderThread()
"""This process's sender thread (used only without a broker)."""


def start_with_server(sender: Any = None, **kwargs: Any) -> None:
    """``request_started``: the first request of a web process without a broker starts its
    sender thread (``WEBHOOK_SENDER_THREAD``), which first sends what is left from before."""
    if SENDER.running or broker_configured() or not setting("WEBHOOK_SENDER_THREAD", True):
        return
    SENDER.start()
