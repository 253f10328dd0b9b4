"""Personal Demons through its commands, no database (rulebook sections cited per test)."""

import pytest

from tabletop.personal_demons.rules import board as B
from tabletop.personal_demons.rules import solo_rating
from tabletop.personal_demons.rules.common import score_display
from tabletop.personal_demons.rules.content import default_geometry
from tabletop.testing import playout
from tests.kit import refused

from .cards import BLUE4, PLAIN, R, cmd, game, p, with_cards


def play_random(players, seed, options=None):
    """A whole random game among the moves the pages offer (``tabletop.testing.playout``)."""
    return playout(R, players, seed, options=options, content=with_cards(), max_commands=4000,
                   must_finish=True, undo_rate=0).sim


def courage(effect, name="X"):
    return {"effect": effect, "name": name}


def solo(seed=1, fear_space=(3, 3), options=None, **decks):
    """A solo game after setup (Fear placed, the first two candidates kept)."""
    decks.setdefault("round1", PLAIN)
    decks.setdefault("round2", PLAIN)
    decks.setdefault("round3", PLAIN)
    decks.setdefault("courage", courage({"kind": "keeper"}, "Keeper"))
    g = game(1, seed, options, setup=with_cards(**decks))
    cmd(g, 0, "pd.setup.choose", fear_space=list(fear_space), keep=p(g, 0)["candidates"][:2])
    return g


def turn(g, space, face_up=True, seat=0, decline=True, **reveal):
    """One solo turn: place the first card of the hand, reveal it (or not), decline the bonus."""
    cmd(g, seat, "pd.card.place", card=p(g, seat)["hand"][0], space=list(space))
    if face_up:
        cmd(g, seat, "pd.card.reveal", face_up=True, **reveal)
    else:
        cmd(g,
            seat,
            "pd.card.reveal",
            face_up=False,
            seal_colour=reveal.get("seal_colour", "red"),
            sin=reveal.get("sin", "hate"),
        )
    if decline:
        cmd(g, seat, "pd.bonus.decline")


def seals(g, seat=0):
    return [
        (tuple(s["point"]) if s["point"] else s["on"], s["colour"], s["active"])
        for s in p(g, seat)["board"]["seals"]
    ]


# -- setup (rulebook "Setup" A-L) -----------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_courage_fear_four_personal_demons_and_six_round_one_cards(players):
    g = game(players, seed=players)
    assert g.state["phase"] == "setup"
    assert 0 <= g.state["leader"] < players
    for pl in g.state["players"]:
        cards = g.state["catalog"]
        assert len(pl["courage"]) == 1
        assert cards[pl["fear_card"]]["deck"] == "fear"
        assert sorted(cards[c]["deck"] for c in pl["candidates"]) == [
            "colossal",
            "colossal",
            "hefty",
            "hefty",
        ]
        assert len(pl["hand"]) == 6 and all(cards[c]["deck"] == "round1" for c in pl["hand"])
        assert pl["sins"] == {"glut": 0, "hate": 0, "want": 0} and pl["score"] == 0
    assert len(g.state["decks"]["round1"]) == 36 - 6 * players


def test_setup_keeps_two_of_four_secretly_and_places_the_fear():
    g = game(2)
    cands = p(g, 0)["candidates"]
    refused("keep_two", cmd, g, 0, "pd.setup.choose", fear_space=[0, 0], keep=cands[:1])
    refused("keep_two", cmd, g, 0, "pd.setup.choose", fear_space=[0, 0], keep=[cands[0], "I-01"])
    refused("off_circle", cmd, g, 0, "pd.setup.choose", fear_space=[4, 0], keep=cands[:2])
    cmd(g, 0, "pd.setup.choose", fear_space=[2, 1], keep=[cands[1], cands[3]])
    assert p(g, 0)["personal"] == [cands[1], cands[3]]
    (fear,) = p(g, 0)["board"]["placements"]
    assert fear["fear"] and fear["face_up"] and fear["spaces"] == [[2, 1]]
    refused("already_done", cmd, g, 0, "pd.setup.choose", fear_space=[0, 0], keep=cands[:2])
    assert g.view(1)["waiting"] == [1]
    assert g.state["phase"] == "setup"


def test_advanced_colossal_cards_are_left_out_unless_chosen():
    plain = game(1, options={"advanced": "no"})
    assert not any(c.get("advanced") for c in plain.state["catalog"].values())
    full = game(1, options={"advanced": "yes"})
    assert any(c.get("advanced") for c in full.state["catalog"].values())


# -- the summoning phase in unison (rulebook "Summoning Phase") -----------------------------
def test_place_and_reveal_wait_for_everyone_then_sin_and_seal_happen_for_all():
    g = game(2, setup=with_cards(round1=PLAIN))
    for s in (0, 1):
        cmd(g, s, "pd.setup.choose", fear_space=[3, 3], keep=p(g, s)["candidates"][:2])
    assert (g.state["phase"], g.state["step"], g.state["turn"]) == ("summoning", "place", 1)
    cmd(g, 0, "pd.card.place", card=p(g, 0)["hand"][0], space=[0, 0])
    refused("already_placed", cmd, g, 0, "pd.card.place", card=p(g, 0)["hand"][0], space=[0, 1])
    assert g.state["step"] == "place" and g.view(0)["waiting"] == [1]
    refused("wrong_step", cmd, g, 0, "pd.card.reveal", face_up=True)
    cmd(g, 1, "pd.card.place", card=p(g, 1)["hand"][0], space=[1, 1])
    assert g.state["step"] == "reveal"
    cmd(g, 1, "pd.card.reveal", face_up=True)
    assert p(g, 1)["sins"]["glut"] == 0  # nothing happens before everyone chose
    assert g.view(0)["players"][1]["chosen"] and "reveal" not in str(g.view(0)["players"][1])
    cmd(g, 0, "pd.card.reveal", face_up=False, seal_colour="yellow", sin="want")
    assert p(g, 1)["sins"]["glut"] == 1  # Sin step: the card's gauge rises by its amount
    assert p(g, 0)["sins"]["want"] == 1  # face down: +1 to one chosen sin
    assert seals(g, 0) == [("p2", "yellow", False)]  # cracked seal on its back
    assert g.state["step"] == "bonus"
    order = g.state["bonus_order"]
    assert order[0] == g.state["leader"]


def test_hands_pass_clockwise_with_the_leader_card():
    g = game(3, setup=with_cards(round1=PLAIN))
    for s in range(3):
        cmd(g, s, "pd.setup.choose", fear_space=[3, 3], keep=p(g, s)["candidates"][:2])
    leader = g.state["leader"]
    hands = [list(p["hand"]) for p in g.state["players"]]
    for s in range(3):
        cmd(g, s, "pd.card.place", card=hands[s][0], space=[0, 0])
    for s in range(3):
        cmd(g, s, "pd.card.reveal", face_up=True)
    for s in g.state["bonus_order"]:
        cmd(g, s, "pd.bonus.decline")
    assert g.state["turn"] == 2 and g.state["step"] == "place"
    for s in range(3):
        assert p(g, (s + 1) % 3)["hand"] == hands[s][1:]
    assert g.state["leader"] == (leader + 1) % 3


def test_sin_gauges_cap_at_six_and_of_hell_raises_all_three():
    g = solo(round1={**PLAIN, "sin": "hate", "sin_amount": 4})
    turn(g, (0, 0))
    assert p(g, 0)["sins"]["hate"] == 4
    turn(g, (0, 1))
    assert p(g, 0)["sins"]["hate"] == 6  # 8, the excess is lost
    h = solo(round1={**PLAIN, "sin": "hell", "sin_amount": 1})
    turn(h, (0, 0))
    assert p(h, 0)["sins"] == {"glut": 1, "hate": 1, "want": 1}


def test_a_card_whose_requirements_are_unmet_must_stay_face_down():
    """FAQ: who cannot meet any requirement plays face down, even on top of a face-up card."""
    g = solo(round1={**PLAIN, "requirements": ["red"]})
    cmd(g, 0, "pd.card.place", card=p(g, 0)["hand"][0], space=[1, 1])
    refused("requirements_unmet", cmd, g, 0, "pd.card.reveal", face_up=True)
    cmd(g, 0, "pd.card.reveal", face_up=False, seal_colour="red", sin="glut")
    cmd(g, 0, "pd.bonus.decline")
    # the cracked red seal on the back of a face-down card meets the requirement
    turn(g, (1, 2))
    assert p(g, 0)["board"]["placements"][-1]["face_up"]


def test_requirements_count_seals_the_card_itself_will_remove():
    g = solo(round1=lambda c: {**PLAIN, "requirements": ["yellow"] if c["id"] != "I-01" else []})
    turn(g, (1, 1), face_up=False, seal_colour="yellow")
    # a card on top of it removes that back seal, but the seal still meets its requirement
    turn(g, (1, 1))
    assert p(g, 0)["board"]["placements"][-1]["face_up"]
    assert not [s for s in p(g, 0)["board"]["seals"] if s["on"] == "p2"]


def test_face_down_on_face_down_replaces_the_back_seal():
    """FAQ: a face-down card on a face-down card lets you replace the seal on its back."""
    g = solo()
    turn(g, (2, 2), face_up=False, seal_colour="red")
    turn(g, (2, 2), face_up=False, seal_colour="blue")
    assert seals(g) == [("p3", "blue", False)]


# -- forming seals (rulebook "Forming Seals", "Playing on top of other cards") --------------
def test_seal_forms_with_a_built_in_wild_corner_and_reforms_when_covered():
    g = solo()  # every Round card is blue on all four corners
    turn(g, (0, 1))
    turn(g, (1, 0))
    assert seals(g) == []
    turn(g, (1, 1))
    assert seals(g) == [((1, 1), "blue", True)]
    first = p(g, 0)["board"]["seals"][0]["sid"]
    events = []
    cmd(g, 0, "pd.card.place", card=p(g, 0)["hand"][0], space=[1, 1])
    events += cmd(g, 0, "pd.card.reveal", face_up=True)
    types = [e.type for e in events]
    assert types.index("pd.seal.removed") < types.index("pd.seal.formed")
    assert seals(g) == [((1, 1), "blue", True)]
    assert p(g, 0)["board"]["seals"][0]["sid"] != first  # a new seal was formed


def test_face_down_card_on_top_removes_the_seals_it_touches():
    g = solo()
    turn(g, (0, 1))
    turn(g, (1, 0))
    turn(g, (1, 1))
    turn(g, (1, 1), face_up=False, seal_colour="yellow")
    assert seals(g) == [("p5", "yellow", False)]


def test_two_colours_at_a_point_do_not_seal():
    g = solo(round1={**PLAIN, "sigils": ["red", "blue", "red", "blue"]})
    for space in ((0, 1), (1, 0), (1, 1)):
        turn(g, space)
    colours, _ = B.sigil_at(p(g, 0)["board"], g.state["catalog"], g.state["geometry"], [1, 1])
    assert colours == ["purple", "red", "blue", "red"]
    assert seals(g) == []


def test_all_purple_sigil_needs_the_players_colour():
    g = solo(round1={**PLAIN, "sigils": ["purple"] * 4})
    turn(g, (0, 1))
    turn(g, (1, 0))
    cmd(g, 0, "pd.card.place", card=p(g, 0)["hand"][0], space=[1, 1])
    refused("wild_colour_needed", cmd, g, 0, "pd.card.reveal", face_up=True)
    assert g.view(0)["me"]["placed"]["needs_wild"] is True
    cmd(g, 0, "pd.card.reveal", face_up=True, wild_colour="yellow")
    assert seals(g) == [((1, 1), "yellow", True)]


# -- bonus actions (rulebook "Bonus Actions") ----------------------------------------------
def three_players_at_bonus(**decks):
    decks.setdefault("round1", PLAIN)
    g = game(3, setup=with_cards(**decks))
    for s in range(3):
        cmd(g, s, "pd.setup.choose", fear_space=[3, 3], keep=p(g, s)["candidates"][:2])
    for s in range(3):
        cmd(g, s, "pd.card.place", card=p(g, s)["hand"][0], space=[0, 0])
    for s in range(3):
        cmd(g, s, "pd.card.reveal", face_up=True)
    return g


def test_bonus_goes_from_the_leader_clockwise_and_a_decline_is_final_once_a_later_player_acted():
    g = three_players_at_bonus(round1={**PLAIN, "sin_amount": 2})
    a, b, c = g.state["bonus_order"]
    refused("not_your_bonus", cmd, g, b, "pd.bonus.decline")
    cmd(g, a, "pd.bonus.decline")
    cmd(g, b, "pd.bonus.fragment", sin="glut")
    cmd(g, b, "pd.drawn.place", **_first_spot(g, b))
    refused("too_late", cmd, g, a, "pd.bonus.fragment", sin="glut")
    refused("bonus_taken", cmd, g, b, "pd.bonus.decline")
    cmd(g, c, "pd.bonus.decline")
    assert g.state["turn"] == 2


def test_a_player_who_declined_may_still_act_while_no_later_player_has():
    g = three_players_at_bonus(round1={**PLAIN, "sin_amount": 2})
    a, b, c = g.state["bonus_order"]
    cmd(g, a, "pd.bonus.decline")
    cmd(g, b, "pd.bonus.decline")
    cmd(g, a, "pd.bonus.fragment", sin="glut")
    assert p(g, a)["bonus"] == "acted"


def _first_spot(g, seat):
    spot = g.view(seat)["me"]["drawn_options"][0]
    return {"space": spot["space"], "half": spot["half"], "wild_colour": "red"}


def test_summon_fragment_costs_two_of_one_sin_and_is_placed_at_once():
    g = solo(round1={**PLAIN, "sin_amount": 1})
    turn(g, (0, 0), decline=False)
    refused("not_enough_sin", cmd, g, 0, "pd.bonus.fragment", sin="glut")
    cmd(g, 0, "pd.bonus.decline")
    turn(g, (0, 1), decline=False)  # glut 2, want 0
    refused("not_enough_sin", cmd, g, 0, "pd.bonus.fragment", sin="want")
    refused("bad_sin", cmd, g, 0, "pd.bonus.fragment", sin="hell")
    cmd(g, 0, "pd.bonus.fragment", sin="glut")
    assert p(g, 0)["sins"]["glut"] == 0
    drawn = p(g, 0)["drawn"]
    assert g.state["catalog"][drawn]["deck"] == "fragment"
    assert g.state["step"] == "bonus"  # waiting for its placement
    refused("small_on_card", cmd, g, 0, "pd.drawn.place", space=[0, 0], half="top")
    cmd(g, 0, "pd.drawn.place", spot="2,2,bottom", wild_colour="red")
    small = p(g, 0)["board"]["placements"][-1]
    assert (small["size"], small["half"], small["face_up"]) == ("small", "bottom", True)
    assert g.state["turn"] == 3


def test_summon_royal_costs_four_and_its_knights_score_six():
    g = solo(
        round1={**PLAIN, "sin_amount": 2},
        royal={"types": ["Knight"], "sigils": [None] * 4, "value": 6, "requirements": []},
        courage=courage({"kind": "more_sins"}, "More Sins"),
    )
    turn(g, (0, 0))
    turn(g, (0, 1), decline=False)
    cmd(g, 0, "pd.bonus.royal", sin="glut")
    assert p(g, 0)["sins"]["glut"] == 0
    cmd(g, 0, "pd.drawn.place", space=[2, 2])
    knight = p(g, 0)["board"]["placements"][-1]
    assert knight["face_up"] and g.state["catalog"][knight["card"]]["types"] == ["Knight"]
    for space in ((0, 2), (0, 3), (1, 0), (1, 1)):
        turn(g, space)
    assert g.state["round"] == 2
    assert {"reason": "Knights", "points": 6} in p(g, 0)["scoring"]
    # End phase: Knights are discarded
    assert knight["pid"] not in [x["pid"] for x in p(g, 0)["board"]["placements"]]
    assert knight["card"] in g.state["discards"]["royal"]


def test_hefty_personal_demon_needs_six_sin_seals_and_two_face_up_demons_then_all_take_courage():
    hefty = {"requirements": ["blue"], "sigils": BLUE4, "value": 7}
    g = three_players_at_bonus(
        round1={**PLAIN, "sin_amount": 3},
        hefty=hefty,
        courage=courage({"kind": "more_sins"}, "More Sins"),
    )
    # finish turn 1, play turn 2 next to it so that seat a has two face-up demons and 6 glut
    for s in g.state["bonus_order"]:
        cmd(g, s, "pd.bonus.decline")
    for s in range(3):
        cmd(g, s, "pd.card.place", card=p(g, s)["hand"][0], space=[0, 1])
    for s in range(3):
        cmd(g, s, "pd.card.reveal", face_up=True)
    a = g.state["bonus_order"][0]
    assert p(g, a)["sins"]["glut"] == 6
    mine = [c for c in p(g, a)["personal"] if g.state["catalog"][c]["deck"] == "hefty"]
    assert mine, "the first two candidates are the hefty ones"
    refused(
        "requirements_unmet", cmd, g, a, "pd.bonus.personal", card=mine[0], space=[0, 0], sin="glut"
    )
    assert g.view(a)["me"]["bonus"]["personal"] == []


def test_hefty_summon_on_a_scripted_board():
    g = solo(
        round1={**PLAIN, "sin_amount": 3},
        hefty={"requirements": ["blue"], "sigils": BLUE4, "value": 7},
        colossal={"requirements": ["blue"], "sigils": BLUE4},
    )
    turn(g, (0, 1))
    turn(g, (1, 0))
    turn(g, (1, 1), decline=False)  # seal at (1, 1); glut 6 (9, capped)
    assert seals(g) == [((1, 1), "blue", True)]
    cand = [c for c in p(g, 0)["personal"] if g.state["catalog"][c]["deck"] == "hefty"]
    assert cand, "the seed keeps a hefty card"
    refused("over_empty", cmd, g, 0, "pd.bonus.personal", card=cand[0], space=[2, 2], sin="glut")
    refused("not_enough_sin", cmd, g, 0, "pd.bonus.personal", card=cand[0], space=[1, 0], sin="want")
    before = len(p(g, 0)["courage"])
    cmd(g, 0, "pd.bonus.personal", card=cand[0], space=[1, 0], sin="glut")
    top = p(g, 0)["board"]["placements"][-1]
    assert (top["size"], top["spaces"]) == ("hefty", [[1, 0], [1, 1]])
    assert p(g, 0)["sins"]["glut"] == 0
    assert len(p(g, 0)["courage"]) == before + 1  # all players take Courage
    # the seal at (1, 1) touched it: removed; (1, 1) is now mid-edge of the hefty, no corner
    assert seals(g) == []


def colossal_ready(ability):
    """Two players, each with four face-up demons in the top-left 2x2 and 6 want; at bonus."""
    colossal = {
        "requirements": [],
        "sigils": BLUE4,
        "cost": {"sin": "want", "amount": 6},
        "ability": ability,
    }
    g = game(
        2,
        seed=4,
        setup=with_cards(
            round1={**PLAIN, "sin": "want", "sin_amount": 3},
            colossal=colossal,
            courage=courage({"kind": "keeper"}, "Keeper"),
        ),
    )
    for s in (0, 1):
        cmd(g,
            s,
            "pd.setup.choose",
            fear_space=[3, 3],
            keep=[c for c in p(g, s)["candidates"] if g.state["catalog"][c]["deck"] == "colossal"],
        )
    for space in ((0, 0), (0, 1), (1, 0), (1, 1)):
        for s in (0, 1):
            cmd(g, s, "pd.card.place", card=p(g, s)["hand"][0], space=list(space))
        for s in (0, 1):
            cmd(g, s, "pd.card.reveal", face_up=True)
        if space != (1, 1):
            for s in g.state["bonus_order"]:
                cmd(g, s, "pd.bonus.decline")
    return g


def test_colossal_must_be_paid_with_its_named_sin_and_benefits_the_others():
    g = colossal_ready({"kind": "others_score", "points": 3})
    a, b = g.state["bonus_order"]
    card = p(g, a)["personal"][0]
    refused("wrong_sin", cmd, g, a, "pd.bonus.personal", card=card, space=[0, 0], sin="glut")
    refused("over_empty", cmd, g, a, "pd.bonus.personal", card=card, space=[1, 1])
    score_b = p(g, b)["score"]
    cmd(g, a, "pd.bonus.personal", card=card, space=[0, 0])
    assert p(g, a)["sins"]["want"] == 0
    assert p(g, b)["score"] == score_b + 3 and p(g, a)["score"] == 0
    top = p(g, a)["board"]["placements"][-1]
    assert top["size"] == "colossal" and top["spaces"] == [[0, 0], [0, 1], [1, 0], [1, 1]]
    assert card not in p(g, a)["personal"]


def test_colossal_abilities_give_the_others_courage_or_sin():
    g = colossal_ready({"kind": "others_courage"})
    a, b = g.state["bonus_order"]
    cmd(g, a, "pd.bonus.personal", card=p(g, a)["personal"][0], space=[0, 0])
    assert (len(p(g, a)["courage"]), len(p(g, b)["courage"])) == (1, 2)
    h = colossal_ready({"kind": "others_sin", "amount": 1})
    a, b = h.state["bonus_order"]
    before = dict(p(h, b)["sins"])
    cmd(h, a, "pd.bonus.personal", card=p(h, a)["personal"][0], space=[0, 0])
    assert p(h, b)["sins"] == {k: min(6, v + 1) for k, v in before.items()}


def test_no_fragment_without_an_empty_space_or_half_space():
    g = solo(round1={**PLAIN, "sin_amount": 2}, fear_space=(3, 3))
    spaces = [(r, c) for r in range(4) for c in range(4) if (r, c) != (3, 3)]
    for space in spaces[:-1]:
        turn(g, space)
    turn(g, spaces[-1], decline=False)
    assert not g.view(0)["me"]["bonus"]["fragment"]
    refused("no_room", cmd, g, 0, "pd.bonus.fragment", sin="glut")


def test_a_drawn_royal_whose_requirements_are_unmet_is_discarded():
    g = solo(
        round1={**PLAIN, "sin_amount": 2},
        royal={"requirements": ["yellow", "yellow"], "sigils": ["purple"] * 4},
        courage=courage({"kind": "more_sins"}, "More Sins"),
    )
    turn(g, (0, 0))
    turn(g, (0, 1), decline=False)
    cmd(g, 0, "pd.bonus.royal", sin="glut")
    refused("requirements_unmet", cmd, g, 0, "pd.drawn.place", space=[2, 2])
    drawn = p(g, 0)["drawn"]
    cmd(g, 0, "pd.drawn.discard")
    assert drawn in g.state["discards"]["royal"] and g.state["turn"] == 3


def test_a_drawn_card_with_a_legal_place_cannot_be_discarded():
    g = solo(round1={**PLAIN, "sin_amount": 2}, royal={"requirements": []})
    turn(g, (0, 0))
    turn(g, (0, 1), decline=False)
    cmd(g, 0, "pd.bonus.royal", sin="glut")
    refused("can_place", cmd, g, 0, "pd.drawn.discard")
    refused("wrong_step", cmd, g, 0, "pd.card.place", card="I-01", space=[2, 2])


def test_face_fear_scores_the_highest_tier_met_by_all_seals():
    tiers = [
        {"requirements": ["red"], "points": 2},
        {"requirements": ["red", "any"], "points": 5},
        {"requirements": ["red", "red", "blue"], "points": 9},
        {"requirements": ["blue"] * 5, "points": 14},
    ]
    g = solo(fear={"tiers": tiers})
    turn(g, (2, 2), face_up=False, seal_colour="red")
    turn(g, (2, 1), face_up=False, seal_colour="blue")  # two cracked seals: red + any
    cmd(g, 0, "pd.card.place", card=p(g, 0)["hand"][0], space=[2, 0])
    cmd(g, 0, "pd.card.reveal", face_up=True)
    assert g.view(0)["me"]["bonus"]["fear_points"] == 5
    cmd(g, 0, "pd.bonus.face_fear")
    assert p(g, 0)["score"] == 5
    assert not [x for x in p(g, 0)["board"]["placements"] if x["fear"]]
    refused("no_fear", lambda: (turn(g, (0, 0), decline=False), cmd(g, 0, "pd.bonus.face_fear")))


def test_face_fear_before_any_tier_scores_nothing():
    g = solo()
    turn(g, (0, 0), decline=False)
    cmd(g, 0, "pd.bonus.face_fear")
    assert p(g, 0)["score"] == 0


# -- Courage (rulebook "Courage", "Courage clarification") ---------------------------------
def test_more_sins_adds_one_to_a_single_sin_but_not_to_of_hell():
    more = courage({"kind": "more_sins"}, "More Sins")
    g = solo(round1={**PLAIN, "sin": "hate", "sin_amount": 1}, courage=more)
    turn(g, (0, 0))
    assert p(g, 0)["sins"] == {"glut": 0, "hate": 2, "want": 0}
    turn(g, (0, 1), face_up=False, sin="want")  # face down: +1 is a single sin too
    assert p(g, 0)["sins"] == {"glut": 0, "hate": 2, "want": 2}
    two = solo(round1={**PLAIN, "sin": "hate", "sin_amount": 2}, courage=more)
    turn(two, (0, 0))
    assert p(two, 0)["sins"]["hate"] == 2
    hell = solo(round1={**PLAIN, "sin": "hell", "sin_amount": 1}, courage=more)
    turn(hell, (0, 0))
    assert p(hell, 0)["sins"] == {"glut": 1, "hate": 1, "want": 1}


def test_pile_up_scores_two_once_whatever_the_card_covers():
    g = solo(
        round1={**PLAIN, "sin_amount": 3},
        hefty={"requirements": [], "sigils": [None] * 4},
        courage=courage({"kind": "pile_up", "points": 2}, "Pile Up"),
    )
    turn(g, (0, 0))
    assert p(g, 0)["score"] == 0
    turn(g, (0, 0))
    assert p(g, 0)["score"] == 2
    turn(g, (0, 0), face_up=False)  # a face-down card placed on top piles up too
    assert p(g, 0)["score"] == 4
    turn(g, (0, 0))
    assert p(g, 0)["score"] == 6
    turn(g, (0, 1), decline=False)
    hefty = [c for c in p(g, 0)["personal"] if g.state["catalog"][c]["deck"] == "hefty"]
    cmd(g, 0, "pd.bonus.personal", card=hefty[0], space=[0, 0], sin="glut")
    assert p(g, 0)["score"] == 8  # two demons covered, two points


def test_pan_demonium_counts_as_one_seal_of_any_colour_once():
    g = solo(
        round1={**PLAIN, "requirements": ["blue", "red"]},
        courage=courage({"kind": "pan_demonium"}, "Pan-Demonium"),
    )
    cmd(g, 0, "pd.card.place", card=p(g, 0)["hand"][0], space=[0, 0])
    refused("requirements_unmet", cmd, g, 0, "pd.card.reveal", face_up=True)
    cmd(g, 0, "pd.card.reveal", face_up=False, seal_colour="red", sin="glut")
    cmd(g, 0, "pd.bonus.decline")
    turn(g, (0, 1))  # red seal + Pan-Demonium as blue
    assert p(g, 0)["board"]["placements"][-1]["face_up"]


def test_abyss_counts_as_a_blue_seal():
    g = solo(
        round1={**PLAIN, "requirements": ["blue"]},
        courage=courage({"kind": "counts_as_seal", "colour": "blue"}, "Abyss"),
    )
    turn(g, (0, 0))
    assert p(g, 0)["board"]["placements"][-1]["face_up"]


def test_score_sins_and_type_courage_in_the_scoring_phase():
    g = solo(
        round1={**PLAIN, "sin": "hate", "sin_amount": 1, "types": ["Imp", "Shade"]},
        courage=courage({"kind": "score_sins"}, "Score Sins"),
    )
    for space in ((0, 0), (0, 1), (0, 2), (0, 3), (1, 0)):
        turn(g, space)
    turn(g, (1, 1), face_up=False, sin="want")  # hate 5, want 1: 6 sin -> 3 points
    assert {"reason": "Score Sins", "points": 3} in p(g, 0)["scoring"]
    imps = solo(
        round1={**PLAIN, "types": ["Imp", "Shade"]},
        courage=courage({"kind": "type_score", "type": "Shade", "points": 1}, "Shades"),
    )
    for space in ((0, 0), (0, 1), (0, 2), (0, 0), (1, 0), (1, 1)):
        turn(imps, space)
    # five face-up Shades on top (the covered one does not count); Fears are not Shades
    assert {"reason": "Shades", "points": 5} in p(imps, 0)["scoring"]


def test_keeper_chooses_which_knights_and_fragments_to_discard():
    g = solo(round1={**PLAIN, "sin_amount": 2}, fragment={"types": ["Fragment"], "value": 1})
    for space in ((0, 0), (0, 1)):
        turn(g, space, decline=space == (0, 0))
    cmd(g, 0, "pd.bonus.fragment", sin="glut")
    cmd(g, 0, "pd.drawn.place", spot="2,2,top", wild_colour="red")
    for space in ((0, 2), (0, 3), (1, 0), (1, 1)):
        turn(g, space)
    frag = [x["pid"] for x in p(g, 0)["board"]["placements"] if x["size"] == "small"]
    assert g.state["phase"] == "end" and p(g, 0)["keeper"] == frag
    assert g.view(0)["waiting"] == [0]
    cmd(g, 0, "pd.keeper.keep", keep=frag)
    assert [x["pid"] for x in p(g, 0)["board"]["placements"] if x["size"] == "small"] == frag
    assert g.state["round"] == 2 and g.state["phase"] == "summoning"


def test_end_phase_discards_fragments_and_their_seals_without_keeper():
    g = solo(
        round1={**PLAIN, "sin_amount": 2},
        fragment={"types": ["Fragment"], "value": 1, "sigils": ["blue", "blue", None, None]},
        courage=courage({"kind": "more_sins"}, "More Sins"),
    )
    turn(g, (0, 1))
    turn(g, (1, 0), decline=False)
    cmd(g, 0, "pd.bonus.fragment", sin="glut")
    cmd(g, 0, "pd.drawn.place", spot="1,1,top")  # completes (1, 1) with the printed wild corner
    assert seals(g) == [((1, 1), "blue", True)]
    for space in ((2, 2), (2, 3), (3, 0), (3, 1)):
        turn(g, space)
    assert g.state["round"] == 2
    assert not [x for x in p(g, 0)["board"]["placements"] if x["size"] == "small"]
    assert seals(g) == []  # the seal the Fragment helped to form went with it
    assert len(p(g, 0)["courage"]) == 2  # one more Courage at the end of the round


def test_courage_limit_three_means_discarding_one():
    g = solo(
        round1={**PLAIN, "sin_amount": 3},
        courage=courage({"kind": "more_sins"}, "More Sins"),
        hefty={"requirements": []},
    )
    for _rnd in range(2):
        for space in ((0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1)):
            turn(g, space)
    assert len(p(g, 0)["courage"]) == 3 and g.state["round"] == 3
    turn(g, (1, 2))
    turn(g, (1, 3), decline=False)
    hefty = [c for c in p(g, 0)["personal"] if g.state["catalog"][c]["deck"] == "hefty"]
    cmd(g, 0, "pd.bonus.personal", card=hefty[0], space=[1, 2], sin="glut")
    assert len(p(g, 0)["courage"]) == 4 and g.view(0)["me"]["courage_over"]
    assert g.state["step"] == "bonus"
    refused("keep_three", cmd, g, 0, "pd.courage.discard", cards=p(g, 0)["courage"][:2])
    refused("bad_cards", cmd, g, 0, "pd.courage.discard", cards=["C-99"])
    gone = p(g, 0)["courage"][0]
    cmd(g, 0, "pd.courage.discard", cards=[gone])
    assert len(p(g, 0)["courage"]) == 3 and gone in g.state["discards"]["courage"]
    refused("wrong_step", cmd, g, 0, "pd.bonus.decline")  # the turn moved on
    refused("no_discard", cmd, g, 0, "pd.courage.discard", cards=[p(g, 0)["courage"][0]])
    assert g.state["turn"] == 3


# -- whole games ------------------------------------------------------------------------------
def test_scripted_two_player_game_runs_three_rounds_and_ties_share_the_victory():
    g = play_random(2, seed=7)
    assert g.state["phase"] == "over" and g.state["round"] == 3
    scores = [p["score"] for p in g.state["players"]]
    assert g.state["winners"] == [i for i, s in enumerate(scores) if s == max(scores)]
    rounds = [r.data["round"] for r in g.records() if r.type == "pd.round.scoring"]
    assert rounds == [1, 2, 3]
    placed = [r for r in g.records() if r.type == "pd.card.placed"]
    assert len(placed) == 2 * 6 * 3
    gained = {0: 0, 1: 0}
    for r in g.records():
        if r.type in ("pd.score.gained", "pd.seal.scored", "pd.fear.faced"):
            gained[r.data["seat"]] += r.data["points"]
    assert [gained[0], gained[1]] == scores


def test_solo_game_has_a_rating_and_knocks_candles_down():
    g = solo(options={"difficulty": "angelic"})
    assert len(p(g, 0)["hand"]) == 3 and g.view(0)["candles"] == 6
    turn(g, (0, 0))
    assert p(g, 0)["hand"] != [] and len(p(g, 0)["hand"]) == 3 and g.view(0)["candles"] == 5
    d = solo(options={"difficulty": "devilish"})
    assert len(p(d, 0)["hand"]) == 1
    full = play_random(1, seed=3)
    assert full.state["rating"] == solo_rating(full.state["players"][0]["score"])


@pytest.mark.parametrize(
    ("score", "rating"),
    [
        (0, "Lacking focus"),
        (66, "Demonic"),
        (65, "Lacking focus"),
        (74, "Lacking focus"),
        (75, "Fine"),
        (100, "Good"),
        (125, "Great"),
        (150, "Amazing"),
        (175, "God-like"),
        (200, "God-like"),
        (201, "Surely impossible?"),
    ],
)
def test_solo_rating_table(score, rating):
    assert solo_rating(score) == rating


def test_unknown_command_and_spectator_are_refused():
    """The kit refuses an unknown command and a spectator (one code each)."""
    g = game(2)
    refused("unknown_command", cmd, g, 0, "pd.cheat")
    refused("not_seated", cmd, g, None, "pd.bonus.decline")
    refused("unknown_command", cmd, g, 0, "pd.phys.ready")  # a physical-table command


def test_score_over_ninety_nine_flips_the_tens_tracker():
    """Rulebook "Scoring": the tens tracker flips to 100."""
    assert score_display(7) == "07" and score_display(99) == "99" and score_display(123) == "100+23"


def test_board_geometry_is_data():
    """A circle without printed wild corners forms no seal from three cards."""
    geo = default_geometry()
    for point in geo["points"]:
        for slot in point["slots"]:
            slot.pop("print", None)
    cards = {x: {"id": x, "size": "regular", "sigils": BLUE4, "value": 1} for x in "abc"}
    board = B.empty_board()
    for i, space in enumerate(([0, 1], [1, 0], [1, 1])):
        board["placements"].append(
            {
                "pid": f"p{i}",
                "card": "abc"[i],
                "size": "regular",
                "spaces": [space],
                "half": None,
                "face_up": True,
                "fear": False,
            }
        )
    assert B.formable_seals(board, cards, geo) == []


SCRIPT = [
    [(0, 1), (1, 0), (1, 1), (0, 2), (1, 2), (2, 1)],
    [(2, 0), (2, 2), (0, 0), (2, 3), (1, 3), (0, 3)],
    [(3, 0), (3, 1), (3, 2), (1, 1), (2, 2), (0, 0)],
]


def test_fully_scripted_two_player_game_with_hand_counted_scores():
    """Every demon blue on all corners, value 1, one Glut; Fears without sigils; Courage all
    Score Sins. Ann reveals every card; Ben leaves each round's sixth card face down.

    Ann: round I seals (1,1) 0+1+1+1 (the printed wild corner) = 3 and (1,2) = 4, Score Sins
    6 // 2 = 3: 10. Round II: a card into (0,0) trades the cracked (1,1) seal for an active
    one; seals (1,1), (1,3), (2,1), (2,2), (2,3) score 4 each = 20, two Score Sins 3 + 3: 26.
    Round III: cards on top re-form (1,1), (1,2), (2,1), (2,2) as active; seals worth 4 at
    (1,1), (1,2), (2,1), (2,2), (2,3), (3,1), (3,2) = 28, three Score Sins = 9: 37. Total 73.
    Ben: 10, then 8 + 2 x 4 = 16, then 8 + 3 x 4 = 20: 46.
    """
    rs = with_cards(
        round1=PLAIN,
        round2=PLAIN,
        round3=PLAIN,
        fear={"sigils": [None] * 4},
        courage=courage({"kind": "score_sins"}, "Score Sins"),
    )
    g = game(2, seed=9, setup=rs)
    for s in (0, 1):
        cmd(g, s, "pd.setup.choose", fear_space=[3, 3], keep=p(g, s)["candidates"][:2])
    totals = []
    for rnd, spaces in enumerate(SCRIPT, start=1):
        for n, space in enumerate(spaces, start=1):
            assert (g.state["round"], g.state["turn"], g.state["step"]) == (rnd, n, "place")
            for s in (0, 1):
                cmd(g, s, "pd.card.place", card=p(g, s)["hand"][0], space=list(space))
            cmd(g, 0, "pd.card.reveal", face_up=True)
            if n == 6:
                cmd(g, 1, "pd.card.reveal", face_up=False, seal_colour="red", sin="hate")
            else:
                cmd(g, 1, "pd.card.reveal", face_up=True)
            for s in g.state["bonus_order"]:
                cmd(g, s, "pd.bonus.decline")
        totals.append([p["score"] for p in g.state["players"]])
    assert totals == [[10, 10], [36, 26], [73, 46]]
    assert g.state["phase"] == "over" and g.state["winners"] == [0]
    ann = sorted(tuple(s["point"]) for s in p(g, 0)["board"]["seals"] if s["point"])
    assert ann == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2)]
    assert all(not s["active"] for s in p(g, 0)["board"]["seals"])  # all cracked after scoring
    assert [s["colour"] for s in p(g, 1)["board"]["seals"] if s["on"]] == ["red", "red", "red"]
    assert p(g, 1)["sins"] == {"glut": 6, "hate": 3, "want": 0}
