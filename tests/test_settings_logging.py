import json
import logging
import sys

from yukon_site.jsonlog import JsonLineFormatter


def make_record(**extra) -> logging.LogRecord:
    record = logging.LogRecord(
        "games.verify", logging.WARNING, __file__, 1, "replay of %s failed", ("g1",), None
    )
    record.__dict__.update(extra)
    return record


def test_a_record_becomes_one_json_line_with_its_extra_fields():
    line = JsonLineFormatter().format(make_record(game_id=7))

    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "WARNING"
    assert entry["logger"] == "games.verify"
    assert entry["message"] == "replay of g1 failed"
    assert entry["game_id"] == 7
    assert entry["time"].endswith("+00:00")


def test_an_exception_is_kept_in_the_line():
    try:
        raise ValueError("bad move")
    except ValueError:
        record = make_record(exc_info=sys.exc_info())

    entry = json.loads(JsonLineFormatter().format(record))

    assert "ValueError: bad move" in entry["exception"]


def test_values_json_cannot_encode_are_written_as_text():
    entry = json.loads(JsonLineFormatter().format(make_record(where=object())))

    assert entry["where"].startswith("<object object")


def test_django_logs_go_to_stdout_as_json():
    handler = logging.getLogger("django").handlers[0]

    assert isinstance(handler.formatter, JsonLineFormatter)
    assert handler.stream is sys.stdout or handler.stream.name == "<stdout>"
