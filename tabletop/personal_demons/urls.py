from django.urls import path  # noqa: F401

app_name = "personal_demons"
urlpatterns: list = []
