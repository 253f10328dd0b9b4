from django.apps import AppConfig


class EspionageConfig(AppConfig):
    name = "tabletop.espionage"
    label = "espionage"
    verbose_name = "Demon Espionage"
