"""ASGI entry point: HTTP through Django, websockets through Channels (DESIGN.md, live sync)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from tabletop.gate import SameOriginWebsocket  # noqa: E402
from tabletop.routing import websocket_urlpatterns  # noqa: E402

# Static files: ServeStatic's middleware (config/settings.py, SERVE_STATIC), inside Django.
application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Only this site's own pages may open a table's socket (scheme, host and port).
        "websocket": SameOriginWebsocket(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
