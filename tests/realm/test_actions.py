"""Wardens, Mimics, Vessels, releasing, curses in play, Pacts and Afflictions (rulebook "Realm
Wardens", "The Mimics", "Vessels", "Releasing a Demon", "Curses", "How to Win",
"Afflictions")."""

from tabletop.realm.rules import cards as C

from .deals import deal, demon_with, end, hand, refused

OTHER = ["2V", "3V", "AV", "vessel-2", "KD"]


def test_seeker_sees_the_hand_and_takes_an_ace_to_10_of_the_named_suit():
    g = deal([["SD", "2S", "3S", "4S", "5S"], list(OTHER)])
    assert refused(g, 0, "realm.warden.seeker", dict(card="SD", opponent=0, suit="V")) == "bad_target"
    assert refused(g, 0, "realm.warden.seeker", dict(card="2S", opponent=1, suit="V")) == "wrong_card"
    g.send(0, "realm.warden.seeker", dict(card="SD", opponent=1, suit="V"))
    me = g.view(0)["me"]
    assert [c["id"] for c in me["glimpse"]["cards"]] == OTHER  # printed suits and ranks
    assert {c["id"] for c in me["take"]} == {"2V", "3V", "AV"}
    assert g.view(1)["me"]["glimpse"] is None
    assert refused(g, 0, "realm.turn.end") == "take_pending"
    assert refused(g, 0, "realm.card.take", dict(card="KD")) == "bad_card"
    assert refused(g, 1, "realm.card.take", dict(card="2V")) == "not_now"
    g.send(0, "realm.card.take", dict(card="AV"))
    assert "AV" in hand(g, 0) and "AV" not in hand(g, 1)
    assert g.view(0)["me"]["glimpse"] is None and "SD" in g.state["discard"]


def test_seeker_draws_when_no_card_of_the_suit_is_revealed():
    g = deal([["SD", "2S", "3S", "4S", "5S"], list(OTHER)], deck_top=["9C", "8C"])
    g.send(0, "realm.warden.seeker", dict(card="SD", opponent=1, suit="C"))
    assert g.state["take"] is None and "8C" in hand(g, 0)
    assert g.view(0)["me"]["glimpse"]["cards"][0]["id"] == "2V"  # what was seen stays shown


def test_keeper_takes_odd_or_even_and_wardens_aces_vessels_are_neither():
    g = deal([["KS", "2S", "3S", "4S", "5S"], list(OTHER)])
    assert refused(g, 0, "realm.warden.keeper", dict(card="KS", opponent=1, parity="prime")) == "bad_parity"
    g.send(0, "realm.warden.keeper", dict(card="KS", opponent=1, parity="odd"))
    assert [c["id"] for c in g.view(0)["me"]["take"]] == ["3V"]
    g.send(0, "realm.card.take", dict(card="3V"))
    g2 = deal(
        [["KS", "2S", "3S", "4S", "5S"], ["AV", "vessel-2", "KD", "ED", "mimic-1"]],
        deck_top=["9C", "8C"],
    )
    g2.send(0, "realm.warden.keeper", dict(card="KS", opponent=1, parity="even"))
    assert g2.state["take"] is None and hand(g2, 0)[-1] == "8C"


def test_mimic_takes_any_non_vessel_card():
    g = deal([["mimic-1", "2S", "3S", "4S", "5S"], list(OTHER)])
    g.send(0, "realm.mimic.play", dict(card="mimic-1", opponent=1))
    assert {c["id"] for c in g.view(0)["me"]["take"]} == {"2V", "3V", "AV", "KD"}
    assert refused(g, 0, "realm.card.take", dict(card="vessel-2")) == "bad_card"
    g.send(0, "realm.card.take", dict(card="KD"))
    assert "KD" in hand(g, 0) and "mimic-1" in g.state["discard"]


def test_summon_a_vessel_with_three_of_a_suit_or_a_rank():
    g = deal([["2S", "3S", "ES", "7D", "7V", "7C", "mimic-1", "5D"], ["2V", "3V", "4V"]])
    assert refused(g, 0, "realm.vessel.summon", dict(cards=["2S", "3S"])) == "not_three_of_a_kind"
    assert refused(g, 0, "realm.vessel.summon", dict(cards=["2S", "3S", "7D"])) == "not_three_of_a_kind"
    assert refused(g, 0, "realm.vessel.summon", dict(cards=["2S", "3S", "mimic-1"])) == "not_three_of_a_kind"
    g.send(0, "realm.vessel.summon", dict(cards=["2S", "3S", "ES"]))  # three Skulls
    g.send(0, "realm.vessel.summon", dict(cards=["7D", "7V", "7C"]))  # three 7s
    assert sum(1 for c in hand(g, 0) if C.is_vessel(c)) == 2
    assert len(g.state["vessels"]) == 6
    assert g.view(1)["players"][0]["vessels_in_hand"] == 2  # public information
    assert (
        refused(g, 0, "realm.vessel.summon", {"cards": ["vessel-1", "vessel-2", "mimic-1"]})
        == "not_three_of_a_kind"
    )


def test_the_vessel_stack_can_run_empty():
    cards = ["2S", "3S", "4S", "5S", "6S", "7S"]
    g = deal([cards, ["2V"]], deck_top=["8S"], vessels=[])  # every Vessel is out
    assert refused(g, 0, "realm.vessel.summon", dict(cards=["2S", "3S", "4S"])) == "no_vessel"
    assert len(C.VESSELS) == 8


def test_release_returns_the_demon_to_the_bottom_draws_3_and_ends_its_curse():
    quill = "d10"  # Lady Quill: V C 8 2, lasting "Reset your hand to 4 cards instead of 5."
    g = deal([["8V", "2C", "3S", "4S", "5S"], ["2V", "3V", "4V", "5V", "6V"]], active=quill)
    g.send(0, "realm.demon.bind", dict(target="active", cards=["8V", "2C"]))
    g.send(1, "realm.ritual.pass")
    assert g.view(0)["me"]["hand_size"] == 4
    assert g.view(0)["last_curse"]["name"] == "Lady Quill"
    assert len(hand(g, 0)) == 4  # 6 after the Draw, 2 played
    assert refused(g, 0, "realm.turn.end", dict(discard=[hand(g, 0)[0]])) == "discard_count"
    end(g, 0)
    assert len(hand(g, 0)) == 4  # reset to 4, not 5
    end(g, 1, hand(g, 1)[5:])
    assert refused(g, 0, "realm.demon.release", dict(demon="d04")) == "not_bound"
    assert len(hand(g, 0)) == 6  # Draw step: 1, then up to 6
    g.send(0, "realm.demon.release", dict(demon=quill))
    assert g.state["demon_deck"][-1] == quill and g.state["players"][0]["bound"] == []
    assert len(hand(g, 0)) == 6 + 3 and g.view(0)["me"]["hand_size"] == 5


def test_a_lasting_curse_applies_to_later_bindings():
    seraphel = "d06"  # V V 10 4, "You cannot play Virgins."
    g = deal(
        [["10V", "4V", "5C", "7C", "9V"], ["2D", "3D", "4D", "5D", "6D"]],
        active=seraphel,
        personal=["d04", "d05"],
    )
    g.send(0, "realm.demon.bind", dict(target="active", cards=["10V", "4V"]))
    g.send(1, "realm.ritual.pass")
    assert g.state["players"][0]["bound"][0]["demon"] == seraphel
    g.send(0, "realm.demon.bind", dict(target="personal", cards=["5C", "7C"]))  # no Virgin needed
    g.send(1, "realm.ritual.pass")
    assert len(g.state["players"][0]["bound"]) == 2


def test_faq_chain_in_play_forbids_skulls():
    ossuarch, octavia, trihex = "d01", "d02", "d03"
    blocked = demon_with(["S", "6", "D", "2"], id="t01")
    g = deal(
        [["8S", "4C", "3V", "8D", "9C"], ["2V", "3S", "4V", "5V", "6V"]],
        active=ossuarch,
        below=[octavia, trihex, "t01", "d09", "d10"],
        personal=["d04", "d05"],
        demons=[blocked],
        deck_top=["2D"],
    )
    g.send(0, "realm.demon.bind", dict(target="active", cards=["8S", "4C"]))  # S 8 C 4
    g.send(1, "realm.ritual.pass")
    assert g.view(0)["me"]["curses"] == [{"op": "suit_as_rank", "suit": "S", "rank": "8"}]
    # Octavia Null (V 3 D 8), bound with 3V and 8D: the binder's 8s are 3s from now on
    end(g, 0, hand(g, 0)[5:])
    assert g.state["active"] == octavia
    end(g, 1, hand(g, 1)[5:])
    assert "3V" in hand(g, 0) and "8D" in hand(g, 0)
    g.send(0, "realm.demon.bind", dict(target="active", cards=["3V", "8D"]))
    g.send(1, "realm.ritual.pass")
    effects = g.view(0)["me"]["curses"]
    assert len(effects) == 2
    assert C.card_options("5S", None, effects) == [("S", "3")]


def test_one_time_curses_draw_discard_and_return_vessels():
    bride = "d08"  # V S 5 10: "Return every Vessel in your hand to the Vessel Stack."
    g = deal(
        [["5V", "10S", "vessel-1", "vessel-2", "2C"], ["2D", "3D", "4D", "5D", "6D"]], active=bride
    )
    g.send(0, "realm.demon.bind", dict(target="active", cards=["5V", "10S"]))
    g.send(1, "realm.ritual.pass")
    assert not any(C.is_vessel(c) for c in hand(g, 0)) and len(g.state["vessels"]) == 8
    gutter = "d05"  # S D 6 2: "Discard 2 random cards from your hand."
    g = deal(
        [["6S", "2D", "3V", "4V", "5V"], ["2C", "3C", "4C", "5C", "6C"]],
        active=gutter,
        personal=["d04", "d06"],
    )
    g.send(0, "realm.demon.bind", dict(target="active", cards=["6S", "2D"]))
    g.send(1, "realm.ritual.pass")
    assert len(hand(g, 0)) == 4 - 2
    vorn = "d14"  # V D 6 3: "Each opponent draws 2 cards."
    g = deal(
        [
            ["6V", "3D", "2S", "4S", "5S"],
            ["2C", "3C", "4C", "5C", "6C"],
            ["7C", "8C", "9C", "10C", "AC"],
        ],
        active=vorn,
    )
    g.send(0, "realm.demon.bind", dict(target="active", cards=["6V", "3D"]))
    g.send(1, "realm.ritual.pass")
    g.send(2, "realm.ritual.pass")
    assert [len(hand(g, k)) for k in range(3)] == [4, 7, 7]


def test_secret_pacts_are_chosen_face_down_and_hidden_from_others():
    g = deal(
        [["2S", "3S", "4S", "5S", "6S"], ["2V", "3V", "4V", "5V", "6V"]],
        pacts="secret",
        pact_slots=["lust", "wrath", "greed", "envy", "pride", "sloth", "gluttony"],
    )
    assert g.state["phase"] == "prelude"
    assert refused(g, 0, "realm.turn.end") == "not_now"
    assert refused(g, 0, "realm.pact.choose", dict(slot=9)) == "bad_slot"
    g.send(0, "realm.pact.choose", dict(slot=1))
    assert refused(g, 0, "realm.pact.choose", dict(slot=1)) == "already_chosen"
    assert g.view(0)["me"]["pact"]["name"] == "Wrath"
    assert g.view(1)["players"][0]["pact"] is None and "Wrath" not in repr(g.view(1))
    g.send(1, "realm.pact.choose", dict(slot=0))
    assert g.view(1)["me"]["pact"]["name"] == "Lust"
    assert g.state["phase"] == "act" and len(hand(g, 0)) == 6
    assert g.view(0)["pact_slots"] == 5


def test_afflictions_are_drawn_two_at_a_time_and_given_to_someone_without_one():
    deck = [f"a{n:02d}" for n in range(1, 13)]
    g = deal(
        [
            ["2S", "3S", "4S", "5S", "6S"],
            ["2V", "3V", "4V", "5V", "6V"],
            ["2D", "3D", "4D", "5D", "6D"],
        ],
        afflictions="on",
        affliction_deck=deck,
        affliction_drawer=1,
    )
    assert [a["id"] for a in g.view(1)["me"]["affliction_offer"]] == ["a01", "a02"]
    assert g.view(0)["me"]["affliction_offer"] == []
    assert refused(g, 0, "realm.affliction.give", dict(card="a01", to=2)) == "not_now"
    assert refused(g, 1, "realm.affliction.give", dict(card="a01", to=1)) == "bad_target"
    assert refused(g, 1, "realm.affliction.give", dict(card="a05", to=2)) == "bad_card"
    g.send(1, "realm.affliction.give", dict(card="a02", to=2))
    assert g.state["players"][2]["affliction"] == "a02"
    assert [a["id"] for a in g.view(2)["me"]["affliction_offer"]] == ["a03", "a04"]
    assert refused(g, 2, "realm.affliction.give", dict(card="a03", to=2)) == "bad_target"
    g.send(2, "realm.affliction.give", dict(card="a03", to=0))
    assert refused(g, 0, "realm.affliction.give", dict(card="a05", to=2)) == "bad_target"  # has one already
    g.send(0, "realm.affliction.give", dict(card="a06", to=1))
    assert [p["affliction"] for p in g.state["players"]] == ["a03", "a06", "a02"]
    assert g.state["phase"] == "act"
    assert g.view(2)["players"][0]["affliction"]["name"] == "Echo"  # face up for all


def test_seeker_names_one_of_the_four_suits():
    """Rulebook "Seekers": the Seeker names a suit (D, V, S or C); anything else is refused."""
    g = deal([["SD", "2S", "3S", "4S", "5S"], list(OTHER)])
    before = g.version
    assert refused(g, 0, "realm.warden.seeker", dict(card="SD", opponent=1, suit="X")) == "bad_suit"
    assert g.version == before and "SD" in hand(g, 0)
