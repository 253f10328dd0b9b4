"""Wardens, Mimics, Vessels, releasing, curses in play, Pacts and Afflictions (rulebook "Realm
Wardens", "The Mimics", "Vessels", "Releasing a Demon", "Curses", "How to Win",
"Afflictions")."""

from tabletop.realm import cards as C

from .helpers import Game, demon_with

OTHER = ["2V", "3V", "AV", "vessel-2", "KD"]


def test_seeker_sees_the_hand_and_takes_an_ace_to_10_of_the_named_suit():
    g = Game([["SD", "2S", "3S", "4S", "5S"], list(OTHER)])
    g.fails(0, "realm.warden.seeker", "bad_target", card="SD", opponent=0, suit="V")
    g.fails(0, "realm.warden.seeker", "wrong_card", card="2S", opponent=1, suit="V")
    g.do(0, "realm.warden.seeker", card="SD", opponent=1, suit="V")
    me = g.view(0)["me"]
    assert [c["id"] for c in me["glimpse"]["cards"]] == OTHER  # printed suits and ranks
    assert {c["id"] for c in me["take"]} == {"2V", "3V", "AV"}
    assert g.view(1)["me"]["glimpse"] is None
    g.fails(0, "realm.turn.end", "take_pending")
    g.fails(0, "realm.card.take", "bad_card", card="KD")
    g.fails(1, "realm.card.take", "not_now", card="2V")
    g.do(0, "realm.card.take", card="AV")
    assert "AV" in g.hand(0) and "AV" not in g.hand(1)
    assert g.view(0)["me"]["glimpse"] is None and "SD" in g.state["discard"]


def test_seeker_draws_when_no_card_of_the_suit_is_revealed():
    g = Game([["SD", "2S", "3S", "4S", "5S"], list(OTHER)], deck_top=["9C", "8C"])
    g.do(0, "realm.warden.seeker", card="SD", opponent=1, suit="C")
    assert g.state["take"] is None and "8C" in g.hand(0)
    assert g.view(0)["me"]["glimpse"]["cards"][0]["id"] == "2V"  # what was seen stays shown


def test_keeper_takes_odd_or_even_and_wardens_aces_vessels_are_neither():
    g = Game([["KS", "2S", "3S", "4S", "5S"], list(OTHER)])
    g.fails(0, "realm.warden.keeper", "bad_parity", card="KS", opponent=1, parity="prime")
    g.do(0, "realm.warden.keeper", card="KS", opponent=1, parity="odd")
    assert [c["id"] for c in g.view(0)["me"]["take"]] == ["3V"]
    g.do(0, "realm.card.take", card="3V")
    g2 = Game(
        [["KS", "2S", "3S", "4S", "5S"], ["AV", "vessel-2", "KD", "ED", "mimic-1"]],
        deck_top=["9C", "8C"],
    )
    g2.do(0, "realm.warden.keeper", card="KS", opponent=1, parity="even")
    assert g2.state["take"] is None and g2.hand(0)[-1] == "8C"


def test_mimic_takes_any_non_vessel_card():
    g = Game([["mimic-1", "2S", "3S", "4S", "5S"], list(OTHER)])
    g.do(0, "realm.mimic.play", card="mimic-1", opponent=1)
    assert {c["id"] for c in g.view(0)["me"]["take"]} == {"2V", "3V", "AV", "KD"}
    g.fails(0, "realm.card.take", "bad_card", card="vessel-2")
    g.do(0, "realm.card.take", card="KD")
    assert "KD" in g.hand(0) and "mimic-1" in g.state["discard"]


def test_summon_a_vessel_with_three_of_a_suit_or_a_rank():
    g = Game([["2S", "3S", "ES", "7D", "7V", "7C", "mimic-1", "5D"], ["2V", "3V", "4V"]])
    g.fails(0, "realm.vessel.summon", "not_three_of_a_kind", cards=["2S", "3S"])
    g.fails(0, "realm.vessel.summon", "not_three_of_a_kind", cards=["2S", "3S", "7D"])
    g.fails(0, "realm.vessel.summon", "not_three_of_a_kind", cards=["2S", "3S", "mimic-1"])
    g.do(0, "realm.vessel.summon", cards=["2S", "3S", "ES"])  # three Skulls
    g.do(0, "realm.vessel.summon", cards=["7D", "7V", "7C"])  # three 7s
    assert sum(1 for c in g.hand(0) if C.is_vessel(c)) == 2
    assert len(g.state["vessels"]) == 6
    assert g.view(1)["players"][0]["vessels_in_hand"] == 2  # public information
    g.fails(
        0, "realm.vessel.summon", "not_three_of_a_kind", cards=["vessel-1", "vessel-2", "mimic-1"]
    )


def test_the_vessel_stack_can_run_empty():
    hand = ["2S", "3S", "4S", "5S", "6S", "7S"]
    g = Game([hand, ["2V"]], deck_top=["8S"])
    vessels = [v for v in C.VESSELS]
    g.state = dict(g.state, vessels=[])  # every Vessel is out (test set-up)
    g.fails(0, "realm.vessel.summon", "no_vessel", cards=["2S", "3S", "4S"])
    assert vessels


def test_release_returns_the_demon_to_the_bottom_draws_3_and_ends_its_curse():
    quill = "d10"  # Lady Quill: V C 8 2, lasting "Reset your hand to 4 cards instead of 5."
    g = Game([["8V", "2C", "3S", "4S", "5S"], ["2V", "3V", "4V", "5V", "6V"]], active=quill)
    g.do(0, "realm.demon.bind", target="active", cards=["8V", "2C"])
    g.do(1, "realm.ritual.pass")
    assert g.view(0)["me"]["hand_size"] == 4
    assert g.view(0)["last_curse"]["name"] == "Lady Quill"
    assert len(g.hand(0)) == 4  # 6 after the Draw, 2 played
    g.fails(0, "realm.turn.end", "discard_count", discard=[g.hand(0)[0]])
    g.end(0)
    assert len(g.hand(0)) == 4  # reset to 4, not 5
    g.end(1, g.hand(1)[5:])
    g.fails(0, "realm.demon.release", "not_bound", demon="d04")
    assert len(g.hand(0)) == 6  # Draw step: 1, then up to 6
    g.do(0, "realm.demon.release", demon=quill)
    assert g.state["demon_deck"][-1] == quill and g.state["players"][0]["bound"] == []
    assert len(g.hand(0)) == 6 + 3 and g.view(0)["me"]["hand_size"] == 5


def test_a_lasting_curse_applies_to_later_bindings():
    seraphel = "d06"  # V V 10 4, "You cannot play Virgins."
    g = Game(
        [["10V", "4V", "5C", "7C", "9V"], ["2D", "3D", "4D", "5D", "6D"]],
        active=seraphel,
        personal=["d04", "d05"],
    )
    g.do(0, "realm.demon.bind", target="active", cards=["10V", "4V"])
    g.do(1, "realm.ritual.pass")
    assert g.state["players"][0]["bound"][0]["demon"] == seraphel
    g.do(0, "realm.demon.bind", target="personal", cards=["5C", "7C"])  # no Virgin needed
    g.do(1, "realm.ritual.pass")
    assert len(g.state["players"][0]["bound"]) == 2


def test_faq_chain_in_play_forbids_skulls():
    ossuarch, octavia, trihex = "d01", "d02", "d03"
    blocked = demon_with(["S", "6", "D", "2"], id="t01")
    g = Game(
        [["8S", "4C", "3V", "8D", "9C"], ["2V", "3S", "4V", "5V", "6V"]],
        active=ossuarch,
        below=[octavia, trihex, "t01", "d09", "d10"],
        personal=["d04", "d05"],
        demons=[blocked],
        deck_top=["2D"],
    )
    g.do(0, "realm.demon.bind", target="active", cards=["8S", "4C"])  # S 8 C 4
    g.do(1, "realm.ritual.pass")
    assert g.view(0)["me"]["curses"] == [{"op": "suit_as_rank", "suit": "S", "rank": "8"}]
    # Octavia Null (V 3 D 8), bound with 3V and 8D: the binder's 8s are 3s from now on
    g.end(0, g.hand(0)[5:])
    assert g.state["active"] == octavia
    g.end(1, g.hand(1)[5:])
    assert "3V" in g.hand(0) and "8D" in g.hand(0)
    g.do(0, "realm.demon.bind", target="active", cards=["3V", "8D"])
    g.do(1, "realm.ritual.pass")
    effects = g.view(0)["me"]["curses"]
    assert len(effects) == 2
    assert C.card_options("5S", None, effects) == [("S", "3")]


def test_one_time_curses_draw_discard_and_return_vessels():
    bride = "d08"  # V S 5 10: "Return every Vessel in your hand to the Vessel Stack."
    g = Game(
        [["5V", "10S", "vessel-1", "vessel-2", "2C"], ["2D", "3D", "4D", "5D", "6D"]], active=bride
    )
    g.do(0, "realm.demon.bind", target="active", cards=["5V", "10S"])
    g.do(1, "realm.ritual.pass")
    assert not any(C.is_vessel(c) for c in g.hand(0)) and len(g.state["vessels"]) == 8
    gutter = "d05"  # S D 6 2: "Discard 2 random cards from your hand."
    g = Game(
        [["6S", "2D", "3V", "4V", "5V"], ["2C", "3C", "4C", "5C", "6C"]],
        active=gutter,
        personal=["d04", "d06"],
    )
    g.do(0, "realm.demon.bind", target="active", cards=["6S", "2D"])
    g.do(1, "realm.ritual.pass")
    assert len(g.hand(0)) == 4 - 2
    vorn = "d14"  # V D 6 3: "Each opponent draws 2 cards."
    g = Game(
        [
            ["6V", "3D", "2S", "4S", "5S"],
            ["2C", "3C", "4C", "5C", "6C"],
            ["7C", "8C", "9C", "10C", "AC"],
        ],
        active=vorn,
    )
    g.do(0, "realm.demon.bind", target="active", cards=["6V", "3D"])
    g.do(1, "realm.ritual.pass")
    g.do(2, "realm.ritual.pass")
    assert [len(g.hand(k)) for k in range(3)] == [4, 7, 7]


def test_secret_pacts_are_chosen_face_down_and_hidden_from_others():
    g = Game(
        [["2S", "3S", "4S", "5S", "6S"], ["2V", "3V", "4V", "5V", "6V"]],
        pacts="secret",
        pact_slots=["lust", "wrath", "greed", "envy", "pride", "sloth", "gluttony"],
    )
    assert g.state["phase"] == "prelude"
    g.fails(0, "realm.turn.end", "not_now")
    g.fails(0, "realm.pact.choose", "bad_slot", slot=9)
    g.do(0, "realm.pact.choose", slot=1)
    g.fails(0, "realm.pact.choose", "already_chosen", slot=1)
    assert g.view(0)["me"]["pact"]["name"] == "Wrath"
    assert g.view(1)["players"][0]["pact"] is None and "Wrath" not in repr(g.view(1))
    g.do(1, "realm.pact.choose", slot=0)
    assert g.view(1)["me"]["pact"]["name"] == "Lust"
    assert g.state["phase"] == "act" and len(g.hand(0)) == 6
    assert g.view(0)["pact_slots"] == 5


def test_afflictions_are_drawn_two_at_a_time_and_given_to_someone_without_one():
    deck = [f"a{n:02d}" for n in range(1, 13)]
    g = Game(
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
    g.fails(0, "realm.affliction.give", "not_now", card="a01", to=2)
    g.fails(1, "realm.affliction.give", "bad_target", card="a01", to=1)
    g.fails(1, "realm.affliction.give", "bad_card", card="a05", to=2)
    g.do(1, "realm.affliction.give", card="a02", to=2)
    assert g.state["players"][2]["affliction"] == "a02"
    assert [a["id"] for a in g.view(2)["me"]["affliction_offer"]] == ["a03", "a04"]
    g.fails(2, "realm.affliction.give", "bad_target", card="a03", to=2)
    g.do(2, "realm.affliction.give", card="a03", to=0)
    g.fails(0, "realm.affliction.give", "bad_target", card="a05", to=2)  # has one already
    g.do(0, "realm.affliction.give", card="a06", to=1)
    assert [p["affliction"] for p in g.state["players"]] == ["a03", "a06", "a02"]
    assert g.state["phase"] == "act"
    assert g.view(2)["players"][0]["affliction"]["name"] == "Echo"  # face up for all
