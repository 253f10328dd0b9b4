from django.apps import AppConfig


class GuildsConfig(AppConfig):
    name = "guilds"
    label = "guilds"
    verbose_name = "Guilds"
