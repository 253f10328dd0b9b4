from django.apps import AppConfig


class MissionsConfig(AppConfig):
    name = "missions"
    label = "missions"
    verbose_name = "DemLoc missions"

    def ready(self):
        from tabletop.registry import register  # noqa: PLC0415 - AppConfig.ready

        from .rules import DemlocRuleset  # noqa: PLC0415 - AppConfig.ready

        register(DemlocRuleset())

        from tabletop.signals import command_applied, game_sender  # noqa: PLC0415 - AppConfig.ready

        from .services import on_command_applied  # noqa: PLC0415 - AppConfig.ready

        command_applied.connect(
            on_command_applied, sender=game_sender(DemlocRuleset.name),
            dispatch_uid="missions.holds_sync",
        )
