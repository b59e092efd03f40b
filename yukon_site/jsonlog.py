"""Log records as JSON lines, one object per line, for standard output."""

import json
import logging
from datetime import UTC, datetime

# Attributes every LogRecord has; anything else was passed with `extra=` and is kept.
_STANDARD_ATTRIBUTES = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "taskName",
}


class JsonLineFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key in _STANDARD_ATTRIBUTES or key.startswith("_"):
                continue
            if key == "request":  # Django passes the request (or a socket): keep what identifies it
                value = _describe_request(value)
                if value is None:
                    continue
            entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def _describe_request(request: object) -> str | None:
    method = getattr(request, "method", None)
    path = getattr(request, "path", None)
    return f"{method} {path}" if method and path else None
