from django.apps import AppConfig


class RealmConfig(AppConfig):
    name = "tabletop.realm"
    label = "realm"
    verbose_name = "Pixel Demon's Realm"
