"""The product's URLs plus ``POST /bench/bare``: a bare Django view that inserts one row.

The benchmarks serve it from the same server, worker count and middleware as the table
commands, so every figure can be given as a ratio measured side by side."""

from django.http import HttpResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from tabletop.models import Heartbeat


@csrf_exempt
@require_POST
def bare_insert(request):
    Heartbeat.objects.create(source="bench")
    return HttpResponse(b'{"ok": true}', content_type="application/json")


urlpatterns = [path("bench/bare", bare_insert), path("", include("config.urls"))]
