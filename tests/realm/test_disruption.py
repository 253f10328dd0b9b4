"""Disrupting a binding: exorcising a Vessel, Eater disruption (rulebook "Disrupting a
Binding"); Eaters attached as an action (rulebook "Eaters")."""

from .deals import deal, end, hand, refused

CANDLE_9 = {"vessel-1": {"suit": "C", "rank": "5"}}


def vessel_game(n=2, **kw):
    # seat 0 holds a Vessel and the 7 of Candles: Mother Wick (C C 5 7) with the Vessel as 5C
    hands = [
        ["vessel-1", "7C", "2S", "3S", "4S"],
        ["5D", "8V", "9V", "10V", "2V"],
        ["5S", "ES", "EC", "3C", "4C"],
        ["2C", "6D", "6V", "6S", "6C"],
    ][:n]
    return deal(hands, active="d04", **kw)


def test_the_player_on_the_left_may_exorcise_a_vessel_with_its_declared_rank():
    g = vessel_game(3)
    g.send(0, "realm.demon.bind", dict(target="active", cards=["vessel-1", "7C"], declare=CANDLE_9))
    r = g.state["ritual"]
    assert r["step"] == "exorcise" and r["responder"] == 1
    # only the player on the left answers, and only with a printed 5
    assert refused(g, 2, "realm.ritual.exorcise", dict(vessel="vessel-1", card="5S")) == "not_your_prompt"
    assert refused(g, 1, "realm.ritual.exorcise", dict(vessel="vessel-1", card="8V")) == "rank_mismatch"
    assert refused(g, 1, "realm.ritual.exorcise", dict(vessel="7C", card="5D")) == "bad_vessel"
    assert refused(g, 0, "realm.turn.end") == "not_now"
    g.send(1, "realm.ritual.exorcise", dict(vessel="vessel-1", card="5D"))
    st = g.state
    # the ritual fails: the Vessel to its stack, the other cards back to hand, the turn ends
    assert st["ritual"] is None and st["active"] == "d04"
    assert "vessel-1" in st["vessels"] and "vessel-1" not in hand(g, 0)
    assert "7C" in hand(g, 0) and st["discard"] == ["5D"]
    assert st["must_end"]
    assert refused(g, 0, "realm.demon.bind", dict(target="active", cards=["7C"])) == "turn_over"
    end(g, 0, hand(g, 0)[5:])
    assert st["turn"] == 0 and g.state["turn"] == 1


def test_aces_cannot_exorcise_and_after_a_pass_the_eater_step_follows():
    g = vessel_game(2)
    g.send(0, "realm.demon.bind", dict(target="active", cards=["vessel-1", "7C"], declare=CANDLE_9))
    assert refused(g, 1, "realm.ritual.exorcise", dict(vessel="vessel-1", card="AD")) == "not_in_hand"
    g.send(1, "realm.ritual.pass")
    assert g.state["ritual"]["step"] == "eater" and g.state["ritual"]["responder"] == 1
    g.send(1, "realm.ritual.pass")
    st = g.state
    assert [b["demon"] for b in st["players"][0]["bound"]] == ["d04"]
    assert "vessel-1" in st["vessels"]  # played Vessels return to the stack, never the discard
    assert "vessel-1" not in st["discard"] and "7C" in st["discard"]


def test_eaters_are_offered_clockwise_and_each_must_be_fed_at_once():
    # rulebook "Eater Disruption": left first; after a feed the same opponent may go again
    hands = [
        ["5C", "7C", "2S", "3S", "4S"],
        ["ES", "EC", "8V", "9V", "2V"],
        ["ED", "3C", "4C", "5S", "6S"],
    ]
    g = deal(hands, active="d04", deck_top=["9D"])
    g.send(0, "realm.demon.bind", dict(target="active", cards=["5C", "7C"]))
    assert g.state["ritual"]["step"] == "eater" and g.state["ritual"]["responder"] == 1
    assert refused(g, 2, "realm.ritual.eater", dict(card="ED")) == "not_your_prompt"
    assert refused(g, 1, "realm.ritual.eater", dict(card="8V")) == "not_eater"
    g.send(1, "realm.ritual.eater", dict(card="ES"))
    assert g.state["ritual"]["step"] == "feed"
    assert refused(g, 1, "realm.ritual.feed", dict(card="8V")) == "not_your_prompt"
    assert refused(g, 0, "realm.ritual.feed", dict(card="9D")) == "suit_mismatch"
    assert refused(g, 0, "realm.ritual.feed", dict(card="9S")) == "not_in_hand"
    g.send(0, "realm.ritual.feed", dict(card="2S"))
    assert g.state["ritual"]["step"] == "eater" and g.state["ritual"]["responder"] == 1
    assert g.state["discard"][-2:] == ["ES", "2S"]
    g.send(1, "realm.ritual.pass")
    assert g.state["ritual"]["responder"] == 2
    g.send(2, "realm.ritual.pass")
    assert g.state["ritual"] is None
    assert [b["demon"] for b in g.state["players"][0]["bound"]] == ["d04"]


def test_an_unfed_eater_disrupts_the_binding_and_stays_on_the_demon():
    hands = [["5C", "7C", "2S", "3S", "4S"], ["EV", "EC", "8V", "9V", "2V"]]
    g = deal(hands, active="d04")
    g.send(0, "realm.demon.bind", dict(target="active", cards=["5C", "7C"]))
    g.send(1, "realm.ritual.eater", dict(card="EV"))  # seat 0 holds no Virgin: disrupted at once
    st = g.state
    assert st["ritual"] is None and st["active"] == "d04"
    assert st["eaters"] == {"active": ["EV"]}
    assert {"5C", "7C"} <= set(hand(g, 0)) and st["must_end"]
    # a demon with an Eater attached cannot be bound
    end(g, 0, hand(g, 0)[5:])
    end(g, 1, hand(g, 1)[5:])
    assert refused(g, 0, "realm.demon.bind", dict(target="active", cards=["5C", "7C"])) == "eater_attached"


def test_the_binder_may_decline_to_feed():
    hands = [["5C", "7C", "2S", "3S", "4S"], ["ES", "EC", "8V", "9V", "2V"]]
    g = deal(hands, active="d04")
    g.send(0, "realm.demon.bind", dict(target="active", cards=["5C", "7C"]))
    g.send(1, "realm.ritual.eater", dict(card="ES"))
    g.send(0, "realm.ritual.yield")
    assert g.state["eaters"] == {"active": ["ES"]} and g.state["must_end"]


def test_auto_pass_skips_players_without_a_usable_card():
    hands = [
        ["5C", "7C", "2S", "3S", "4S"],
        ["8V", "9V", "2V", "3V", "4V"],
        ["ED", "3C", "4C", "5S", "6S"],
    ]
    g = deal(hands, active="d04", auto_pass="on")
    g.send(0, "realm.demon.bind", dict(target="active", cards=["5C", "7C"]))
    assert g.state["ritual"]["responder"] == 2  # seat 1 holds no Eater
    g.send(2, "realm.ritual.pass")
    assert g.state["players"][0]["bound"]
    quiet = deal([h[:] for h in hands], active="d04")
    quiet.send(0, "realm.demon.bind", dict(target="active", cards=["5C", "7C"]))
    assert quiet.state["ritual"]["responder"] == 1  # by default everyone is asked


def test_attach_and_feed_an_eater_as_actions():
    hands = [["ED", "2D", "3S", "4S", "5S"], ["EV", "2V", "3V", "4V", "6V"]]
    g = deal(hands, active="d04", personal=["d05", "d06"])
    assert refused(g, 0, "realm.eater.attach", dict(card="ED", slot="p7")) == "no_demon"
    assert refused(g, 0, "realm.eater.attach", dict(card="2D", slot="active")) == "not_eater"
    g.send(0, "realm.eater.attach", dict(card="ED", slot="p1"))  # on the opponent's Personal Demon
    assert g.state["eaters"] == {"p1": ["ED"]}
    assert g.view(1)["players"][1]["personal"]["eaters"][0]["id"] == "ED"
    end(g, 0, hand(g, 0)[5:])
    assert refused(g, 1, "realm.eater.feed", dict(slot="p1", eater="ED", card="2V")) == "suit_mismatch"
    assert refused(g, 1, "realm.eater.feed", dict(slot="active", eater="ED", card="2V")) == "no_eater"
    # seat 1 has no Dagger; it ends its turn, seat 0 feeds its own Eater with the 2 of Daggers
    end(g, 1, hand(g, 1)[5:])
    g.send(0, "realm.eater.feed", dict(slot="p1", eater="ED", card="2D"))
    assert g.state["eaters"] == {} and g.state["discard"][-2:] == ["ED", "2D"]
