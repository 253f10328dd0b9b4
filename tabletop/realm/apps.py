"""Pixel Demon's Realm."""

from django.apps import AppConfig


class RealmConfig(AppConfig):
    name = "tabletop.realm"
    label = "realm"
    verbose_name = "Pixel Demon's Realm"

    def ready(self):
        from tabletop.registry import register  # noqa: PLC0415 - AppConfig.ready

        from .content_db import gather  # noqa: PLC0415 - AppConfig.ready
        from .rules import RealmRuleset  # noqa: PLC0415 - AppConfig.ready

        register(RealmRuleset(), content=gather)
