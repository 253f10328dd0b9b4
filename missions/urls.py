from django.urls import path

from . import views

app_name = "missions"
urlpatterns = [
    path("new/", views.mission_new, name="new"),
    path("reference/", views.reference, name="reference"),
]
