from django.apps import AppConfig


class EspionageConfig(AppConfig):
    name = "tabletop.espionage"
    label = "espionage"
    verbose_name = "Demon Espionage"

    def ready(self):
        from tabletop.registry import register  # noqa: PLC0415 - AppConfig.ready

        from .rules import EspionageRuleset  # noqa: PLC0415 - AppConfig.ready

        register(EspionageRuleset())
