from django.apps import AppConfig


class MissionsConfig(AppConfig):
    name = "missions"
    label = "missions"
    verbose_name = "DemLoc missions"
