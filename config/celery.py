"""The Celery application; tasks run eagerly when no broker is configured."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("domino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="config.stamp_heartbeat", ignore_result=True)
def stamp_heartbeat() -> float:
    """Stamp the workers' heartbeat that ``/healthz`` checks (sent by the beat)."""
    from config.health import stamp_heartbeat_now

    return stamp_heartbeat_now()
