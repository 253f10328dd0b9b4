"""Random playouts of Personal Demons through the pure step (issue 13, issue 20 point 6): for
every player count (1: solo meditation, 2-4), the app-dealt table with its variants and the
physical table, seeded games choosing among the commands each page offers
(``PersonalDemonsRuleset.moves``). Each asserts: no exception but coded errors, never stuck,
finished within the bound (rulebook "End of Game": three rounds of six turns), replay equal,
every card conserved (rulebook "Components"; discards and the box included), the final scores
equal to a recount of the scoring events written here, and no seat's view changed by another
seat's secrets (hands, Personal Demons, face-down cards, reveal choices; rulebook "Setup" J,
"Summoning Phase" 1-2). ``PLAYOUT_SEEDS`` seeds per case (``make playouts`` runs 200)."""

import os
from collections import Counter

import pytest

from tabletop.personal_demons.rules import PersonalDemonsRuleset
from tabletop.personal_demons.rules.content import demo_cards
from tabletop.testing import playout

R = PersonalDemonsRuleset()
SEEDS = int(os.environ.get("PLAYOUT_SEEDS", "3"))
CONTENT = {"cards": demo_cards()}


def cards_everywhere(state):
    """Every card id wherever it is (decks, discard piles, the box, hands, circles...)."""
    if state.get("mode") == "physical":
        return None
    where = Counter()
    for pile in (*state["decks"].values(), *state["discards"].values(), state["out"]):
        where.update(pile)
    for p in state["players"]:
        where.update(p["hand"] + p["candidates"] + p["personal"] + p["courage"])
        where.update(x["card"] for x in p["board"]["placements"])
        where.update(c for c in (p["drawn"], p.get("fear_card")) if c)
    assert set(where.values()) == {1}, "a card is in two places"
    return sorted(where)


def hide_others(state, seat, rnd):
    """Change what ``seat`` may not see: other players' hands, kept Personal Demons, face-down
    cards (swapped with cards of the hidden draw piles) and their reveal choices."""
    if state.get("mode") == "physical" or state["phase"] in ("new", "over"):
        return state
    decks = state["decks"]

    def swap(card):
        pile = decks[state["catalog"][card]["deck"]]
        if not pile:
            return card
        i = rnd.randrange(len(pile))
        pile[i], card = card, pile[i]
        pile.sort()
        return card

    for n, p in enumerate(state["players"]):
        if n == seat:
            continue
        p["hand"] = [swap(c) for c in p["hand"]]
        p["personal"] = [swap(c) for c in p["personal"]]
        p["candidates"] = [swap(c) for c in p["candidates"]]
        for x in p["board"]["placements"]:
            if not x["face_up"] and not x["fear"]:
                x["card"] = swap(x["card"])
        if p["reveal"] and not p["reveal"]["face_up"]:
            p["reveal"]["seal_colour"] = rnd.choice(["blue", "red", "yellow"])
    return state


def recount(sim):
    """Scores summed again from the scoring events (rulebook "Scoring": seals score the values
    of the cards they touch; Knights, Courage, Fears, Courage effects add points)."""
    players = len(sim.state["players"])
    totals = [0] * players
    for e in sim.records():
        if e.type in ("pd.score.gained", "pd.fear.faced", "pd.phys.points_added"):
            totals[e.data["seat"]] += e.data["points"]
        elif e.type in ("pd.seal.scored", "pd.phys.seal_scored"):
            assert e.data["points"] == sum(e.data["values"])
            totals[e.data["seat"]] += e.data["points"]
    return totals


#: Every player count, the app-dealt and the physical table, and every option value at least
#: once (solo difficulties, Advanced colossal cards, both readings of More Sins).
CASES = [
    (1, {}),
    (1, {"difficulty": "angelic", "advanced": "yes", "more_sins": "type"}),
    (1, {"difficulty": "devilish"}),
    (1, {"table": "physical"}),
    (2, {}),
    (2, {"table": "physical"}),
    (3, {"advanced": "yes", "more_sins": "type"}),
    (3, {"table": "physical"}),
    (4, {}),
    (4, {"table": "physical"}),
]


@pytest.mark.parametrize(("players", "options"), CASES, ids=lambda v: str(v))
def test_random_playouts(players, options):
    for seed in range(SEEDS):
        out = playout(
            R,
            players,
            seed,
            options=options,
            content=CONTENT,
            max_commands=4000,
            must_finish=True,
            conserved=cards_everywhere,
            perturb=hide_others,
            check_every=20,
            undo_rate=0.03,
        )
        state = out.sim.state
        scores = [p["score"] for p in state["players"]]
        assert scores == recount(out.sim)
        assert state["winners"] == [i for i, s in enumerate(scores) if s == max(scores)]
        if players == 1 and options.get("table") != "physical":
            assert state["rating"]
        assert set(out.refused) <= {
            "not_your_action",
            "half_taken",
            "not_enough_sin",
            "no_courage",
            "bad_values",
        }, out.refused
