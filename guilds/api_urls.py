"""Guild API routes, included by the project at ``/api/guild/``."""

from django.urls import path

from . import api, city_api, ids  # noqa: F401 (ids registers the <id:...> converter)

urlpatterns = [
    path("", api.guild, name="api-guild"),
    path("gate/redeem", api.redeem, name="api-guild-redeem"),
    path("database", api.database, name="api-guild-database"),
    path("mercenaries", api.mercenaries, name="api-guild-mercenaries"),
    path("mercenaries/<id:pk>/dismiss", api.mercenary_dismiss, name="api-guild-dismiss"),
    path("mercenaries/<id:pk>/heal", api.mercenary_heal, name="api-guild-heal"),
    path("weapons", api.weapons, name="api-guild-weapons"),
    path("weapons/<id:pk>/equip", api.weapon_equip, name="api-guild-equip"),
    path("weapons/<id:pk>/unequip", api.weapon_unequip, name="api-guild-unequip"),
    path("codes", api.codes, name="api-guild-codes"),
    path("codes/<id:pk>/assign", api.code_assign, name="api-guild-code-assign"),
    path("codes/<id:pk>/unassign", api.code_unassign, name="api-guild-code-unassign"),
    path("guests", api.guests, name="api-guild-guests"),
    path("guests/<id:pk>/dismiss", api.guest_dismiss, name="api-guild-guest-dismiss"),
    path("pantheon", api.pantheon, name="api-guild-pantheon"),
    path("pantheon/<id:pk>/remove", api.pantheon_remove, name="api-guild-pantheon-remove"),
    path("buildings/<slug:kind>/upgrade", api.building_upgrade, name="api-guild-upgrade"),
    path("ledger", api.ledger, name="api-guild-ledger"),
    path("roster", api.roster, name="api-guild-roster"),
    path("city", city_api.city, name="api-city"),
    path("city/preview", city_api.preview, name="api-city-preview"),
    path("city/expeditions", city_api.expeditions, name="api-city-expeditions"),
    path("city/expeditions/<id:pk>", city_api.expedition, name="api-city-expedition"),
    path("city/events/<id:pk>/answer", city_api.event_answer, name="api-city-event-answer"),
    path("city/news", city_api.news, name="api-city-news"),
    path("city/news/seen", city_api.news_seen, name="api-city-news-seen"),
]
