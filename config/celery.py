"""The Celery application; tasks run eagerly when no broker is configured."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("domino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
