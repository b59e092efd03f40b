# Yukon Online. The two commands: `make run` serves the game, `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := run

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# make stack: Daphne serves the races' WebSockets (/ws/) on this port, beside gunicorn.
ASGI_PORT ?= $(shell echo $$(($(PORT) + 1)))
# Which pytest tests to run; the full-stack ones need REDIS_URL and PostgreSQL.
PYTEST_ARGS ?= -m "not stack"
# JS_TESTS=0 leaves out the JavaScript tests (CI runs them in the first pass only).
JS_TESTS ?= 1
# pytest processes (pytest-xdist; a test file stays in one): 2 for this project's 2-core machines.
# PYTEST_WORKERS=0 runs them in one process, as the full-stack tests need (they share one Redis).
PYTEST_WORKERS ?= 2
CHROMIUM ?= /usr/bin/chromium
export CHROMIUM

RUNTIME_STAMP := $(VENV)/.installed-requirements
DEV_STAMP := $(VENV)/.installed-requirements-dev
# axe-core and Lighthouse (npm), for the accessibility browser test and bench/lighthouse.py only:
# `make test` installs them, `make run` never.
NODE_STAMP := node_modules/.installed
# The solver's compiled search core (games/solver/core.c), built with the machine's C compiler;
# without one the solver runs its pure-Python searches, the same searches, slower.
CC ?= cc
SOLVER_CORE := games/solver/_core.so

.PHONY: run test lint stack chromium help

help:
	@echo "make run    serve the game at http://$(HOST):$(PORT)/ (SQLite, no other service)"
	@echo "make test   run every test: Python, JavaScript and browser (PYTEST_ARGS=... to select)"
	@echo "make lint   ruff check, ruff format --check"
	@echo "make stack  gunicorn + Daphne (/ws/) + Celery worker + Celery beat against DATABASE_URL and REDIS_URL"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
		|| { echo "Yukon Online needs Python 3.10 or newer (3.11 is tested); set PYTHON=..."; exit 1; }
	@$(PYTHON) -m venv $(VENV) \
		|| { rm -rf $(VENV); echo "Could not create $(VENV). On Debian: apt-get install python3-venv"; exit 1; }

# The stamps make the second run skip pip until a requirements file changes.
$(RUNTIME_STAMP): requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

$(DEV_STAMP): requirements-dev.txt requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	@touch $@ $(RUNTIME_STAMP)

$(NODE_STAMP): package-lock.json package.json
	@command -v npm >/dev/null \
		|| { echo "make test needs npm (Node 20) to install axe-core and Lighthouse (package.json)"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

run: $(RUNTIME_STAMP) $(SOLVER_CORE)
	$(BIN)/python manage.py migrate --noinput
	@echo "Yukon Online is at http://$(HOST):$(PORT)/ (Ctrl-C stops it)"
	# Daphne's runserver (the races' WebSockets too); --nostatic: whitenoise serves static files,
	# with the same headers and compression as in production.
	exec $(BIN)/python manage.py runserver --nostatic $(HOST):$(PORT)

test: $(DEV_STAMP) $(NODE_STAMP) $(SOLVER_CORE) chromium
	@status=0; \
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS) || status=$$?; \
	if [ "$(JS_TESTS)" = 1 ]; then \
		if compgen -G "tests/js/*.test.mjs" >/dev/null; then \
			node --test tests/js/ || status=$$?; \
		else \
			echo "JavaScript tests: none in tests/js/ yet."; \
		fi; \
	fi; \
	exit $$status

# Browser tests use Debian's Chromium; as root, install it when it is missing (otherwise
# pytest skips them and says how to enable them). The Hindi pages need a Devanagari font
# (fonts-lohit-deva, 80 KB): without one they show empty boxes, and their test fails.
DEVANAGARI_FONT_PACKAGE ?= fonts-lohit-deva
chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "Installing Debian's chromium for the browser tests..."; \
			export DEBIAN_FRONTEND=noninteractive; \
			{ apt-get update -q && apt-get install -y -q chromium; } >/tmp/yukon-apt-chromium.log 2>&1 \
				|| { echo "apt-get install chromium failed (log: /tmp/yukon-apt-chromium.log)"; \
				     if [ -n "$$CI" ]; then exit 1; fi; }; \
		fi; \
	fi
	@if command -v fc-list >/dev/null && [ -z "$$(fc-list :lang=hi family)" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "Installing a Devanagari font ($(DEVANAGARI_FONT_PACKAGE)) for the Hindi pages..."; \
			export DEBIAN_FRONTEND=noninteractive; \
			{ apt-get install -y -q $(DEVANAGARI_FONT_PACKAGE) \
				|| { apt-get update -q && apt-get install -y -q $(DEVANAGARI_FONT_PACKAGE); }; } \
				>/tmp/yukon-apt-fonts.log 2>&1 \
				|| { echo "apt-get install $(DEVANAGARI_FONT_PACKAGE) failed (log: /tmp/yukon-apt-fonts.log)"; \
				     if [ -n "$$CI" ]; then exit 1; fi; }; \
		fi; \
	fi

# A failed build only says so: the solver then runs in pure Python (its tests say the core is missing).
$(SOLVER_CORE): games/solver/core.c
	@$(CC) -O2 -std=c99 -Wall -Wextra -shared -fPIC -o $@ $< \
		|| echo "Could not build $@ with $(CC): the solver runs in pure Python (slower)."

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The full stack without Docker: point DATABASE_URL and REDIS_URL at running servers.
stack: $(RUNTIME_STAMP) $(SOLVER_CORE)
	@if [ -z "$$REDIS_URL" ]; then \
		echo "make stack needs REDIS_URL (and usually DATABASE_URL); see docs/operations.md"; exit 1; \
	fi
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v 0
	@mkdir -p var
	@trap 'kill $$(jobs -p) 2>/dev/null; wait' EXIT INT TERM; \
	export WEBSOCKET_ORIGIN=$${WEBSOCKET_ORIGIN-http://$(HOST):$(ASGI_PORT)}; \
	GUNICORN_BIND=$${GUNICORN_BIND:-$(HOST):$(PORT)} \
		$(BIN)/gunicorn -c python:yukon_site.gunicorn_conf yukon_site.wsgi & \
	$(BIN)/daphne -b $(HOST) -p $(ASGI_PORT) yukon_site.asgi:application & \
	$(BIN)/celery -A yukon_site worker --loglevel INFO & \
	$(BIN)/celery -A yukon_site worker -Q solver -c 1 --hostname solver@%h --loglevel INFO & \
	$(BIN)/celery -A yukon_site worker -Q hints -c 1 --hostname hints@%h --loglevel INFO & \
	$(BIN)/celery -A yukon_site worker -Q fairplay -c 1 --hostname fairplay@%h --loglevel INFO & \
	$(BIN)/celery -A yukon_site beat --loglevel INFO --schedule var/celerybeat-schedule & \
	wait -n
