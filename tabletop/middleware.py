"""Maps the kit's errors to HTTP for pages in one place (docs/architecture.md "Interfaces and errors"; DRF: ``tabletop.api``)."""

import io
import logging

from django.conf import settings
from django.http import HttpResponseBadRequest, JsonResponse
from django.http.multipartparser import MultiPartParser, MultiPartParserError
from django.shortcuts import render

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
