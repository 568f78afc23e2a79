"""The Celery application; tasks run eagerly when no broker is configured. Its processes
outlive a Redis restart or failover."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("domino")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Workers and the beat outlive a Redis restart or failover (docs/operations.md, "Faults"): they
# reconnect for ever, at most BROKER_RECONNECT_SECONDS apart (config.worker.Consumer), also
# when they start before Redis; an error Redis answers (READONLY or UNBLOCKED after a failover)
# reconnects too instead of stopping the worker; a result is stored across a blip (retried with
# backoff) on connections checked when idle. Workers run --without-gossip --without-mingle
# --without-heartbeat (README, compose.yaml): nothing here uses those event channels, and their
# restart fails at every Redis restart (AttributeError on a closed channel), the kind of error
# that once stopped a worker for good ("Unrecoverable error ... 'hostname'").
app.conf.update(
    broker_connection_retry=True,
    broker_connection_retry_on_startup=True,
    broker_connection_max_retries=None,
    broker_channel_error_retry=True,
    worker_consumer="config.worker:Consumer",
    result_backend_always_retry=True,
    result_backend_max_retries=10,
    redis_backend_health_check_interval=10,
    redis_socket_keepalive=True,
)
app.autodiscover_tasks()
# The online entries' tasks (a package of the tournaments app, not an app of its own).
app.autodiscover_tasks(["tournaments.entries"])
