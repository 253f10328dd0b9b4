"""Two Guilds choosing at the same instant during a mission's preparation (6.4.1 characters
choice, 5.1.1): both phones showed the same version, both taps go through (the setup picks
are marked ``rebase``: ``missions.rules.setup.setup_command``); the rest of the preparation
still refuses a stale tap with ``stale_version``."""

import pytest
from django.test import Client
from django.urls import reverse

from missions.rules import DemlocRuleset

from .lifecycle_flow import open_table, roster_id, state, to_stage

pytestmark = pytest.mark.django_db


def phone(user):
    client = Client()
    client.force_login(user)
    return client


def tap(client, table, type_, version, **data):
    """What the page's form sends: the command, its ``d.`` fields, the version it showed."""
    body = {"type": type_, "expected_version": version, **{f"d.{k}": v for k, v in data.items()}}
    return client.post(
        reverse("tabletop:command", args=[table.code]), body, headers={"HX-Request": "true"}
    )


def at_characters(make_guild, demo_missions, ash, birch):
    """House Ash (mercenaries ``ash``) and House Birch (``birch``) at a mission's characters
    stage (6.4.1): ``(table, seats, their Masters' phones)``."""
    a = make_guild("House Ash", "red", ash)
    b = make_guild("House Birch", "blue", birch)
    _mission, table, seats = open_table([a, b], demo_missions["objective"])
    to_stage(table, seats, "characters")
    return table, seats, (phone(a.master), phone(b.master))


def test_only_a_guilds_own_setup_picks_are_decided_on_a_newer_state():
    game = DemlocRuleset()
    marked = {t for t in game.registry.commands if game.rebase_ok(t)}
    assert marked == {
        "demloc.setup.pick", "demloc.setup.unpick", "demloc.setup.hire", "demloc.setup.offer",
    }
    assert not game.rebase_ok("table.undo") and not game.rebase_ok("demloc.setup.next")


def test_two_guilds_choosing_at_the_same_version_both_go_through_6_4_1(
    make_guild, demo_missions
):
    """Ann and Bob each tap Choose on their own Rook on phones showing the same version: both
    are chosen and, as both want him, Rook is contested (5.1.1), as if they had tapped one
    after the other; then both free him at the same version."""
    table, (sa, sb), (ann, bob) = at_characters(make_guild, demo_missions, ("Rook", "Wren"), ("Rook",))
    shown = table.version
    rook_a, rook_b = roster_id(table, sa, "Rook"), roster_id(table, sb, "Rook")
    first = tap(ann, table, "demloc.setup.pick", shown, character=rook_a)
    second = tap(bob, table, "demloc.setup.pick", shown, character=rook_b)
    assert first.status_code == 200 and second.status_code == 200, second.content.decode()
    assert "stale_version" not in second.content.decode()
    s = state(table)["setup"]
    assert [p["id"] for p in s["picks"]["0"]] == [rook_a]
    assert [p["id"] for p in s["picks"]["1"]] == [rook_b]
    assert s["contests"]["Rook"]["seats"] == [0, 1]
    # A pick no longer valid on the newer state is refused with its own code, not as stale.
    again = tap(bob, table, "demloc.setup.pick", shown, character=rook_b)
    assert again.status_code == 400 and 'data-code="already_chosen"' in again.content.decode()
    table.refresh_from_db()
    shown = table.version
    freed = [tap(c, table, "demloc.setup.unpick", shown, character=i)
             for c, i in ((ann, rook_a), (bob, rook_b))]
    assert [r.status_code for r in freed] == [200, 200]
    s = state(table)["setup"]
    assert s["picks"] == {"0": [], "1": []} and s["contests"] == {}


def test_a_stale_next_or_undo_at_setup_is_still_refused_as_stale(make_guild, demo_missions):
    table, (sa, sb), (ann, bob) = at_characters(make_guild, demo_missions, ("Rook",), ("Ash",))
    shown = table.version
    assert tap(ann, table, "demloc.setup.pick", shown,
               character=roster_id(table, sa, "Rook")).status_code == 200
    for type_ in ("demloc.setup.next", "table.undo"):
        response = tap(bob, table, type_, shown)
        assert response.status_code == 409, type_
        assert 'data-code="stale_version"' in response.content.decode(), type_
    assert state(table)["setup"]["ready"] == []


def test_an_offer_above_the_purse_says_how_many_feods_the_guild_can_offer_5_1_1(
    make_guild, demo_missions
):
    """The page's offer form, 99999 typed: the answer (placed at the offer field by the page's
    script, tests/e2e/test_mission_contest.py) says how many feods the Guild can offer, and
    the offer form is still there to try again."""
    from missions.rules.setup import available_feods

    table, (sa, sb), (ann, bob) = at_characters(make_guild, demo_missions, ("Rook",), ("Rook",))
    tap(ann, table, "demloc.setup.pick", table.version, character=roster_id(table, sa, "Rook"))
    tap(bob, table, "demloc.setup.pick", table.version, character=roster_id(table, sb, "Rook"))
    left = available_feods(state(table)["setup"], 0)
    response = tap(ann, table, "demloc.setup.offer", table.version, name="Rook", feods=99999)
    html = response.content.decode()
    assert response.status_code == 400
    assert 'data-code="not_enough_feods"' in html and f"at most {left} feods" in html
    assert 'id="dl-contest"' in html and 'name="d.feods"' in html
    assert state(table)["setup"]["contests"]["Rook"]["offers"] == {}
