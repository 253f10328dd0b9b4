# Two commands do all set-up on a fresh clone (README.md): `make run` and `make test`.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# Django 6.1 needs Python >= 3.12; the machine's python3 may be 3.11 and the pyenv shims may
# fail, so try real interpreters in order.
FIND_PYTHON = for c in python3.13 python3.12 python3 $$(ls -d $$(pyenv root 2>/dev/null || echo /nonexistent)/versions/3.1[2-9]*/bin/python3 2>/dev/null); do \
	  if "$$c" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; then command -v "$$c" || echo "$$c"; exit 0; fi; \
	done; exit 1

.PHONY: run test test-unit test-e2e venv lint bench bench-venv drills clean playouts

$(STAMP): pyproject.toml
	@PYBIN=$$($(FIND_PYTHON)) || { echo "No Python 3.12+ found. Install one, e.g. 'apt-get install python3.12' or 'pyenv install 3.13', then run make again." >&2; exit 1; }; \
	echo "Using $$PYBIN ($$($$PYBIN --version))"; \
	[ -x $(PY) ] || $$PYBIN -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

venv: $(STAMP)

## make run: install, migrate, load demo content, serve on http://127.0.0.1:8000 with a Celery worker (supervised).
run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo_content
	@bin/run

## make test: install, then the whole suite (unit/integration, then the browser tests in their own process).
test: $(STAMP)
	@$(MAKE) --no-print-directory test-unit
	@$(MAKE) --no-print-directory test-e2e

# Every core (up to 4) runs tests (pytest-xdist): each process has its own test database
# (pytest-django adds _gw0, _gw1, ... to its name; a SQLite file per process), its own Redis
# database and channel prefix (config/settings.py TEST_WORKER) and picks free ports for the
# servers it starts (tests/servers.py). ``--dist load`` hands each process its tests in collection
# order, so each still runs pytest-django's order (tests that flush the database, transactional
# ones, after those that read migrated content). TEST_PROCESSES=0: this process.
TEST_PROCESSES ?= auto
XDIST = -n $(TEST_PROCESSES) --maxprocesses=4 --dist load

# The API fuzz runs in a process of its own: schemathesis gives its 48 cases one test id, which
# pytest-xdist would run once, and its tally counts what one process sent.
test-unit: $(STAMP)
	$(PY) -m pytest tests --ignore=tests/e2e --ignore=tests/drills --ignore=tests/test_api_fuzz.py -q -p no:cacheprovider $(XDIST)
	$(PY) -m pytest tests/test_api_fuzz.py -q -p no:cacheprovider

test-e2e: $(STAMP)
	@if [ -x /usr/bin/chromium ]; then \
	  DJANGO_ALLOW_ASYNC_UNSAFE=true $(PY) -m pytest tests/e2e -q -p no:cacheprovider $(XDIST) --reruns 2 --reruns-delay 1 -rR --timeout 180 --timeout-method thread; rc=$$?; [ $$rc -eq 5 ] && rc=0; exit $$rc; \
	else echo "Chromium is missing (apt-get install chromium): browser tests NOT run." >&2; \
	  [ -z "$$CI" ] || exit 1; fi

# mypy: the pure packages (the kit's pure modules, every rules package) and the guild services.
MYPY_PATHS := tabletop/rules.py tabletop/decider.py tabletop/log.py tabletop/dice.py \
	tabletop/errors.py tabletop/testing.py tabletop/counter.py tabletop/jsontext.py \
	tabletop/espionage/rules tabletop/personimo/rules tabletop/realm/rules \
	tabletop/personal_demons/rules missions/rules guilds/services

## make lint: ruff, the import contracts of docs/architecture.md's map (import-linter), mypy.
lint: $(STAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy $(MYPY_PATHS)

## make playouts: the long random playouts of every game (make test runs a fast slice), on
## every core (up to 4; TEST_PROCESSES=0: this process). ``worksteal``: a process that is done
## takes tests another has not started, so the long cases do not leave one process working
## alone at the end. The slowest cases are listed with their times.
playouts: $(STAMP)
	PLAYOUT_SEEDS=$${PLAYOUT_SEEDS:-200} $(PY) -m pytest tests -q -p no:cacheprovider -k playout \
	  -n $(TEST_PROCESSES) --maxprocesses=4 --dist worksteal --durations=12

## make drills: the slow fault drills (docs/operations.md "Recovery"): Redis frozen and restarted under a
## worker, a worker killed, DB connections terminated under load, phones black-holed, and the
## soak (three 5-minute runs of 20 tables x 4 phones; SOAK_RUNS, SOAK_SECONDS, SOAK_TABLES).
## Needs DATABASE_URL (PostgreSQL) and redis-server; prints the figures.
drills: $(STAMP)
	SOAK_RUNS=$${SOAK_RUNS:-3} $(PY) -m pytest tests/drills -q -s -p no:cacheprovider

## make bench: the live-path benchmarks of docs/performance.md (PostgreSQL and Redis from
## DATABASE_URL/REDIS_URL; the servers compared in turn within each run; ES_DATABASE_URL: a
## database of its own for the eventsourcing library's tables, else DATABASE_URL's).
## bench-venv: the bench extra, and .venv-es with the eventsourcing library for
## bench/append.py's comparison (kept out of the project's own environment).
bench-venv: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	[ -x .venv-es/bin/python ] || $$($(FIND_PYTHON)) -m venv .venv-es
	.venv-es/bin/python -m pip install --quiet 'eventsourcing[postgres]>=9.4,<10'

bench: bench-venv
	$(PY) bench/live.py saturation --server daphne:1,uvicorn:1,uvicorn:2,gunicorn:2 --connections 16 --duration 8 --runs 3
	$(PY) bench/live.py saturation --server daphne:1,uvicorn:1,uvicorn:2,gunicorn:2 --connections 64 --duration 8 --runs 3
	$(PY) bench/live.py evening --server uvicorn --workers 2 --duration 20 --runs 3
	$(PY) bench/append.py --duration 5 --runs 3
	$(PY) bench/demloc_long.py --commands 5000 --at 100,1000,5000

clean:
	rm -rf $(VENV) .celery* db.sqlite3 .test-db*.sqlite3 staticfiles test-artifacts
