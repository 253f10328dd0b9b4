"""The product's URLs plus ``POST /bench/bare``: a bare Django view that inserts one row.

The benchmarks serve it from the same server, worker count and middleware as the table
commands, so every figure can be given as a ratio measured side by side."""

from django.http import HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from tabletop.models import Heartbeat
from tabletop.seats import remember_seat, seat_from_token


@csrf_exempt
@require_POST
def bare_insert(request):
    Heartbeat.objects.create(source="bench")
    return HttpResponse(b'{"ok": true}', content_type="application/json")


@csrf_exempt
@require_POST
def seat_cookie(request):
    """The seat cookie and CSRF cookie a phone holds once it has joined by the join page
    (``tabletop.seats.remember_seat``), for the seat of the request's ``X-Seat-Token``: the
    benchmark's phones made by the API then tap through the page (``bench/live.py --tap
    page``). ``{"csrf": token}``: what the page's htmx requests send as ``X-CSRFToken``."""
    seat = seat_from_token(request.headers.get("X-Seat-Token"))
    if seat is None:
        return JsonResponse({"code": "not_seated"}, status=404)
    response = JsonResponse({"csrf": get_token(request)})
    remember_seat(response, seat, request)
    return response


urlpatterns = [path("bench/bare", bare_insert), path("bench/seat-cookie", seat_cookie),
               path("", include("config.urls"))]
