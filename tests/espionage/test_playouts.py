"""Random playouts of Demon Espionage through the pure step: for
3 to 6 players and every option value, seeded games choosing among the commands each page
offers (``EspionageRuleset.moves``). Each asserts: no exception but coded errors, never stuck,
finished within the bound (How to Play 9: the soul deck runs out or a faction is eliminated),
replay equal, soul cards conserved (Preparation, Soul Card), the final score equal to a
recount written here (How to Win, How to Play 9), and no seat's view changed by another seat's
secrets. ``PLAYOUT_SEEDS`` seeds per case (``make playouts`` runs 200)."""

import os
from collections import Counter

import pytest

from tabletop.espionage.rules import EspionageRuleset
from tabletop.testing import playout

R = EspionageRuleset()
SEEDS = int(os.environ.get("PLAYOUT_SEEDS", "2"))
SOULS = {3: 14, 4: 18, 5: 22, 6: 26}  # Preparation, Soul Card
#: Every value of every option at least once.
VARIANTS = [
    {},
    {"tie_break": "survivors", "minority": "surviving"},
    {"tie_break": "health", "reveal_on_elimination": "yes"},
    {"tie_break": "shared", "minority": "surviving", "reveal_on_elimination": "yes"},
]


def souls(state):
    """Every soul card, wherever it is: the deck, the players' hands, the end bonus."""
    held = [v for p in state["players"] for v in p["souls"]]
    bonus = (state.get("result") or {}).get("bonus", [])
    return sorted(state["soul_deck"] + held + bonus)


def hide_others(state, seat, rnd):
    """Change every secret ``seat`` may not see: unrevealed factions of others, the values of
    others' souls, the order of the soul deck, and the other duellist's face-down cards."""
    if state["phase"] != "playing":
        return state
    for n, p in enumerate(state["players"]):
        if n == seat:
            continue
        if not p["revealed"]:
            p["faction"] = rnd.choice(["rebel", "shadow"])
        p["souls"] = [rnd.randint(1, 3) for _ in p["souls"]]
    rnd.shuffle(state["soul_deck"])
    duel = state["duel"]
    if duel is not None and not duel["revealed"]:
        for side, who in enumerate((duel["initiator"], duel["opponent"])):
            if who == seat:
                continue
            if duel["cards"][side] is not None:
                duel["cards"][side] = {
                    "kind": "troop",
                    "damage": rnd.randint(1, 9),
                    "symbol": rnd.choice(["rock", "paper", "scissors"]),
                    "name": None,
                }
            if duel["actions"][side] is not None:
                duel["actions"][side] = [
                    rnd.choice(["negate", "divert"]) for _ in duel["actions"][side]
                ]
    return state


def recount(state):
    """How to Win and How to Play 9, counted again: each faction's souls (eliminated players'
    too) plus the 2 bonus souls of the faction with fewer players (dealt or surviving, by
    option), the most souls wins; a tie goes by the ``tie_break`` option."""
    options, players, result = state["options"], state["players"], state["result"]
    counted = [p for p in players if options["minority"] == "dealt" or not p["eliminated"]]
    sizes = Counter(p["faction"] for p in counted)
    minority = None
    if sizes["rebel"] != sizes["shadow"]:
        minority = "rebel" if sizes["rebel"] < sizes["shadow"] else "shadow"
    assert result["bonus_faction"] == minority
    totals = {"rebel": 0, "shadow": 0}
    for p in players:
        totals[p["faction"]] += sum(p["souls"])
    if minority:
        totals[minority] += sum(result["bonus"])
    winner = None
    if totals["rebel"] != totals["shadow"]:
        winner = max(totals, key=totals.get)
    elif options["tie_break"] == "survivors":
        alive = Counter(p["faction"] for p in players if not p["eliminated"])
        winner = None if alive["rebel"] == alive["shadow"] else max(alive, key=alive.get)
    elif options["tie_break"] == "health":
        left = {f: sum(p["health"] for p in players if p["faction"] == f) for f in totals}
        winner = None if left["rebel"] == left["shadow"] else max(left, key=left.get)
    return totals, winner


@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "default"
)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_playouts(players, variant):
    for seed in range(SEEDS):
        out = playout(
            R,
            players,
            seed,
            options=variant,
            max_commands=1500,
            must_finish=True,
            conserved=souls,
            perturb=hide_others,
            check_every=3,
        )
        state = out.sim.state
        assert souls(state) == sorted(souls(state)) and len(souls(state)) == SOULS[players]
        assert state["result"]["reason"] in ("faction_eliminated", "souls_exhausted")
        totals, winner = recount(state)
        assert state["result"]["totals"] == totals and state["result"]["winner"] == winner
        assert set(out.refused) <= {
            "not_your_action",  # a random undo of another seat's command (undo_own_only)
            "bad_card",
            "health_full",
            "bad_action",
            "too_many_copies",
            "bad_target",
        }
