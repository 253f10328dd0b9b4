from django.urls import path

from . import views

app_name = "missions"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.mission_new, name="new"),
    path("reference/", views.reference, name="reference"),
    path("t/<str:code>/bind/", views.bind, name="bind"),
    path("t/<str:code>/close/", views.close, name="close"),
    path("t/<str:code>/continue/", views.continue_mission, name="continue"),
    path("report/<str:code>/", views.battle_report, name="report"),
    path("report/<str:code>.json", views.battle_report_json, name="report_json"),
]
