"""Curse bans everywhere a card is played, not only in a binding ritual.

Rulebook FAQ "Curse Combinations": "Your Skulls are all 8's" + "Your 8's are all 3's" + "You
cannot play 3's" resolve as "Your Skulls are all 3's, therefore, you may not play Skulls." A
banned card cannot feed an Eater (in a ritual or as an action), be attached as an Eater, be
played as a Seeker or Keeper, summon a Vessel or exorcise a Vessel (rulebook "Eaters",
"Seekers", "Keepers", "Vessels", "Exorcising a Vessel"); it can still be discarded (rulebook
"Step 3 - End Your Turn": discarding is not playing)."""

import pytest

from tabletop.errors import RuleViolation
from tabletop.realm.rules import cards as C

from .deals import deal, demon_with, end, hand, refused

EIGHTS_ARE_3S_NO_3S = demon_with(
    ["V", "2", "D", "6"],
    id="t02",
    curse="Your 8s are all 3s. You cannot play 3s.",
    effects=[{"op": "rank_as_rank", "from": "8", "to": "3"}, {"op": "cannot_play_rank", "rank": "3"}],
    lasting=True,
)
SKULLS_ARE_3S_NO_3S = demon_with(
    ["D", "2", "V", "9"],
    id="t01",
    curse="Your Skulls are all 3s. You cannot play 3s.",
    effects=[{"op": "suit_as_rank", "suit": "S", "rank": "3"}, {"op": "cannot_play_rank", "rank": "3"}],
    lasting=True,
)
TESTED = ["SS", "KS", "ES", "5S", "7S", "9S", "3D", "3V", "3C", "8D", "mimic-1", "10V"]


def faq_chain_game():
    """Seat 0 binds Ossuarch ("Your Skulls are all 8s", S 8 C 4) and a demon carrying "Your 8s
    are all 3s" and "You cannot play 3s": the FAQ's chain, with a hand full of Skulls and 3s."""
    g = deal(
        [["8S", "4C", "2V", "6D", *TESTED], ["2C", "4V", "5V", "6V", "7V"]],
        active="d01",
        personal=["t02", "d06"],
        demons=[EIGHTS_ARE_3S_NO_3S],
        deck_top=["10D"],
    )
    g.send(0, "realm.demon.bind", {"target": "active", "cards": ["8S", "4C"]})
    g.send(1, "realm.ritual.pass")
    g.send(0, "realm.demon.bind", {"target": "personal", "cards": ["2V", "6D"]})
    g.send(1, "realm.ritual.pass")
    assert len(g.view(0)["me"]["curses"]) == 3
    return g


def test_faq_chain_bans_skulls_and_3s_in_the_hand_view():
    g = faq_chain_game()
    me = g.view(0)["me"]
    banned = {c["id"] for c in me["hand"] if c["banned"]}
    # Skulls are 3s (Wardens of Skulls too), 8s are 3s, and 3s cannot be played
    assert banned == {"SS", "KS", "ES", "5S", "7S", "9S", "3D", "3V", "3C", "8D"}
    # the page offers no power of a banned Warden; the Mimic has no suit and stays playable
    assert [c["id"] for c in me["powers"]] == ["mimic-1"]


def test_banned_cards_cannot_summon_a_vessel():
    # rulebook "Vessels": 3-of-a-kind are *played* from the hand
    g = faq_chain_game()
    assert refused(g, 0, "realm.vessel.summon", {"cards": ["5S", "7S", "9S"]}) == "card_banned"
    assert refused(g, 0, "realm.vessel.summon", {"cards": ["3D", "3V", "3C"]}) == "card_banned"


def test_banned_wardens_cannot_be_played_for_their_power():
    # rulebook "Seekers", "Keepers", "Eaters": each is *played* from the hand
    g = faq_chain_game()
    assert refused(g, 0, "realm.warden.seeker", {"card": "SS", "opponent": 1, "suit": "V"}) == "card_banned"
    assert refused(g, 0, "realm.warden.keeper", {"card": "KS", "opponent": 1, "parity": "odd"}) == "card_banned"
    assert refused(g, 0, "realm.eater.attach", {"card": "ES", "slot": "p1"}) == "card_banned"
    with pytest.raises(RuleViolation) as info:  # the message says why
        g.send(0, "realm.eater.attach", {"card": "ES", "slot": "p1"})
    assert info.value.message == "Your curses forbid playing the Eater of Skulls (it counts as 3 of Skulls)."
    # the Mimic has no suit or rank: no curse reaches it
    g.send(0, "realm.mimic.play", {"card": "mimic-1", "opponent": 1})
    assert g.state["take"] is not None


def test_banned_cards_can_still_be_discarded_at_reset():
    # rulebook "Step 3 - End Your Turn": discard down to 5 (discarding is not playing)
    g = faq_chain_game()
    skulls = [c for c in hand(g, 0) if c.endswith("S")]
    extra = len(hand(g, 0)) - 5
    discard = (skulls + [c for c in hand(g, 0) if c not in skulls])[:extra]
    end(g, 0, discard)
    assert set(discard) <= set(g.state["discard"])


def _skulls_game():
    """Seat 0 binds a demon "Your Skulls are all 3s. You cannot play 3s." and keeps Skulls;
    seat 1 holds a Vessel, the 7 of Candles and the Eater of Skulls."""
    g = deal(
        [["2D", "9V", "5S", "9S", "7D", "9D"], ["vessel-1", "7C", "ES", "2V", "3V"]],
        active="t01",
        personal=["d07", "d06"],
        below=["d04", "d11", "d19", "d13"],
        demons=[SKULLS_ARE_3S_NO_3S],
        deck_top=["10C", "10D", "4D", "4V", "6C", "8V", "8C", "2C"],
    )
    g.send(0, "realm.demon.bind", {"target": "active", "cards": ["2D", "9V"]})
    g.send(1, "realm.ritual.pass")
    end(g, 0)
    assert g.state["active"] == "d04"  # Mother Wick: C C 5 7
    return g


def test_a_banned_card_cannot_exorcise_a_vessel():
    # rulebook "Exorcising a Vessel": the player on the left *plays* a card of the declared rank
    g = _skulls_game()
    g.send(1, "realm.demon.bind", {"target": "active", "cards": ["vessel-1", "7C"],
                                   "declare": {"vessel-1": {"suit": "C", "rank": "5"}}})
    assert g.state["ritual"]["step"] == "exorcise" and g.state["ritual"]["responder"] == 0
    # the 5 of Skulls is printed 5, but a Skull is a 3 for seat 0, and 3s cannot be played
    assert refused(g, 0, "realm.ritual.exorcise", {"vessel": "vessel-1", "card": "5S"}) == "card_banned"
    assert g.view(0)["me"]["prompts"]["exorcise"][0]["cards"] == []
    g.send(0, "realm.ritual.pass")
    g.send(0, "realm.ritual.pass")
    assert [b["demon"] for b in g.state["players"][1]["bound"]] == ["d04"]


def test_a_binder_whose_only_food_is_banned_is_disrupted_and_cannot_feed_the_eater_later():
    # rulebook "Eater Disruption": "If you cannot immediately feed the Eater with a Ritual Card
    # of the matching suit from your hand, the binding is disrupted"; "Eaters": feeding plays a card
    g = _skulls_game()
    end(g, 1, hand(g, 1)[5:])
    assert "ES" in hand(g, 1)
    g.send(0, "realm.demon.bind", {"target": "personal", "cards": ["7D", "9D"]})  # Vorn: D D 7 9
    g.send(1, "realm.ritual.eater", {"card": "ES"})
    # seat 0 holds the 5 and 9 of Skulls, both banned: disrupted at once, the Eater stays
    assert g.log[-1].type == "realm.ritual.disrupted" and g.log[-1].data["auto"]
    assert {"5S", "9S"} <= set(hand(g, 0))
    assert g.state["eaters"] == {"p0": ["ES"]} and g.state["must_end"]
    end(g, 0, [c for c in hand(g, 0) if c not in ("5S", "9S")][: len(hand(g, 0)) - 5])
    end(g, 1, hand(g, 1)[5:])
    assert refused(g, 0, "realm.eater.feed", {"slot": "p0", "eater": "ES", "card": "5S"}) == "card_banned"
    assert refused(g, 0, "realm.eater.feed", {"slot": "p0", "eater": "ES", "card": "9S"}) == "card_banned"


def test_banned_is_the_cursed_face_and_vessels_mimics_are_never_banned():
    chain = [
        {"op": "suit_as_rank", "suit": "S", "rank": "8"},
        {"op": "rank_as_rank", "from": "8", "to": "3"},
        {"op": "cannot_play_rank", "rank": "3"},
    ]
    assert C.face("5S", chain) == ("S", "3") and C.banned("5S", chain)
    assert C.banned("8D", chain) and not C.banned("9D", chain)
    assert not C.banned("vessel-1", chain) and not C.banned("mimic-2", chain)
    assert C.banned("4V", [{"op": "cannot_play_suit", "suit": "V"}])
    assert not C.banned("4V", [])
