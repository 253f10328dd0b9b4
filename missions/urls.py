from django.urls import path

from guilds import ids  # noqa: F401 (registers the <id:...> URL converter)

from . import api, views

app_name = "missions"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.mission_new, name="new"),
    path("reference/", views.reference, name="reference"),
    path("t/<str:code>/bind/", views.bind, name="bind"),
    path("t/<str:code>/guest/", views.guest_bind, name="guest_bind"),
    path("t/<str:code>/close/", views.close, name="close"),
    path("t/<str:code>/leave/", views.leave, name="leave"),
    path("t/<str:code>/sheet/<str:piece>/", views.piece_forms, name="piece_forms"),
    path("t/<str:code>/continue/", views.continue_mission, name="continue"),
    path("report/<str:code>/", views.battle_report, name="report"),
    path("report/<str:code>.json", views.battle_report_json, name="report_json"),
    path("api/definitions", api.definitions, name="api_definitions"),
    path("api/missions", api.mission_open, name="api_open"),
    path("api/missions/<id:mission_id>/bind", api.mission_bind, name="api_bind"),
    path("api/missions/<id:mission_id>/close", api.mission_close, name="api_close"),
    path("api/missions/<id:mission_id>/leave", api.mission_leave, name="api_leave"),
    path("api/missions/<id:mission_id>/continue", api.mission_continue, name="api_continue"),
    path("api/missions/<id:mission_id>/report", api.mission_report, name="api_report"),
]
