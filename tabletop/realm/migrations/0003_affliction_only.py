"""Demons whose curse relates only to Afflictions (rulebook "Afflictions", the plague doctor
symbol): the flag, and the two demo demons that carry it."""

from django.db import migrations, models

from tabletop.realm.content import demo_content


def seed(apps, schema_editor):
    Demon = apps.get_model("realm", "Demon")
    for order, d in enumerate(demo_content()["demons"]):
        if not d["affliction_only"]:
            continue
        c1, c2, c3, c4 = d["corners"]
        demon, _ = Demon.objects.get_or_create(code=d["id"], defaults=dict(
            name=d["name"], title=d["title"], lore=d["lore"], curse=d["curse"],
            lasting=d["lasting"], corner_1=c1, corner_2=c2, corner_3=c3, corner_4=c4,
            effects=d["effects"], order=order))
        demon.affliction_only = True
        demon.save(update_fields=["affliction_only"])


class Migration(migrations.Migration):
    dependencies = [("realm", "0002_demo_content")]
    operations = [
        migrations.AddField(
            model_name="demon",
            name="affliction_only",
            field=models.BooleanField(
                default=False,
                help_text="The curse relates only to Affliction Cards (plague doctor symbol): left "
                "out when a table plays without Afflictions, unless the host keeps them.",
            ),
        ),
        migrations.RunPython(seed, migrations.RunPython.noop),
    ]
