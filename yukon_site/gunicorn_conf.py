"""Gunicorn settings: `gunicorn -c python:yukon_site.gunicorn_conf yukon_site.wsgi`.

Workers come from WEB_CONCURRENCY (gunicorn's own variable; default: cores + 1), their threads
from GUNICORN_THREADS (default 1: sync workers), the address from GUNICORN_BIND.
"""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
# One process more than cores: another request runs while one waits on PostgreSQL's commit.
# Measured on 2 cores, 3 sync workers beat 2 (intake) and 5 or 2 × 4 threads (p99 of board reads:
# threads wait on the interpreter lock), so threads stay off unless GUNICORN_THREADS asks.
workers = int(os.environ.get("WEB_CONCURRENCY", str((os.cpu_count() or 1) + 1)))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
worker_class = "gthread" if threads > 1 else "sync"
# The workers' heartbeat files in memory, not on a disk that may stall them.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
timeout = 30
graceful_timeout = 30
# gunicorn refuses what is over these itself, in HTML, before Django sees the request (docs/
# operations.md, "Limits"). The request line at its most (8190 bytes; the default is 4094), so that
# an API URL over the API's own limit (2048 bytes, yukon_site/url_limits.py) gets its JSON 414.
limit_request_line = 8190
# Headers: gunicorn's defaults, written down: 100 fields of up to 8190 bytes each (400 past them).
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = "-"
errorlog = "-"
# Log lines as JSON, like the application.
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "yukon_site.jsonlog.JsonLineFormatter"}},
    "handlers": {
        "stdout": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "json"}
    },
    "root": {"handlers": ["stdout"], "level": "INFO"},
    "loggers": {
        "gunicorn.error": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
        "gunicorn.access": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
    },
}
