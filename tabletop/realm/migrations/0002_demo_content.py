"""Seed the demo content (19 demons, the Acolyte Pact's two sides, 7 secret pacts, 12
afflictions) so the admin can edit it."""

from django.db import migrations


def seed(apps, schema_editor):
    from tabletop.realm.content import demo_content

    Demon = apps.get_model("realm", "Demon")
    Pact = apps.get_model("realm", "Pact")
    Affliction = apps.get_model("realm", "Affliction")
    content = demo_content()
    for order, d in enumerate(content["demons"]):
        c1, c2, c3, c4 = d["corners"]
        Demon.objects.get_or_create(code=d["id"], defaults=dict(
            name=d["name"], title=d["title"], lore=d["lore"], curse=d["curse"],
            lasting=d["lasting"], corner_1=c1, corner_2=c2, corner_3=c3, corner_4=c4,
            effects=d["effects"], order=order))
    for p in content["pacts"]:
        Pact.objects.get_or_create(code=p["id"], defaults=dict(
            name=p["name"], text=p["text"], conditions=p["conditions"], acolyte=p["acolyte"],
            side=p["side"]))
    for a in content["afflictions"]:
        Affliction.objects.get_or_create(code=a["id"], defaults=dict(name=a["name"],
                                                                      text=a["text"]))


def unseed(apps, schema_editor):
    for model in ("Demon", "Pact", "Affliction"):
        apps.get_model("realm", model).objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("realm", "0001_initial")]
    operations = [migrations.RunPython(seed, unseed)]
