"""A Guild name is at most 40 characters, the seat name limit: a longer name made on
the old limit of 60 is shortened to 39 characters and a number if needed to stay unique, so
such a Guild can host a mission again (its Master can rename it in the app)."""

from django.db import migrations, models


def shorten_long_names(apps, schema_editor):
    Guild = apps.get_model("guilds", "Guild")
    taken = {n.lower() for n in Guild.objects.values_list("name", flat=True)}
    for guild in Guild.objects.all().order_by("pk"):
        if len(guild.name) <= 40:
            continue
        base = guild.name[:40].rstrip()
        name, n = base, 1
        while name.lower() in taken:
            n += 1
            name = f"{base[: 40 - len(str(n)) - 1].rstrip()} {n}"
        taken.add(name.lower())
        guild.name = name
        guild.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [
        ("guilds", "0004_mission_hold"),
    ]

    operations = [
        migrations.RunPython(shorten_long_names, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="guild",
            name="name",
            field=models.CharField(max_length=40, unique=True),
        ),
    ]
