"""Joins the two 0006 migrations that were written side by side (a room name of 60 characters,
the seat handover): nothing to do but make them one history again."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tabletop", "0006_name_room_60"),
        ("tabletop", "0006_seat_handover"),
    ]

    operations = []
