from django.apps import AppConfig


class MissionsConfig(AppConfig):
    name = "missions"
    label = "missions"
    verbose_name = "DemLoc missions"

    def ready(self):
        from tabletop.registry import register

        from .rules import DemlocRuleset

        register(DemlocRuleset())

        from tabletop.signals import command_applied

        from .services import on_command_applied

        command_applied.connect(on_command_applied, dispatch_uid="missions.holds_sync")
