"""Pixel Demon's Realm."""

from django.apps import AppConfig


class RealmConfig(AppConfig):
    name = "tabletop.realm"
    label = "realm"
    verbose_name = "Pixel Demon's Realm"

    def ready(self):
        from tabletop.registry import register

        from .content_db import gather
        from .rules import RealmRuleset

        register(RealmRuleset(), content=gather)
