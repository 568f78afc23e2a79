# One image for every role: web (gunicorn, uvicorn workers), worker and beat (Celery); compose.yaml runs them.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.lock .
RUN pip install --no-cache-dir --require-hashes -r requirements.lock
COPY . .
RUN DEBUG=1 python manage.py collectstatic --noinput \
    && python manage.py compilemessages --ignore=.venv
EXPOSE 8000
CMD ["gunicorn", "config.asgi", "--bind", "0.0.0.0:8000", "--workers", "4", "--worker-class", "uvicorn_worker.UvicornWorker", "--preload"]
