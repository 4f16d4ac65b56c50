# humaneval: `make run` serves the platform, `make test` runs every test. Both install first.
SHELL := /bin/bash
# The fastest build of python3's version on this machine (Debian's PGO + LTO binary ran a
# request on about a fifth less CPU than an unoptimised pyenv build), never an older patch
# release than python3's: deploy/pick_python.py.
PYTHON ?= $(shell python3 deploy/pick_python.py 2>/dev/null || echo python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install messages run test lint deploy serve browser benchmark benchmark-rank benchmark-imports benchmark-load benchmark-arena benchmark-bt benchmark-fanout clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@# Compile the WMT14 kernel once into numba's on-disk cache, so no command pays for it.
	$(PY) -c "from ranking.stats._wmt14 import warm; warm()"
	touch $(STAMP)

# The worker interface's translations: locale/<lang>/LC_MESSAGES/django.po,
# compiled to .mo (not in git) whenever a .po is newer. msgfmt comes from Debian's gettext.
PO := $(wildcard locale/*/LC_MESSAGES/django.po)
MO := $(PO:.po=.mo)
messages: $(MO)

locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po
	@command -v msgfmt >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's gettext for the translations..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; \
	  else echo "msgfmt is missing: install Debian's gettext (sudo apt-get install gettext)"; exit 1; fi; }
	msgfmt --check -o $@ $<

# Debian's Chromium for the browser tests (no browser downloads). Skipped when not root.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's chromium for the browser tests..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; \
	  else echo "chromium is not installed and we are not root: browser tests will be skipped"; fi; }

run: install messages
	$(PY) manage.py migrate --no-input
	$(PY) manage.py seed_demo
	$(PY) manage.py ensure_admin --url http://$(HOST):$(PORT)/admin/
	@echo ""
	@echo "humaneval is starting on http://$(HOST):$(PORT)/"
	@echo "  organizers and designers: http://$(HOST):$(PORT)/ (sign in as admin, above)"
	@echo "  a crowd worker's view:    http://$(HOST):$(PORT)/w/demo/"
	@echo "  ... in German (MTG demo): http://$(HOST):$(PORT)/w/demo-mtg/?lang=de"
	@echo "  Django admin:             http://$(HOST):$(PORT)/admin/"
	@echo "  REST API docs:            http://$(HOST):$(PORT)/api/docs/"
	@echo ""
	$(PY) manage.py runserver $(HOST):$(PORT)

# The suite runs on TEST_WORKERS processes (pytest-xdist; each has its own test database).
# Tests that need a real Celery worker (CI's PostgreSQL pass points one at the plain test
# database) run afterwards in this process alone; pytest's exit 5 (none selected) is fine.
TEST_WORKERS ?= 2
test: install messages browser
	$(PY) -m pytest -n $(TEST_WORKERS) -m "not celery_worker" $(PYTEST_ARGS)
	$(PY) -m pytest -p no:xdist -m celery_worker $(PYTEST_ARGS) || [ $$? = 5 ]

# Linters, the type check and the import contracts; .ci/run runs this before the tests.
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .
	$(VENV)/bin/lint-imports

# Production shape: gunicorn + a Celery worker + celery beat (it sweeps lost ranking runs
# every minute), against PostgreSQL and Redis, under supervisord (deploy/supervisord.conf):
# a process that dies is started again within seconds. Migrations and static files are a
# separate deploy step, run once per upgrade before (re)starting:
#   DATABASE_URL=postgres://user@host:5432/humaneval CELERY_BROKER_URL=redis://host:6379/0 \
#   DJANGO_DEBUG=false DJANGO_SECRET_KEY=... make deploy serve
# On a machine with systemd, deploy/systemd/ has the same three processes as units.
# gunicorn: chosen by the load benchmark on 2 cores (see docs/benchmarks.md); WEB_WORKERS x WEB_THREADS
# requests at once, each thread holding one persistent PostgreSQL connection. --preload:
# the application (every view, see humaneval/wsgi.py) is imported once, before forking.
WEB_WORKERS ?= 3
WEB_WORKER_CLASS ?= sync
WEB_THREADS ?= 1
CELERY_CONCURRENCY ?= 2
RUN_DIR ?= $(VENV)/run
deploy: install messages
	@test -n "$$DATABASE_URL" || { echo "make deploy needs DATABASE_URL (PostgreSQL)"; exit 2; }
	@$(SETTINGS_CHECK)
	$(PY) manage.py migrate --no-input
	$(PY) manage.py collectstatic --no-input >/dev/null

# The settings load, or one line says what to set (humaneval.startup, as in every process).
SETTINGS_CHECK = $(PY) -c "from humaneval.startup import settings_or_exit; settings_or_exit()"
# The production processes (web, Celery worker and beat) run with DEBUG off unless
# DJANGO_DEBUG says otherwise, and refuse a missing, public or weak DJANGO_SECRET_KEY (it
# signs worker sessions): humaneval.settings, HUMANEVAL_PRODUCTION_PROCESS.
deploy serve: override export HUMANEVAL_PRODUCTION_PROCESS = true
serve: install messages
	@test -n "$$DATABASE_URL" || { echo "make serve needs DATABASE_URL (PostgreSQL)"; exit 2; }
	@test -n "$$CELERY_BROKER_URL" || { echo "make serve needs CELERY_BROKER_URL (Redis)"; exit 2; }
	@$(SETTINGS_CHECK)
	@$(PY) manage.py migrate --check >/dev/null 2>&1 || { echo "The database has unapplied migrations: run make deploy first"; exit 2; }
	@mkdir -p $(RUN_DIR)
	HUMANEVAL_VENV=$(abspath $(VENV)) HUMANEVAL_RUN_DIR=$(abspath $(RUN_DIR)) \
	  HUMANEVAL_BIND=$(HOST):$(PORT) WEB_WORKERS=$(WEB_WORKERS) \
	  WEB_WORKER_CLASS=$(WEB_WORKER_CLASS) WEB_THREADS=$(WEB_THREADS) \
	  CELERY_CONCURRENCY=$(CELERY_CONCURRENCY) \
	  $(VENV)/bin/supervisord -c deploy/supervisord.conf

benchmark: install
	$(PY) benchmarks/ranking.py

benchmark-imports: install
	$(PY) benchmarks/imports.py

# `manage.py rank` of E2E quality (WMT14, 200 runs) in fresh processes, as a user runs it,
# against a plain-Python yardstick of the same procedure timed in the same run.
benchmark-rank: install
	$(PY) benchmarks/rank_command.py $(RANK_ARGS)

# 100 systems, 1,000,000 comparisons from latent qualities (no database): the compiled
# WMT14 kernel vs numpy and a plain compiled loop, Bradley-Terry and expected wins.
benchmark-arena: install
	$(PY) benchmarks/arena.py $(ARENA_ARGS)

# Bradley-Terry with 1,000 bootstrap replicates of 1,000,000 comparisons: `manage.py rank`
# (start-up and database read included) against FastChat's compute_bootstrap_bt, same data
# and run. FastChat's rating_systems.py from a checkout of github.com/lm-sys/FastChat:
#   make benchmark-bt FASTCHAT_SRC=~/FastChat/fastchat/serve/monitor/rating_systems.py
benchmark-bt: install
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	FASTCHAT_SRC=$(FASTCHAT_SRC) $(PY) benchmarks/arena_bt.py $(BT_ARGS)

# One ranking run on 1 and 2 real Celery worker processes, one core each (PostgreSQL
# he_fanout, Redis) against the same run on one core in process; 4 and 8 simulated from
# the chunk times: identical yes/no, speed-ups and efficiency; 3 rounds of E2E quality,
# 2,000 runs (skipped without ../shared/e2e). FANOUT_ARGS="--rounds 5" or "--synthetic"
benchmark-fanout: install
	$(PY) benchmarks/fanout.py $(FANOUT_ARGS)
benchmark-replay: install
	$(PY) benchmarks/replay.py $(REPLAY_ARGS)

# Crowd workers against the production shape (gunicorn as `serve` runs it, PostgreSQL):
# p50/p95/p99 per request, cycles/s, queries per request, integrity. See benchmarks/load.
#   make benchmark-load LOAD_ARGS="--clients 20 200"     (or --clients 1000 --think 20, --handout)
LOAD_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/he_load
benchmark-load: install
	DATABASE_URL=$${DATABASE_URL:-$(LOAD_DATABASE_URL)} WEB_WORKERS=$(WEB_WORKERS) \
	  WEB_WORKER_CLASS=$(WEB_WORKER_CLASS) WEB_THREADS=$(WEB_THREADS) \
	  $(PY) -m benchmarks.load $(LOAD_ARGS)

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .mypy_cache .ruff_cache
