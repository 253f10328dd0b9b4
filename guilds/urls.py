"""Guild pages, included by the project at ``/guild/``."""

from django.urls import path

from . import city_views, ids, views  # noqa: F401 (ids registers the <id:...> converter)

app_name = "guilds"
urlpatterns = [
    path("", views.home, name="home"),
    path("found/", views.found, name="found"),
    path("rename/", views.rename, name="rename"),
    path("tour/seen/", views.tour_seen, name="tour_seen"),
    path("friends/", views.friends, name="friends"),
    path("friends/prepare/", views.friend_prepare, name="friend_prepare"),
    path("friends/<id:pk>/delete/", views.friend_delete, name="friend_delete"),
    path("gate/", views.gate, name="gate"),
    path("gate/redeem/", views.redeem, name="redeem"),
    path("dormitory/", views.dormitory, name="dormitory"),
    path("dormitory/enlist/", views.enlist, name="enlist"),
    path("dormitory/<id:pk>/dismiss/", views.dismiss, name="dismiss"),
    path("dormitory/<id:pk>/heal/", views.heal, name="heal"),
    path("armory/", views.armory, name="armory"),
    path("armory/buy/", views.buy, name="buy"),
    path("armory/<id:pk>/equip/", views.equip, name="equip"),
    path("armory/<id:pk>/unequip/", views.unequip, name="unequip"),
    path("library/", views.library, name="library"),
    path("library/add/", views.code_add, name="code_add"),
    path("library/<id:pk>/assign/", views.code_assign, name="code_assign"),
    path("library/<id:pk>/unassign/", views.code_unassign, name="code_unassign"),
    path("guesthouse/", views.guesthouse, name="guesthouse"),
    path("guesthouse/enlist/", views.follower_enlist, name="follower_enlist"),
    path("guesthouse/<id:pk>/dismiss/", views.follower_dismiss, name="follower_dismiss"),
    path("pantheon/", views.pantheon, name="pantheon"),
    path("pantheon/add/", views.daemon_add, name="daemon_add"),
    path("pantheon/<id:pk>/remove/", views.daemon_remove, name="daemon_remove"),
    path("buildings/", views.buildings, name="buildings"),
    path("buildings/<slug:kind>/upgrade/", views.upgrade, name="upgrade"),
    path("ledger/", views.ledger, name="ledger"),
    path("roster/", views.roster, name="roster"),
    path("city/", city_views.city, name="city"),
    path("city/refresh/", city_views.refresh, name="city_refresh"),
    path("city/seen/", city_views.seen, name="city_seen"),
    path("city/points/<id:pk>/preview/", city_views.preview, name="city_preview"),
    path("city/points/<id:pk>/send/", city_views.send, name="city_send"),
    path("city/events/<id:pk>/answer/", city_views.answer, name="city_answer"),
]
