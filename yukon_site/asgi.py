"""ASGI entry point: the site over HTTP, and the races' WebSockets (/ws/, docs/races.md).

`make run` serves both from Daphne's runserver; the full stack runs Daphne as its own process
for /ws/ beside gunicorn.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

django_asgi_app = get_asgi_application()  # before anything that imports models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from races.routing import websocket_urlpatterns  # noqa: E402
from yukon_site.websocket_origins import PageOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The session authenticates the player; only the site's pages may open a socket: a page of
        # another origin (scheme, host and port) is refused at the handshake (websocket_origins.py).
        "websocket": PageOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
