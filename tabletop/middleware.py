"""Maps the kit's errors to HTTP for pages in one place (STYLE.md 5; DRF: ``tabletop.api``)."""

from django.http import JsonResponse
from django.shortcuts import render

from tabletop.errors import TabletopError


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
