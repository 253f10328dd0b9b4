"""The operations app's addresses: the operations page of the admin and the health checks
(``ops.health``). Included first by ``config/urls.py`` (``admin/ops/`` before the admin's own)."""

from django.urls import path

from . import health, views

urlpatterns = [
    path("admin/ops/", views.operations, name="operations"),
    path("health/live/", health.liveness, name="liveness"),
    path("health/", health.health_view, name="health"),
]
