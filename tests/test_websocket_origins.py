"""The races' WebSockets open only from the pages' origins (yukon_site/websocket_origins.py): the
scheme, host and port of the handshake's Origin, as Channels' OriginValidator compares them
(docs/races.md, docs/operations.md `WEBSOCKET_ALLOWED_ORIGINS`)."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from test_settings import production, run_python

from yukon_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

# Past the origin check, a signed-out socket is accepted, then closed 4401 (docs/races.md).
NOT_SIGNED_IN = 4401


def handshake(origin: str | None, host: str = "127.0.0.1:8001") -> dict:
    """Open a race's socket as a browser would from a page of `origin`, to the server at `host`."""

    async def connect() -> dict:
        headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin else [])
        communicator = WebsocketCommunicator(application, "/ws/races/nosuchrace/", headers=headers)
        accepted, _ = await communicator.connect()
        closed = (await communicator.receive_output(timeout=5)).get("code") if accepted else None
        await communicator.disconnect()
        return {"accepted": accepted, "closed": closed}

    # In a thread of its own: this process's main thread may hold a running event loop (pytest-
    # playwright's, left by a browser test earlier in the run), where async_to_sync refuses to run.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(async_to_sync(connect)).result()


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:8000",  # make stack: pages from gunicorn on 8000, sockets on Daphne's 8001
        "http://localhost:8000",
        "http://127.0.0.1:8001",  # the socket's own origin (make run: pages and sockets share it)
    ],
)
def test_the_pages_origins_are_accepted(origin):
    assert handshake(origin) == {"accepted": True, "closed": NOT_SIGNED_IN}


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:9999",  # another port of the same host: another server, maybe anyone's
        "https://127.0.0.1:8000",  # another scheme
        "http://127.0.0.2:8000",
        "https://evil.example",
        "null",  # a sandboxed frame or a file
        None,  # no Origin at all
    ],
)
def test_other_origins_are_refused_at_the_handshake(origin):
    assert handshake(origin) == {"accepted": False, "closed": None}, f"{origin} was let in"


def test_a_server_of_any_port_takes_its_own_origin_when_its_host_is_allowed():
    # The browser tests' Daphne, `make run PORT=8123`: pages and sockets share one origin.
    assert handshake("http://127.0.0.1:8123", host="127.0.0.1:8123")["accepted"]
    # A name pointed at the server (DNS rebinding) is not one of ALLOWED_HOSTS: refused.
    assert not handshake("http://rebound.example:8123", host="rebound.example:8123")["accepted"]


def test_the_setting_names_the_pages_origins(settings):
    settings.WEBSOCKET_ALLOWED_ORIGINS = ["https://yukon.example"]

    assert handshake("https://yukon.example")["accepted"]
    assert not handshake("http://yukon.example")["accepted"]
    assert not handshake("http://127.0.0.1:8000")["accepted"]
    assert not handshake("https://yukon.example:8443")["accepted"]


SHOW_ORIGINS = (
    "import json, django; django.setup(); from django.conf import settings; "
    "print(json.dumps(settings.WEBSOCKET_ALLOWED_ORIGINS))"
)


def origins_of(**variables: str) -> list[str]:
    result = run_python(["-c", SHOW_ORIGINS], **variables)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_default_origins_are_the_allowed_hosts_at_the_pages_port(tmp_path):
    development = origins_of(SECRET_KEY_FILE=str(tmp_path / "key"))
    assert "http://127.0.0.1:8000" in development and "http://localhost:8000" in development
    assert "http://127.0.0.1:8001" not in development
    assert "http://127.0.0.1:9000" in origins_of(SECRET_KEY_FILE=str(tmp_path / "key"), PORT="9000")
    # Production behind its TLS proxy: the public name over HTTPS, and the trusted origins.
    public = origins_of(**production(CSRF_TRUSTED_ORIGINS="https://www.yukon.example"))
    assert {"https://yukon.example", "https://www.yukon.example"} <= set(public)
    assert not any(origin.startswith("http:") for origin in public)
    given = origins_of(**production(WEBSOCKET_ALLOWED_ORIGINS="https://play.yukon.example/"))
    assert given == ["https://play.yukon.example"]


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        (production(WEBSOCKET_ALLOWED_ORIGINS="*"), 'WEBSOCKET_ALLOWED_ORIGINS="*"'),
        (production(WEBSOCKET_ALLOWED_ORIGINS="yukon.example"), "scheme://host[:port]"),
        (production(WEBSOCKET_ALLOWED_ORIGINS="https://yukon.example/play"), "scheme://host[:port]"),
    ],
)
def test_unsafe_or_malformed_origins_are_refused(variables, message):
    result = run_python(["-c", SHOW_ORIGINS], **variables)

    assert result.returncode != 0, result.stdout
    assert message in result.stderr
