# Two commands do all set-up: `make run` (serve the demo) and `make test` (the whole suite).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# The address printed in the protocols' QR codes and the players' personal links.
SITE_URL ?= http://$(HOST):$(PORT)

.PHONY: install run serve test lint bench worker messages clean system-packages

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(VENV)/.installed: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed

run: install
	$(BIN)/python manage.py migrate --noinput
	SITE_URL=$(SITE_URL) $(BIN)/python manage.py seed_demo --fresh
	$(BIN)/python manage.py demo_banner --url $(SITE_URL)/
	SITE_URL=$(SITE_URL) $(BIN)/python manage.py runserver --noreload $(HOST):$(PORT)

# The system packages first: without root or apt-get it stops in seconds, before any install.
system-packages:
	.ci/system-packages

test: system-packages install
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports

bench: install
	$(BIN)/python bench/run_all.py

worker: install
	$(BIN)/celery -A config worker -B --loglevel=info

messages: install
	$(BIN)/python manage.py makemessages -l ru --ignore=.venv --ignore=var --no-obsolete
	$(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) var db.sqlite3
