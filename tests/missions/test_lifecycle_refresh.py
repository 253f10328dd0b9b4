"""Bringing a Guild again during the preparation (our rule on 6.4 "connect their profiles":
a fresh snapshot until the player's Characters step is done), and the follower pool showing
what each Guild can enlist (5.1.2). Pure: no database."""

import pytest

from missions.rules import setup as setup_rules
from tabletop.errors import RuleViolation

from .demloc_sim import run
from .lifecycle_data import guild_payload
from .test_lifecycle_setup import all_next, new_table, stage, to_characters


def picks(t, seat):
    return [p["id"] for p in t.state["setup"]["picks"][str(seat)]]


def test_a_guild_brought_again_gets_its_new_mercenary_and_weapon():
    t = new_table()
    to_characters(t)
    fresh = guild_payload(1, 2)
    sword = {"name": "Long sword", "type": "swords", "damage": 3}
    fresh["roster"][0]["card"]["weapons"] = [sword]
    fresh["roster"].append(
        {
            "id": "m29",
            "source": "mercenary",
            "ref": 29,
            "name": "Thorn",
            "ready": True,
            "card": {**fresh["roster"][0]["card"], "id": "m29", "name": "Thorn"},
        }
    )
    fresh["taken_at"] = "2026-11-30T12:40:00+00:00"
    run(t, 1, "setup.pick", character="m21")
    t.send(None, "demloc.setup.guild_bind", fresh)
    setup = t.state["setup"]
    assert "m29" in [c["id"] for c in setup["guilds"]["1"]["roster"]]
    assert setup["guilds"]["1"]["taken_at"] == "2026-11-30T12:40:00+00:00"
    # The pick kept its slot and shows the new weapon.
    assert setup["picks"]["1"][0]["card"]["weapons"][0]["name"] == "Long sword"
    run(t, 1, "setup.pick", character="m29")
    view = t.ruleset.view(t.state, 1)["setup"]
    assert view["can_refresh"] is True
    assert view["my_guild"]["taken_at"] == "2026-11-30T12:40:00+00:00"


def test_choices_no_longer_valid_are_dropped_with_a_message():
    t = new_table()
    to_characters(t)
    run(t, 1, "setup.pick", character="m21")
    run(t, 1, "setup.pick", character="g23")
    run(t, 1, "setup.hire", follower="7")
    assert setup_rules.available_feods(t.state["setup"], 1) == 40
    fresh = guild_payload(1, 2, feods=50)
    fresh["roster"][0].update(ready=False, not_ready_code="mercenary_injured", why="injured")
    fresh["roster"] = [c for c in fresh["roster"] if c["id"] != "g23"]
    fresh["database_followers"] = []
    t.send(None, "demloc.setup.guild_bind", fresh)
    setup = t.state["setup"]
    assert picks(t, 1) == []
    assert setup_rules.available_feods(setup, 1) == 50  # the hire's 10 feods are back
    assert [(d["name"], d["why"]) for d in setup["guilds"]["1"]["dropped"]] == [
        (setup["guilds"]["1"]["roster"][0]["name"], "injured"),
        (guild_payload(1, 2)["roster"][2]["name"], "no longer in your Guild"),
        ("Hired blade", "no longer in your card database (5.1.2)"),
    ]
    lines = t.lines()
    assert any("leaves the slots of Bob: injured" in line for line in lines)


def test_a_hire_the_new_purse_cannot_pay_is_dropped():
    t = new_table()
    to_characters(t)
    run(t, 0, "setup.hire", follower="7")
    t.send(None, "demloc.setup.guild_bind", guild_payload(0, 1, feods=5))
    assert picks(t, 0) == []
    assert t.state["setup"]["guilds"]["0"]["dropped"][0]["why"] == "too dear for your purse"


def test_a_dropped_contested_mercenary_settles_the_contest_for_the_others():
    # 5.1.1: three guilds want Vesna; Ann and Cid offered; Bob's Vesna is injured meanwhile.
    a, b, c = (guild_payload(0, g) for g in (1, 2, 3))
    b["seat"], c["seat"] = 1, 2
    t = new_table(names=("Ann", "Bob", "Cid"), payloads=[a, b, c])
    to_characters(t)
    for seat, cid in ((0, "m11"), (1, "m21"), (2, "m31")):
        run(t, seat, "setup.pick", character=cid)
    run(t, 0, "setup.offer", name=t.state["setup"]["picks"]["0"][0]["name"], feods=5)
    run(t, 2, "setup.offer", name=t.state["setup"]["picks"]["0"][0]["name"], feods=3)
    fresh = guild_payload(0, 2)
    fresh["seat"] = 1
    fresh["roster"][0].update(ready=False, why="injured")
    t.send(None, "demloc.setup.guild_bind", fresh)
    assert t.state["setup"]["contests"] == {}
    assert picks(t, 0) == ["m11"] and picks(t, 1) == [] and picks(t, 2) == []


def test_no_refresh_once_the_characters_step_is_done_or_for_another_guild():
    t = new_table()
    with pytest.raises(RuleViolation) as err:
        t.send(None, "demloc.setup.guild_bind", {**guild_payload(1, 9), "seat": 0})
    assert err.value.code == "guild_bound"
    t.send(None, "demloc.setup.guild_bind", guild_payload(0, 1))  # guilds stage: fine
    to_characters(t)
    run(t, 0, "setup.pick", character="m11")
    run(t, 0, "setup.next")
    assert t.ruleset.view(t.state, 0)["setup"]["can_refresh"] is False
    assert t.ruleset.view(t.state, 1)["setup"]["can_refresh"] is True
    with pytest.raises(RuleViolation) as err:
        t.send(None, "demloc.setup.guild_bind", guild_payload(0, 1))
    assert err.value.code == "characters_done"
    run(t, 1, "setup.pick", character="m21")
    all_next(t)
    assert stage(t) == "mana"
    with pytest.raises(RuleViolation) as err:
        t.send(None, "demloc.setup.guild_bind", guild_payload(1, 2))
    assert err.value.code == "characters_done"


def test_the_pool_marks_followers_outside_the_guild_database():
    # 5.1.2: only followers of the Guild's own card database can be enlisted.
    other = guild_payload(1, 2)
    other["database_followers"] = []
    t = new_table(payloads=[guild_payload(0, 1), other])
    to_characters(t)
    [mine] = t.ruleset.view(t.state, 0)["setup"]["pool"]
    [theirs] = t.ruleset.view(t.state, 1)["setup"]["pool"]
    assert mine["owned"] is True and theirs["owned"] is False
