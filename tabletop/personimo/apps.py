from django.apps import AppConfig


class PersonimoConfig(AppConfig):
    name = "tabletop.personimo"
    label = "personimo"
    verbose_name = "Personimo"
