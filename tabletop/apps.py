from django.apps import AppConfig


class TabletopConfig(AppConfig):
    name = "tabletop"
    label = "tabletop"
    verbose_name = "Live tables"

    def ready(self) -> None:
        from tabletop.counter import CounterRuleset
        from tabletop.registry import register

        register(CounterRuleset())
