from django.urls import path

from tabletop import api

urlpatterns = [
    path("tables/", api.table_create, name="api-table-create"),
    path("tables/<str:code>/join", api.table_join, name="api-table-join"),
    path("tables/<str:code>/commands", api.table_command, name="api-table-command"),
    path("tables/<str:code>/view", api.table_view, name="api-table-view"),
    path("tables/<str:code>/events", api.table_events, name="api-table-events"),
    path("health", api.health, name="api-health"),
]
