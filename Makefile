# humaneval: `make run` serves the platform, `make test` runs every test. Both install first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint serve browser benchmark benchmark-imports clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Debian's Chromium for the browser tests (no browser downloads). Skipped when not root.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's chromium for the browser tests..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; \
	  else echo "chromium is not installed and we are not root: browser tests will be skipped"; fi; }

run: install
	$(PY) manage.py migrate --no-input
	$(PY) manage.py seed_demo
	$(PY) manage.py ensure_admin --url http://$(HOST):$(PORT)/admin/
	@echo ""
	@echo "humaneval is starting on http://$(HOST):$(PORT)/"
	@echo "  organizers and designers: http://$(HOST):$(PORT)/ (sign in as admin, above)"
	@echo "  a crowd worker's view:    http://$(HOST):$(PORT)/w/demo/"
	@echo "  Django admin:             http://$(HOST):$(PORT)/admin/"
	@echo "  REST API docs:            http://$(HOST):$(PORT)/api/docs/"
	@echo ""
	$(PY) manage.py runserver $(HOST):$(PORT)

test: install browser
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .

# Production shape: gunicorn + a Celery worker + celery beat (it sweeps lost ranking runs
# every minute), against PostgreSQL and Redis.
#   DATABASE_URL=postgres://user@host:5432/humaneval CELERY_BROKER_URL=redis://host:6379/0 \
#   DJANGO_DEBUG=false DJANGO_SECRET_KEY=... make serve
serve: install
	@test -n "$$DATABASE_URL" || { echo "make serve needs DATABASE_URL (PostgreSQL)"; exit 2; }
	@test -n "$$CELERY_BROKER_URL" || { echo "make serve needs CELERY_BROKER_URL (Redis)"; exit 2; }
	$(PY) manage.py migrate --no-input
	$(PY) manage.py collectstatic --no-input >/dev/null
	$(VENV)/bin/celery -A humaneval worker --loglevel=INFO --concurrency=2 & \
	  worker=$$!; \
	  $(VENV)/bin/celery -A humaneval beat --loglevel=INFO --schedule=$(VENV)/celerybeat-schedule & \
	  beat=$$!; trap 'kill $$worker $$beat' EXIT INT TERM; \
	  $(VENV)/bin/gunicorn humaneval.wsgi:application --bind $(HOST):$(PORT) --workers 3 --access-logfile -

benchmark: install
	$(PY) benchmarks/ranking.py

benchmark-imports: install
	$(PY) benchmarks/imports.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .mypy_cache .ruff_cache
