from django.apps import AppConfig


class EspionageConfig(AppConfig):
    name = "tabletop.espionage"
    label = "espionage"
    verbose_name = "Demon Espionage"

    def ready(self):
        from tabletop.registry import register

        from .rules import EspionageRuleset

        register(EspionageRuleset())
