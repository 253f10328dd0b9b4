"""The first-access tour (DemLoc rulebook 6.2 "at the first access to the app, players watch a
tutorial"): a Guild remembers it was shown. Guilds founded before the tour existed have had
their first visit, so they count as having seen it."""

from django.db import migrations, models


def existing_guilds_have_seen_it(apps, schema_editor):
    apps.get_model("guilds", "Guild").objects.update(tour_seen=True)


class Migration(migrations.Migration):
    dependencies = [("guilds", "0008_fixed_weapon_range_fury_follower_code")]

    operations = [
        migrations.AddField(
            model_name="guild",
            name="tour_seen",
            field=models.BooleanField(
                default=False, help_text="The first-access tour (6.2) was finished or skipped."
            ),
        ),
        migrations.RunPython(existing_guilds_have_seen_it, migrations.RunPython.noop),
    ]
