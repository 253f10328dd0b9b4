"""The content provider of Realm tables (Django side): reads the admin-editable rows in use when
a table starts; the kit stores the result with the table (``Table.setup``) and hands it to the
pure ``RealmRuleset.setup`` (tabletop/KIT.md "1. Pure rules": setup reads no database)."""

from .content import demo_content
from .models import Affliction, Demon, Pact


def gather(options: dict) -> dict:
    """The content a new table copies into its opening event: ``{"demons", "pacts",
    "afflictions"}`` (lists of dicts in the shapes of ``tabletop.realm.rules.cards``) from the
    rows in use, each kind falling back to the demo content when the admin has no rows of it.
    ``options`` (the table's) are not needed: setup picks from the content by option."""
    demo = demo_content()
    demons = [d.as_content() for d in Demon.objects.filter(in_use=True)]
    pacts = [p.as_content() for p in Pact.objects.filter(in_use=True)]
    afflictions = [a.as_content() for a in Affliction.objects.filter(in_use=True)]
    return {
        "demons": demons or demo["demons"],
        "pacts": pacts or demo["pacts"],
        "afflictions": afflictions or demo["afflictions"],
    }
