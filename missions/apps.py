from django.apps import AppConfig


class MissionsConfig(AppConfig):
    name = "missions"
    label = "missions"
    verbose_name = "DemLoc missions"

    def ready(self):
        from tabletop.registry import register

        from .rules import DemlocRuleset

        register(DemlocRuleset())
