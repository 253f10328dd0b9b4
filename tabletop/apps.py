from django.apps import AppConfig


class TabletopConfig(AppConfig):
    name = "tabletop"
    label = "tabletop"
    verbose_name = "Live tables"

    def ready(self) -> None:
        from tabletop.counter import CounterRuleset  # noqa: PLC0415 - AppConfig.ready
        from tabletop.registry import register  # noqa: PLC0415 - AppConfig.ready

        register(CounterRuleset())
