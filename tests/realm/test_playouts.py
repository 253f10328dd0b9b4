"""Random playouts of Pixel Demon's Realm through the kit's pure step: every player count (rulebook "Overview": 2-4) and every variant (Acolyte Pact A/B, secret
Pacts, Afflictions, Affliction-only Demons kept or left out, auto-pass), seeded games choosing
among the moves each page offers (``RealmRuleset.moves``).

Asserted by ``tabletop.testing.playout``: no exception but coded errors, never stuck, replay
from scratch equals the incremental state, the 54 Ritual Cards and 8 Vessels conserved
(rulebook "Components"), a seat's view unchanged when only other seats' secrets change (FAQ
"Public Information"). Here: a finished game's winner meets its Pact by an independent recount
(rulebook "How to Win", FAQ "Pact Demands").

Realm has no forced end: no turn limit, the Ritual Deck is reshuffled from the discard pile
whenever it runs out, "If you take no actions on your turn, you may choose to Purge instead"
(every turn, forever), a released Demon "acts as though it was never bound to you", and
exorcisms and Eaters tear rituals down. Legal play can go round in circles (everyone purging,
binding and releasing the same Demon), so no bound holds for every seed of a uniform random
player: ``test_playout`` plays uniformly for 200 commands and asserts everything but the end.
``test_progress_playouts`` plays the same offered moves with a random policy biased towards
progress (``progress``) and every seed must finish within ``PROGRESS_BOUND`` commands, its
winner recounted; so must the deterministic greedy games.

``PLAYOUT_SEEDS`` seeds per case (3 in ``make test``, 200 in ``make playouts``).
"""

from __future__ import annotations

import json
import os
import random

import pytest

from tabletop.realm.rules import cards as C
from tabletop.testing import Sim, playout

from .deals import CONTENT, R

SEEDS = int(os.environ.get("PLAYOUT_SEEDS", "2"))

VARIANTS = {
    "acolyte-a": {"pacts": "acolyte-a"},
    "acolyte-b-auto-pass": {"pacts": "acolyte-b", "auto_pass": "on"},
    "secret-afflictions": {"pacts": "secret", "afflictions": "on"},
    "secret-keep-affliction-demons": {"pacts": "secret", "affliction_demons": "keep", "auto_pass": "on"},
}
CASES = [(n, v) for n in (2, 3, 4) for v in VARIANTS]


def where_cards_are(state) -> tuple:
    """Every Ritual Card and Vessel, wherever it is: deck, discard, hands, the ritual, Eaters,
    the Vessel Stack. Conserved means this multiset never changes."""
    r = state["ritual"] or {}
    every = list(state["deck"]) + list(state["discard"]) + list(state["vessels"])
    every += [c for p in state["players"] for c in p["hand"]]
    every += list(r.get("cards", [])) + ([r["eater"]] if r.get("eater") else [])
    every += [e for es in state["eaters"].values() for e in es]
    return tuple(sorted(every))


def perturb(state, seat: int, rnd: random.Random):
    """Change only what ``seat`` may not know: other seats' hands (swapped with deck cards,
    Vessels kept, so the public counts stay), the deck order, other seats' secret Pacts, the
    face-down Pact and Affliction cards, the demons below the Portal."""
    deck = state["deck"]
    for k, p in enumerate(state["players"]):
        if k == seat:
            continue
        for i, card in enumerate(p["hand"]):
            if deck and not C.is_vessel(card) and rnd.random() < 0.5:
                j = rnd.randrange(len(deck))
                p["hand"][i], deck[j] = deck[j], card
        if p["pact"] and state["winner"] != k and state["pact_slots"]:
            j = rnd.randrange(len(state["pact_slots"]))
            p["pact"], state["pact_slots"][j] = state["pact_slots"][j], p["pact"]
    rnd.shuffle(deck)
    rnd.shuffle(state["pact_slots"])
    rnd.shuffle(state["demon_deck"])
    aff = state["afflictions"]
    rnd.shuffle(aff["deck"])
    if aff["drawer"] != seat and aff["offer"] and aff["deck"]:
        aff["offer"][0], aff["deck"][0] = aff["deck"][0], aff["offer"][0]
    return state


def recount_met(conditions: list[dict], demons: list[dict]) -> bool:
    """An independent count of a Pact's clauses over bound demons (rulebook "How to Win"; FAQ
    "Pact Demands": exceeding a demand counts)."""
    corners = [c for d in demons for c in d["corners"]]
    numbers = [int(c) for c in corners if c.isdigit()]
    for clause in conditions:
        need, kind = clause["at_least"], clause["kind"]
        have = {
            "demons": len(demons),
            "suit": sum(1 for c in corners if c == clause.get("suit")),
            "rank": sum(1 for c in corners if c == clause.get("rank")),
            "distinct_suits": len({c for c in corners if c in "DVSC"}),
            "personal": sum(1 for d in demons if d["personal"]),
            "lasting": sum(1 for d in demons if d.get("lasting")),
            "rank_sum": sum(numbers),
            "parity": sum(1 for x in numbers if (x % 2 == 0) == (clause.get("parity") == "even")),
        }[kind]
        if have < need:
            return False
    return True


@pytest.mark.parametrize("players,variant", CASES, ids=[f"{n}p-{v}" for n, v in CASES])
def test_playout(players, variant):
    for seed in range(SEEDS):
        out = playout(
            R,
            players,
            seed,
            options=VARIANTS[variant],
            content=CONTENT,
            max_commands=200,
            conserved=where_cards_are,
            perturb=perturb,
            check_every=7,
        )
        st = out.sim.state
        assert len(where_cards_are(st)) == 54 + 8
        if out.finished:
            winner = st["winner"]
            pact_id = st["acolyte"] or st["players"][winner]["pact"]
            pact = st["content"]["pacts"][pact_id]
            demons = [
                dict(st["content"]["demons"][b["demon"]], personal=b["personal"])
                for b in st["players"][winner]["bound"]
            ]
            assert recount_met(pact["conditions"], demons), (seed, pact_id)
            assert out.sim.view(None)["winner"] == winner
        # the rules refuse only with their own codes (a ticking that fails, never a crash)
        assert set(out.refused) <= {
            "ritual_fails", "not_three_of_a_kind", "discard_count", "not_now", "nothing_to_undo",
            "not_your_turn", "not_your_prompt", "card_banned", "no_vessel", "turn_over",
            "take_pending", "suit_mismatch", "pact_not_met", "not_your_action", "bad_target",
            "eater_attached",
        }, out.refused
    # Random games seldom finish (Realm has no forced end); finishing within a bound is
    # asserted by the greedy games below, and each random game that finished was checked above.


#: A greedy player among the offered moves: announce, answer the prelude, feed, pass, take,
#: bind, summon, release a Demon whose lasting curse may block it (a player whose Daggers
#: are all Skulls never meets a Dagger again: rulebook "Releasing a Demon"), else end the turn.
GREEDY = [
    "realm.pact.announce",
    "realm.pact.choose",
    "realm.affliction.give",
    "realm.ritual.feed",
    "realm.ritual.pass",
    "realm.card.take",
    "realm.demon.bind",
    "realm.vessel.summon",
    "realm.demon.release",
    "realm.turn.end",
]


def greedy_moves(view: dict, seat: int) -> list:
    """The offered moves ``GREEDY`` plays, releasing only Demons with a lasting curse."""
    lasting = {b["id"] for p in view.get("players", []) if p["seat"] == seat for b in p["bound"] if b["lasting"]}
    return [
        c for c in R.moves(view, seat)
        if c.type in GREEDY and (c.type != "realm.demon.release" or c.data["demon"] in lasting)
    ]


def assert_winner_meets_the_pact(sim) -> None:
    """The winner's bound Demons meet their Pact, recounted (rulebook "How to Win")."""
    st = sim.state
    winner = st["winner"]
    pact = st["content"]["pacts"][st["acolyte"] or st["players"][winner]["pact"]]
    demons = [
        dict(st["content"]["demons"][b["demon"]], personal=b["personal"])
        for b in st["players"][winner]["bound"]
    ]
    assert recount_met(pact["conditions"], demons), pact["id"]
    assert sim.view(None)["winner"] == winner


class ReleasingOnlyLastingCurses:
    """``R`` as a player who releases only Demons whose lasting curse may block them (a player
    whose Daggers are all Skulls never meets a Dagger again: rulebook "Releasing a Demon"):
    every other offered move is kept."""

    def __getattr__(self, name):
        return getattr(R, name)

    def moves(self, view: dict, seat: int) -> list:
        return greedy_moves(view, seat) + [c for c in R.moves(view, seat) if c.type not in GREEDY]


#: The priorities of ``progress``: ``GREEDY`` without releasing (left to chance).
PROGRESS = [t for t in GREEDY if t != "realm.demon.release"]
#: Every progress game ends within this many commands: of 1,600 seeds tried (200 a case at 2
#: and 3 players) the longest took 891 commands (undos included).
PROGRESS_BOUND = 3000


def progress(commands: list, rnd: random.Random, sim) -> object:
    """A random policy biased towards progress: one time in twenty any offered move, else a
    move of the first kind in ``PROGRESS`` offered (at random among them); a move the rules
    refused is not tried again until the table changes (the page offers feeds that fail)."""
    tried = sim.__dict__.setdefault("_tried", {})
    tried = tried.setdefault(sim.version, set())
    fresh = [c for c in commands if (c.type, json.dumps(c.data, sort_keys=True)) not in tried]
    commands = fresh or commands
    ranked = [c for c in commands if c.type in PROGRESS]
    if not ranked or rnd.random() < 0.05:
        pick = rnd.choice(commands)
    else:
        best = min(PROGRESS.index(c.type) for c in ranked)
        pick = rnd.choice([c for c in ranked if PROGRESS.index(c.type) == best])
    tried.add((pick.type, json.dumps(pick.data, sort_keys=True)))
    return pick


@pytest.mark.parametrize("players,variant", CASES, ids=[f"{n}p-{v}" for n, v in CASES])
def test_progress_playouts_finish_and_the_winner_meets_the_pact(players, variant):
    # rulebook "How to Win": the first to complete their Pact announces it and wins
    for seed in range(SEEDS):
        out = playout(
            ReleasingOnlyLastingCurses(),
            players,
            seed,
            options=VARIANTS[variant],
            content=CONTENT,
            max_commands=PROGRESS_BOUND,
            must_finish=True,
            conserved=where_cards_are,
            perturb=perturb,
            check_every=7,
            undo_rate=0.02,
            choose=progress,
        )
        assert_winner_meets_the_pact(out.sim)


@pytest.mark.parametrize("players,variant", CASES, ids=[f"{n}p-{v}" for n, v in CASES])
def test_greedy_games_finish_and_the_winner_meets_the_pact(players, variant):
    # rulebook "How to Win": the first to complete their Pact announces it and wins
    for seed in range(max(1, SEEDS // 3)):
        sim = Sim(R, players, options=VARIANTS[variant], content=CONTENT, seed=f"greedy:{seed}")
        baseline = where_cards_are(sim.state)
        for _ in range(1500):
            if sim.finished:
                break
            offered = sorted(
                (GREEDY.index(c.type), k, seat, c)
                for seat in range(players)
                for k, c in enumerate(greedy_moves(sim.view(seat), seat))
            )
            assert offered, "stuck"
            assert any(sim.try_send(seat, c.type, c.data) is None for _p, _k, seat, c in offered)
        assert sim.finished, f"greedy game {seed} did not finish within 1500 commands"
        assert where_cards_are(sim.state) == baseline
        sim.assert_replay_equal()
        st = sim.state
        winner = st["winner"]
        pact = st["content"]["pacts"][st["acolyte"] or st["players"][winner]["pact"]]
        demons = [
            dict(st["content"]["demons"][b["demon"]], personal=b["personal"])
            for b in st["players"][winner]["bound"]
        ]
        assert recount_met(pact["conditions"], demons)
        others = [k for k in range(players) if k != winner]
        assert all(sim.view(k)["players"][winner]["pact"]["id"] == pact["id"] for k in others)
