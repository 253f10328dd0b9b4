"""Reading the admin-editable content for a new table (the only Django-aware content code)."""

from .content import demo_content


def load_content() -> dict:
    """The content a new table copies into its opening event: ``{"demons", "pacts",
    "afflictions"}`` from the rows in use, each kind falling back to the demo content when the
    admin has no rows of it."""
    from .models import Affliction, Demon, Pact

    demo = demo_content()
    demons = [d.as_content() for d in Demon.objects.filter(in_use=True)]
    pacts = [p.as_content() for p in Pact.objects.filter(in_use=True)]
    afflictions = [a.as_content() for a in Affliction.objects.filter(in_use=True)]
    return {
        "demons": demons or demo["demons"],
        "pacts": pacts or demo["pacts"],
        "afflictions": afflictions or demo["afflictions"],
    }
