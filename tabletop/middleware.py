"""Maps the kit's errors to HTTP for pages in one place (docs/architecture.md "Interfaces and errors"; DRF: ``tabletop.api``)."""

import io
import logging

from django.conf import settings
from django.http import HttpResponseBadRequest, JsonResponse
from django.http.multipartparser import MultiPartParser, MultiPartParserError
from django.shortcuts import render
from django.urls import Resolver404, resolve

from tabletop.errors import TabletopError
from tabletop.names import MAX_NAME


class TabletopErrorMiddleware:
    """A ``TabletopError`` escaping a page view becomes its HTTP status with the message:
    JSON for JSON callers, a small error page otherwise."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, TabletopError):
            return None
        if "application/json" in request.headers.get("Accept", ""):
            return JsonResponse(exception.as_dict(), status=exception.status)
        return render(request, "frontend/error.html", {"error": exception}, status=exception.status)


log = logging.getLogger("django.request")


class MalformedBodyMiddleware:
    """A multipart request whose ``Content-Type`` has no usable boundary (or a negative length)
    answers 400 here, before anything reads its body: otherwise the CSRF check, which reads
    ``request.POST`` for its token also in the 404 page's ``requires_csrf_token``, raised
    ``MultiPartParserError`` on an address that matches nothing (a 500), and Django's 400 for
    the others logged a 40-line traceback. One line at WARNING instead. The check is Django's own
    parser's constructor (it reads nothing)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "POST" and request.content_type.startswith("multipart/"):
            try:
                MultiPartParser(request.META, io.BytesIO(b""), [], request.encoding)
            except (MultiPartParserError, ValueError, TypeError) as exc:
                log.warning("Bad request (%s): %s", str(exc)[:80], request.path.split("/")[1][:20])
                if "application/json" in request.headers.get("Accept", ""):
                    return JsonResponse(
                        {"code": "bad_request", "detail": "The request's body cannot be read."},
                        status=400,
                    )
                return HttpResponseBadRequest(
                    "The request's body cannot be read.", content_type="text/plain"
                )
        return self.get_response(request)


class SeatTapMiddleware:
    """A phone's tap, ``POST /api/tables/<code>/commands`` with an ``X-Seat-Token`` (the API's
    hot path, ``tabletop.api.served_tap``), is answered here, without the middleware below
    this one: it reads no session, user, CSRF token or message, so it builds none. Its answer
    gets what they would add to it (``X-Frame-Options``, ``Content-Length``); the middleware
    above this one (connection pool, security headers, compression, ``Cache-Control``) still
    runs. Anything the hot path does not answer (no seat for the token, a form's body,
    malformed JSON) goes down the whole chain as any request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info
        if (request.method == "POST" and "HTTP_X_SEAT_TOKEN" in request.META
                and path.startswith("/api/tables/") and path.endswith("/commands")):
            from tabletop import api  # noqa: PLC0415 - the API's import needs the app registry

            try:
                match = resolve(path, getattr(request, "urlconf", None))
            except Resolver404:
                match = None
            if match is not None and match.func is api.table_command:
                response = api.served_tap(request, **match.kwargs)
                if response is not None:
                    response.headers.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS)
                    response.headers.setdefault("Content-Length", str(len(response.content)))
                    return response
        return self.get_response(request)


class PrivateByDefaultMiddleware:
    """Every page and API answer is ``Cache-Control: no-store`` (hands, seat secrets, move
    links and Guild data must stay off disks and shared caches) unless its view set its own
    ``Cache-Control`` (the service worker, the manifest). Static files never pass here."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not response.has_header("Cache-Control"):
            response["Cache-Control"] = "no-store, private"
        return response


def name_limit(request) -> dict:
    """Template context: ``name_max``, the longest seat or Guild name (``tabletop.names``),
    for every name field's ``maxlength`` and hint."""
    return {"name_max": MAX_NAME}


def developer_mode(request) -> dict:
    """Template context: ``developer_mode`` is True while ``DEBUG`` is on (the pages say so)."""
    return {"developer_mode": settings.DEBUG}
