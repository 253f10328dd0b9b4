"""ASGI entry point: HTTP through Django, websockets through Channels (DESIGN.md, live sync)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.core.exceptions import SuspiciousOperation  # noqa: E402
from django.http import Http404  # noqa: E402

from tabletop.gate import SameOriginWebsocket  # noqa: E402
from tabletop.routing import websocket_urlpatterns  # noqa: E402


class StaticFiles(ASGIStaticFilesHandler):
    """Django's static files handler, where a path that climbs out of the static folders
    (``/static/%2e%2e/...``: ``SuspiciousFileOperation``) is a plain 404, not a 500."""

    def serve(self, request):
        try:
            return super().serve(request)
        except (SuspiciousOperation, ValueError) as exc:  # ValueError: a NUL byte in the path
            raise Http404("No such file.") from exc


# The ASGI server serves our static files itself (htmx, CSS): a table may have no internet and
# no web server in front. SERVE_STATIC=0 when a proxy or CDN serves /static/.
http_app = StaticFiles(django_asgi_app) if settings.SERVE_STATIC else django_asgi_app

application = ProtocolTypeRouter(
    {
        "http": http_app,
        # Only this site's own pages may open a table's socket (scheme, host and port).
        "websocket": SameOriginWebsocket(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
