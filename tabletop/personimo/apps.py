from django.apps import AppConfig


class PersonimoConfig(AppConfig):
    name = "tabletop.personimo"
    label = "personimo"
    verbose_name = "Personimo"

    def ready(self):
        from tabletop.registry import register  # noqa: PLC0415 - AppConfig.ready

        from .rules import PersonimoRuleset  # noqa: PLC0415 - AppConfig.ready

        register(PersonimoRuleset())
