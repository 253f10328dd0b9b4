"""ASGI entry point: HTTP through Django, websockets through Channels (docs/architecture.md "The live path")."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.core.exceptions import ImproperlyConfigured  # noqa: E402
from django.urls import get_resolver  # noqa: E402
from servestatic import ServeStaticASGI  # noqa: E402

from config.request_threads import LentRequestThreads  # noqa: E402
from tabletop.gate import SameOriginWebsocket  # noqa: E402
from tabletop.routing import websocket_urlpatterns  # noqa: E402

# The ASGI server serves our static files itself (htmx, CSS): a table may have no internet and
# no web server in front. ServeStatic (the maintained
# ASGI-native WhiteNoise) serves STATIC_ROOT, which bin/run collects under content-hashed names
# with gzip copies: a hashed name is ``max-age=315360000, public, immutable``, any other 60 s,
# and the gzip copy goes to a browser that accepts it. It indexes the files once, when this
# module is imported (its Django middleware would index them again for every test client).
# Any other path, /static/%2e%2e/... included, falls through to Django (404). With DEBUG,
# Django's own handler serves the apps' folders as they are edited. SERVE_STATIC=0 when a
# proxy or CDN serves /static/.
HASHED = r"\.[0-9a-f]{12}\.[A-Za-z0-9]+$"  # ManifestStaticFilesStorage: name.<12 hex>.ext


def check_static_manifest() -> None:
    """Refuse to start (``ImproperlyConfigured``, with the command to run) when the static files'
    manifest is missing: every page names its CSS and scripts through it (the manifest storage),
    so without it every page would answer 500. ``bin/run`` collects at each start; a server
    started by hand (``uvicorn config.asgi:application``) must run ``collectstatic`` first.
    Nothing to check with ``DEBUG`` (Django serves the apps' folders as they are)."""
    if settings.DEBUG:
        return
    manifest = settings.STATIC_ROOT / "staticfiles.json"
    if not manifest.is_file():
        raise ImproperlyConfigured(
            f"No static files manifest at {manifest}: run `.venv/bin/python manage.py "
            "collectstatic --noinput` (as bin/run does) before starting the server."
        )


check_static_manifest()
if not settings.SERVE_STATIC:
    http_app = django_asgi_app
elif settings.DEBUG:
    http_app = ASGIStaticFilesHandler(django_asgi_app)
else:
    http_app = ServeStaticASGI(
        django_asgi_app,
        root=settings.STATIC_ROOT,
        prefix=settings.STATIC_URL,
        immutable_file_test=HASHED,
    )

# Each request runs its synchronous code in a thread lent from a set of idle ones, not a thread
# started (and joined) for it: config/request_threads.py.
http_app = LentRequestThreads(http_app)

application = ProtocolTypeRouter(
    {
        "http": http_app,
        # Only this site's own pages may open a table's socket (scheme, host and port).
        "websocket": SameOriginWebsocket(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Everything imported so far (Django, the apps, the URL conf: some 100,000 objects) lives as
# long as the process. gc.freeze() moves it out of the collector's reach, so a full collection
# (generation 2) scans only what was made since: in the evening benchmark (bench/live.py
# evening, 200 phones per process) the longest pause of a worker fell from 116 ms to 34 ms, and
# the frame p99 from 45/46/126 ms to 38/43/45 ms over 3 runs (docs/performance.md). The
# collection just before it frees what importing left behind (the CPython docs' advice for
# gc.freeze).
# The URL conf (and, through it, every view module and the API's error-code tables) is
# imported now rather than by the first request, so it is frozen too and no phone waits for it.
get_resolver().url_patterns  # noqa: B018 - imported for its side effect
gc.collect()
gc.freeze()
