from django.apps import AppConfig


class MissionsConfig(AppConfig):
    name = "missions"
    label = "missions"
    verbose_name = "DemLoc missions"

    def ready(self):
        from tabletop.registry import register  # noqa: PLC0415 - AppConfig.ready

        from .rules import DemlocRuleset  # noqa: PLC0415 - AppConfig.ready

        register(DemlocRuleset())

        from tabletop.signals import (  # noqa: PLC0415 - AppConfig.ready
            applied_when,
            command_applied,
            game_sender,
            join_note_for,
            seat_name_for,
        )

        from .services import (  # noqa: PLC0415 - AppConfig.ready
            holds_may_change,
            join_note_of,
            on_command_applied,
            seat_name_of,
        )

        command_applied.connect(
            on_command_applied, sender=game_sender(DemlocRuleset.name),
            dispatch_uid="missions.holds_sync",
        )
        applied_when(DemlocRuleset.name, holds_may_change)
        seat_name_for(DemlocRuleset.name, seat_name_of)
        join_note_for(DemlocRuleset.name, join_note_of)
