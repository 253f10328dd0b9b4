"""Card faces in the database: seeded with the demo set, edited in the admin, copied into
each new game (docs/architecture.md "The event-sourced table")."""

import pytest
from django.core.exceptions import ValidationError

from tabletop import services
from tabletop.personal_demons.content_db import active_cards
from tabletop.personal_demons.models import CardFace
from tabletop.personal_demons.rules.content import demo_cards
from tabletop.registry import get_ruleset
from tabletop.rules import Command

pytestmark = pytest.mark.django_db


def test_the_demo_set_is_seeded_and_reads_back_identically():
    assert CardFace.objects.count() == len(demo_cards())
    by_id = {c["id"]: c for c in active_cards()}
    for card in demo_cards():
        assert by_id[card["id"]] == {**card, "sin": card.get("sin") or None}


def test_an_edit_changes_new_games_only(make_table):
    old, _ = make_table("personal_demons", players=2)
    CardFace.objects.filter(card_id="I-01").update(value=9, name="Bael the Edited")
    CardFace.objects.filter(card_id="I-02").update(active=False)
    new, _ = make_table("personal_demons", players=2)
    game = get_ruleset("personal_demons")
    old_catalog = game.load(old.state)["catalog"]
    new_catalog = game.load(new.state)["catalog"]
    assert old_catalog["I-01"]["value"] != 9 and "I-02" in old_catalog
    assert new_catalog["I-01"]["value"] == 9 and "I-02" not in new_catalog
    replay = services.table_replay(old)
    assert replay["state_matches"]


def test_a_bad_face_is_refused_by_the_admin_form_validation():
    face = CardFace.objects.get(card_id="I-03")
    face.requirements = ["green"]
    with pytest.raises(ValidationError):
        face.clean()


def test_admin_lists_and_edits_card_faces(admin_client):
    response = admin_client.get("/admin/personal_demons/cardface/?deck=fear")
    assert response.status_code == 200 and "Fear of" in response.content.decode()
    face = CardFace.objects.get(card_id="FE-01")
    assert admin_client.get(f"/admin/personal_demons/cardface/{face.pk}/change/").status_code == 200


def test_a_game_with_edited_content_still_plays(make_table):
    CardFace.objects.filter(deck="round1").update(sigil_tl="purple")
    table, seats = make_table("personal_demons", players=2)
    state = get_ruleset("personal_demons").load(table.state)
    for seat in seats:
        cands = state["players"][seat.number]["candidates"]
        services.run_command(
            table, seat, Command("pd.setup.choose", {"fear_space": [0, 0], "keep": cands[:2]})
        )
    table.refresh_from_db()
    state = get_ruleset("personal_demons").load(table.state)
    assert state["phase"] == "summoning"
    assert all(state["catalog"][c]["sigils"][0] == "purple" for c in state["players"][0]["hand"])
