from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tabletop.api import api_not_found

urlpatterns = [
    path("", include("ops.urls")),  # admin/ops/ (before admin/), health/
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: the docs page passes the CSP too.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include("tabletop.api_urls")),
    path("api/guild/", include("guilds.api_urls")),
    re_path(r"^api/", api_not_found),  # any other /api/ path: JSON 404 {code, detail}
    path("guild/", include("guilds.urls")),
    path("missions/", include("missions.urls")),
    path("personimo/", include("tabletop.personimo.urls")),
    path("realm/", include("tabletop.realm.urls")),
    path("personal-demons/", include("tabletop.personal_demons.urls")),
    path("espionage/", include("tabletop.espionage.urls")),
    path("", include("tabletop.urls")),
    path("", include("frontend.urls")),
]
