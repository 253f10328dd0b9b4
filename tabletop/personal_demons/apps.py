"""Personal Demons: a Ruleset on the table kit (issue 9)."""

from django.apps import AppConfig


class PersonalDemonsConfig(AppConfig):
    name = "tabletop.personal_demons"
    label = "personal_demons"
    verbose_name = "Personal Demons"

    def ready(self) -> None:
        from tabletop.registry import register

        from .content_db import gather
        from .rules import PersonalDemonsRuleset

        register(PersonalDemonsRuleset(), content=gather)
