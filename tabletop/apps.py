import gc

from django.apps import AppConfig
from django.conf import settings


class TabletopConfig(AppConfig):
    name = "tabletop"
    label = "tabletop"
    verbose_name = "Live tables"

    def ready(self) -> None:
        from tabletop.counter import CounterRuleset  # noqa: PLC0415 - AppConfig.ready
        from tabletop.registry import register  # noqa: PLC0415 - AppConfig.ready

        register(CounterRuleset())

        from django.contrib.auth.signals import user_login_failed  # noqa: PLC0415

        from tabletop.gate import count_login_failure  # noqa: PLC0415 - AppConfig.ready

        user_login_failed.connect(count_login_failure, dispatch_uid="tabletop.login_failures")

        # fewer garbage collections: each walks every object the process keeps
        # (config/settings.py, TABLETOP_GC_THRESHOLDS)
        thresholds = getattr(settings, "TABLETOP_GC_THRESHOLDS", ())
        if thresholds:
            gc.set_threshold(*thresholds)
