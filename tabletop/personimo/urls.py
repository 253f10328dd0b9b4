from django.urls import path

from . import views

app_name = "personimo"
urlpatterns = [
    path("score/", views.score, name="score"),
    path("new/", views.new_table, name="new"),
]
