"""Which pages may open the races' WebSockets: those of the origins the pages are served from.

A browser sends the page's origin with the handshake (`Origin`), and a page of any other site
must not open a socket in a player's name: their session cookie goes along. Channels'
`OriginValidator` compares the scheme, the host and the port (its `AllowedHostsOriginValidator`
ignores the port, so a server anyone starts on another port of the same host would pass). It is
given `settings.WEBSOCKET_ALLOWED_ORIGINS` (the pages of `make stack`, on gunicorn's port, open
sockets on Daphne's) and the socket's own origin, when its host is one of ALLOWED_HOSTS (`make
run` serves pages and sockets on one port, whichever). A refused handshake is closed before it
is accepted: the browser sees the connection fail. docs/races.md, docs/operations.md.
"""

from __future__ import annotations

from channels.security.websocket import OriginValidator
from django.conf import settings
from django.http.request import split_domain_port, validate_host

# Django's own hosts for a development server with ALLOWED_HOSTS empty (HttpRequest.get_host).
DEBUG_HOSTS = [".localhost", "127.0.0.1", "[::1]"]


def socket_own_origin(scope: dict) -> str | None:
    """The origin of the socket itself (`http://<Host>` over ws, https over wss) when its host is one
    the site answers to; None otherwise (a name pointed at the server: DNS rebinding)."""
    host = dict(scope.get("headers", [])).get(b"host", b"").decode("latin1")
    domain, _ = split_domain_port(host)
    allowed_hosts = settings.ALLOWED_HOSTS or (DEBUG_HOSTS if settings.DEBUG else [])
    if not domain or domain.startswith(".") or not validate_host(domain, allowed_hosts):
        return None
    return f"{'https' if scope.get('scheme') == 'wss' else 'http'}://{host}"


class PageOriginValidator:
    """ASGI middleware: the socket goes on to `application` only from a page of an allowed origin,
    read from the settings at each handshake (tests change them)."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        own_origin = socket_own_origin(scope)
        allowed = [*settings.WEBSOCKET_ALLOWED_ORIGINS, *([own_origin] if own_origin else [])]
        return await OriginValidator(self.application, allowed)(scope, receive, send)
