from django.urls import path

from . import views

app_name = "personimo"
urlpatterns = [
    path("score/", views.score, name="score"),
]
