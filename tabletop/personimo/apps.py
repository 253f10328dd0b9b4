from django.apps import AppConfig


class PersonimoConfig(AppConfig):
    name = "tabletop.personimo"
    label = "personimo"
    verbose_name = "Personimo"

    def ready(self):
        from tabletop.registry import register

        from .rules import PersonimoRuleset

        register(PersonimoRuleset())
