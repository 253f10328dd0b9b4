"""Personal Demons: a Ruleset on the table kit."""

from django.apps import AppConfig


class PersonalDemonsConfig(AppConfig):
    name = "tabletop.personal_demons"
    label = "personal_demons"
    verbose_name = "Personal Demons"

    def ready(self) -> None:
        from tabletop.registry import register  # noqa: PLC0415 - AppConfig.ready

        from .content_db import gather  # noqa: PLC0415 - AppConfig.ready
        from .rules import PersonalDemonsRuleset  # noqa: PLC0415 - AppConfig.ready

        register(PersonalDemonsRuleset(), content=gather)
