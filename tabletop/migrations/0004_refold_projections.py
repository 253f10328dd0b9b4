"""Rebuild every stored projection from its events with today's rules (no prose in
state, topic folds). Uses the registered rulesets on purpose: the projection is a cache of the
fold of the events, which are unchanged."""

from django.db import migrations


def refold(apps, schema_editor):
    from tabletop.refold import refold_tables  # the current rules, on purpose (see docstring)

    refold_tables(apps.get_model("tabletop", "Table"), apps.get_model("tabletop", "Event"))


class Migration(migrations.Migration):
    dependencies = [("tabletop", "0003_table_setup")]

    operations = [migrations.RunPython(refold, migrations.RunPython.noop)]
