from django.apps import AppConfig


class PersonalDemonsConfig(AppConfig):
    name = "tabletop.personal_demons"
    label = "personal_demons"
    verbose_name = "Personal Demons"
