"""A settled contest for a mercenary is final for the mission's preparation (DemLoc rulebook
5.1.1 "Mercenaries cards": two mercenaries of one name never play in a mission; when two
players want the same one, he sides with one Guild). Pure, through the kit's ``Sim``."""



from missions.rules import setup as setup_rules
from tabletop.log import recent_lines
from tests.kit import refused_unchanged

from .demloc_sim import P, run
from .lifecycle_data import guild_payload
from .test_lifecycle_setup import _contest_table, new_table, to_characters

VESNA = "Vesna the Gray"


def picks(t, seat):
    return [p["id"] for p in t.state["setup"]["picks"][str(seat)]]


def refused(t, seat, type_, **data):
    """The error of a refused ``demloc.<type_>``; the table did not change."""
    return refused_unchanged(t, seat, P + type_, data)


def settled_for_bob():
    """Ann and Bob both want Vesna; Bob's 20 feods beat Ann's 15 (5.1.1)."""
    t = _contest_table()
    run(t, 0, "setup.offer", name=VESNA, feods=15)
    run(t, 1, "setup.offer", name=VESNA, feods=20)
    assert picks(t, 0) == [] and picks(t, 1) == ["m21"]
    return t


def test_5_1_1_the_losing_guild_cannot_pick_the_settled_mercenary_again():
    t = settled_for_bob()
    err = refused(t, 0, "setup.pick", character="m11")
    assert err.code == "mercenary_taken"
    assert VESNA in err.message and "Guild 2" in err.message and "Bob" in err.message
    assert t.state["setup"]["contests"] == {}


def test_5_1_1_a_third_guild_cannot_open_a_new_contest_for_a_settled_mercenary():
    a, b, c = (guild_payload(0, g) for g in (1, 2, 3))
    b["seat"], c["seat"] = 1, 2
    t = new_table(names=("Ann", "Bob", "Cid"), payloads=[a, b, c])
    to_characters(t)
    run(t, 0, "setup.pick", character="m11")
    run(t, 1, "setup.pick", character="m21")
    run(t, 0, "setup.offer", name=VESNA, feods=3)
    run(t, 1, "setup.offer", name=VESNA, feods=1)
    assert picks(t, 0) == ["m11"] and picks(t, 1) == []
    err = refused(t, 2, "setup.pick", character="m31")
    assert err.code == "mercenary_taken" and "Guild 1" in err.message
    assert refused(t, 1, "setup.pick", character="m21").code == "mercenary_taken"


def test_5_1_1_the_log_says_the_mercenary_sides_with_the_winning_guild():
    t = settled_for_bob()
    assert t.lines()[-1].startswith(f"{VESNA} sides with Guild 2 (Bob)")


def test_5_1_1_a_winner_who_frees_the_slot_keeps_him_and_pays_the_offer():
    """Our rule (the rulebook is silent): the settlement is final. The winner may free the
    slot, but Vesna stays with his Guild for this mission: nobody else takes him (the offers
    were revealed: picking him again would be a second auction with the first one's bids
    known), the offer stands, and his Guild may choose him back at no new cost."""
    t = settled_for_bob()
    run(t, 1, "setup.unpick", character="m21")
    assert picks(t, 1) == []
    assert "stays with Guild 2" in t.lines()[-1]
    assert refused(t, 0, "setup.pick", character="m11").code == "mercenary_taken"
    assert setup_rules.available_feods(t.state["setup"], 1) == 30  # the offer stands
    run(t, 1, "setup.pick", character="m21")
    assert picks(t, 1) == ["m21"] and t.state["setup"]["contests"] == {}
    assert setup_rules.available_feods(t.state["setup"], 1) == 30  # paid once
    assert setup_rules.available_feods(t.state["setup"], 0) == 50  # the loser pays nothing
    # The live log narrates the freed slot against the later state: the same words.
    live = recent_lines(t.ruleset, t.state, t.log[-2:], set())
    assert "Bob frees the slot of Vesna the Gray. Vesna the Gray stays with Guild 2" in (
        live[0].text or ""
    )
    t.assert_replay_equal()


def test_5_1_1_the_page_says_who_the_settled_mercenary_sides_with_and_offers_no_choose():
    from django.template.loader import render_to_string

    from missions.rules import DemlocRuleset

    t = settled_for_bob()

    def page(seat):
        view = DemlocRuleset().view(t.state, seat)
        return view, render_to_string(
            "missions/_setup.html", {"view": view, "command_url": "/c/", "table": {"code": "T"}}
        )

    view, html = page(0)
    vesna = next(c for c in view["setup"]["my_free_roster"] if c["id"] == "m11")
    assert vesna["taken"] == "Guild 2 (Bob)"
    assert f"<strong>{VESNA} sides with Guild 2 (Bob)</strong>" in html
    # No Choose button for Ann's Vesna (it would be refused): her other mercenaries keep one.
    row = html.split(f"<span>{VESNA} ")[1].split("</li>")[0]
    assert "demloc.setup.pick" not in row and "sides with Guild 2 (Bob)" in row
    assert 'name="d.character" value="m12"' in html
    _, html = page(1)
    assert f"{VESNA} sides with Guild 2 (Bob)</span>: your offer of 20 feods" in html


def test_5_1_1_a_guild_leaving_the_preparation_opens_the_settled_contest_again():
    """``missions.rules.leave``: everyone chooses again, so the settlement goes too."""
    t = settled_for_bob()
    t.send(None, "demloc.setup.guild_leave", {"seat": 1})
    assert t.state["setup"]["settled"] == {} and t.state["setup"]["stage"] == "guilds"
    t.assert_replay_equal()


def test_5_1_1_an_offer_above_the_guilds_feods_says_how_many_it_can_offer():
    """98 feods available, 99999 offered: refused with ``not_enough_feods`` naming the 98
    (it was ``bad_input`` "Offer a whole number of feods, 0 or more.", which stays for a
    negative offer)."""
    t = _contest_table(feods=(98, 50))
    err = refused(t, 0, "setup.offer", name=VESNA, feods=99999)
    assert err.code == "not_enough_feods" and "98" in err.message
    assert refused(t, 0, "setup.offer", name=VESNA, feods=99).code == "not_enough_feods"
    negative = refused(t, 0, "setup.offer", name=VESNA, feods=-1)
    assert negative.code == "bad_input" and negative.message == (
        "Offer a whole number of feods, 0 or more."
    )
    run(t, 0, "setup.offer", name=VESNA, feods=98)  # all it has is fine


def test_5_1_1_a_guild_ready_before_the_contest_that_loses_its_only_character_chooses_again():
    """Ann taps Next with Vesna only; Bob then chooses his own Vesna and wins the contest: Ann
    has no character left, so she is no longer ready (she chooses again, at least one
    character). Before, she stayed ready and the deployment waited forever on a Guild with
    nothing to place (setup playouts with PLAYOUT_SEEDS=40: 2 players, seed 29)."""
    a, b = guild_payload(0, 1), guild_payload(0, 2)  # both Guilds have Vesna
    b["seat"] = 1
    t = new_table(payloads=[a, b])
    to_characters(t)
    run(t, 0, "setup.pick", character="m11")
    run(t, 0, "setup.next")
    assert 0 in t.state["setup"]["ready"]
    run(t, 1, "setup.pick", character="m21")
    run(t, 0, "setup.offer", name=VESNA, feods=0)
    run(t, 1, "setup.offer", name=VESNA, feods=5)
    assert picks(t, 0) == [] and picks(t, 1) == ["m21"]
    assert 0 not in t.state["setup"]["ready"]
    run(t, 1, "setup.next")
    assert t.state["setup"]["stage"] == "characters"  # Ann has to choose again
    assert refused(t, 0, "setup.next").code == "no_characters"
    run(t, 0, "setup.pick", character="m12")
    run(t, 0, "setup.next")
    assert t.state["setup"]["stage"] != "characters"
