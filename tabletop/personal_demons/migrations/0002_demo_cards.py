"""Seed the admin-editable card faces with the demo set (data/demo_content.json)."""

from django.db import migrations

CORE = {"id", "deck", "size", "name", "types", "value", "sigils", "sin", "sin_amount", "requirements"}


def seed(apps, schema_editor):
    from tabletop.personal_demons.rules.content import demo_cards

    CardFace = apps.get_model("personal_demons", "CardFace")
    if CardFace.objects.exists():
        return
    faces = []
    for card in demo_cards():
        tl, tr, bl, br = [s or "" for s in card["sigils"]]
        faces.append(
            CardFace(
                card_id=card["id"], deck=card["deck"], size=card["size"], name=card["name"],
                types=card.get("types", []), value=card["value"], sigil_tl=tl, sigil_tr=tr,
                sigil_bl=bl, sigil_br=br, sin=card.get("sin") or "", sin_amount=card.get("sin_amount", 0),
                requirements=card.get("requirements", []),
                extra={k: v for k, v in card.items() if k not in CORE},
            )
        )
    CardFace.objects.bulk_create(faces)


def unseed(apps, schema_editor):
    apps.get_model("personal_demons", "CardFace").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("personal_demons", "0001_initial")]
    operations = [migrations.RunPython(seed, unseed)]
