from django.urls import path

from tabletop import views

app_name = "tabletop"
urlpatterns = [
    path("tables/new/", views.table_new, name="new"),
    path("join/", views.join, name="join_form"),
    path("j/<str:code>/", views.join, name="join"),
    path("rejoin/<str:token>/", views.rejoin, name="rejoin"),
    path("t/<str:code>/", views.table_page, name="table"),
    path("t/<str:code>/command/", views.command, name="command"),
    path("t/<str:code>/live/", views.live, name="live"),
    path("t/<str:code>/options/", views.table_options, name="options"),
    path("t/<str:code>/seats/<int:number>/move/", views.seat_move, name="seat_move"),
    path("t/<str:code>/log/", views.table_log, name="log"),
    path("t/<str:code>/qr.svg", views.join_qr, name="qr"),
    path("t/<str:code>/seat-qr.svg", views.seat_qr, name="seat_qr"),
    path("t/<str:code>/seats/", views.table_seats, name="seats"),
]
