"""Random Personimo games through the kit's pure step (issue 20 point 6, MIGRATE.md item 6).

For every player count and every variant the options offer: seeded games choosing among the
commands each page offers (``PersonimoRuleset.moves``), asserting no exception but coded
errors, never stuck, the game ends within a bound ("Game Play": it proceeds "until the deck is
exhausted"), replay equals the incremental state, cards conserved, a seat's view unchanged when
only hidden cards change (the deck's order, the set-aside cards without The Reveal), and the
final scores equal a recount written here from the rulebook's "Scoring" section.
``PLAYOUT_SEEDS`` seeds a case (3 in ``make test``, 200 in ``make playouts``).
"""

from __future__ import annotations

import os
import random

import pytest

from tabletop.errors import RuleViolation
from tabletop.personimo.rules import OPTIONS_SCHEMA, normalize_options
from tabletop.personimo.rules.cards import card
from tabletop.testing import playout

from .sims import RULES

SEEDS = int(os.environ.get("PLAYOUT_SEEDS", "3"))
SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")


def variants(players: int) -> list[dict]:
    """The defaults, then every non-default value of every option that ``players`` accepts
    (alone: combinations the rules refuse are left out)."""
    out: list[dict] = [{}]
    for name, spec in OPTIONS_SCHEMA.items():
        for value, _label in spec["choices"]:
            if value == spec["default"]:
                continue
            try:
                normalize_options({name: value}, players)
            except RuleViolation:
                continue
            out.append({name: value})
    return out


def table_options(players: int, seed: int) -> dict:
    """Seed ``n`` plays variant ``n`` of ``variants(players)`` (in turn, so 200 seeds play
    every variant several times), mixed with random values of the other options where the
    rules accept the mix."""
    rnd = random.Random(f"{players}:{seed}")
    chosen = variants(players)[seed % len(variants(players))]
    options = dict(chosen)
    for name, spec in OPTIONS_SCHEMA.items():
        if name in chosen or rnd.random() < 0.7:
            continue
        value = rnd.choice(spec["choices"])[0]
        try:
            normalize_options({**options, name: value}, players)
        except RuleViolation:
            continue
        options[name] = value
    return options


def conserved(state: dict) -> list[str] | None:
    """Every card of the game, wherever it is (deck, set aside, rows, districts, discards)."""
    if state.get("phase") in (None, "new"):
        return None
    actor = state["actor"]
    placed_slot = (
        actor["slot"] if actor and actor["action"] == "claim" and state["phase"] == "turn" else None
    )
    pool = list(state["deck"]) + list(state["set_aside"]) + list(state["discard"])
    pool += list(state.get("preview", []))
    pool += [x["card"] for x in state["row"]]
    pool += [
        x["card"] for i, x in enumerate(state["old_row"]) if not x["done"] and i != placed_slot
    ]
    for district in state["districts"]:
        pool.append(district["hq"]["card"])
        pool += [p["card"] for p in district["cards"]]
    return sorted(pool)


def perturb(state: dict, seat: int, rnd: random.Random) -> dict:
    """Change what no seat may see: the deck's order and, without The Reveal, the set-aside."""
    if state.get("phase") in (None, "new"):
        return state
    rnd.shuffle(state["deck"])
    if state["options"]["reveal"] != "yes":
        state["set_aside"] = sorted(state["set_aside"], reverse=True)
    return state


# --- an independent recount ("Scoring") -------------------------------------------------------


def _weight(card_id: str, options: dict) -> int:
    """Scoring cards a card counts as: 1 a personality, 1 an attraction (rank >= the lowest
    attraction rank, 8 unless Detraction), both 2; Lucky Nines: a 9 counts 2, the Merchant 3."""
    c = card(card_id)
    number = {"Ace": 1, "Crown": 10}.get(c.rank, int(c.rank) if c.rank.isdigit() else None)
    if options["lucky_nines"] == "yes" and c.rank == "9":
        return 3 if c.personality else 2
    return int(c.personality) + int(number is not None and number >= int(options["attraction_min"]))


def _hoods(squares: dict) -> dict[tuple[str, tuple[int, int]], frozenset]:
    """(suit, square) -> the neighborhood (orthogonally connected squares of that suit)."""
    out: dict = {}
    for suit in SUITS:
        for start in squares:
            if suit not in squares[start] or (suit, start) in out:
                continue
            region, todo = {start}, [start]
            while todo:
                r, c = todo.pop()
                for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if nb not in region and suit in squares.get(nb, ()):
                        region.add(nb)
                        todo.append(nb)
            for cell in region:
                out[(suit, cell)] = frozenset(region)
    return out


def _base(district: dict, options: dict, hq_suits: list | None) -> int:
    squares: dict = {}
    owners = []  # (card, [(suit, square)])
    hq = district["hq"]
    hq_cells = [tuple(hq["cell"])] + ([tuple(hq["cell2"])] if "cell2" in hq else [])
    for i, cell in enumerate(hq_cells):
        squares[cell] = set(hq_suits[i]) if hq_suits else set(card(hq["card"]).suits)
    owners.append((hq["card"], [(s, cell) for cell in hq_cells for s in squares[cell]]))
    for placed in district["cards"]:
        pairs = []
        for i, cell in enumerate(placed["cells"]):
            suits = (
                set(card(placed["card"]).suits)
                if len(placed["cells"]) == 1
                else {placed["suits"][i]}
            )
            squares[tuple(cell)] = suits
            pairs += [(s, tuple(cell)) for s in suits]
        owners.append((placed["card"], pairs))
    hoods = _hoods(squares)
    scoring: dict = {}
    for card_id, pairs in owners:
        weight = _weight(card_id, options)
        if not weight:
            continue
        if options["paralysis"] == "yes":
            # "allow the player to choose which suit scores": the larger neighborhood scores more.
            pair = max(pairs, key=lambda p: len(hoods[p]))
        else:
            pair = next((p for p in pairs if p[0] == card(card_id).bottom_suit), None)
            if pair is None:
                continue
        scoring[hoods[pair]] = scoring.get(hoods[pair], 0) + weight
    return sum(len(hood) * n for hood, n in scoring.items())


def _badgers(district: dict, size: int) -> int:
    """Age of Badgers: 5 for a complete district, 5 for the headquarters in the exact centre."""
    cells = [tuple(district["hq"]["cell"])] + [
        tuple(c) for p in district["cards"] for c in p["cells"]
    ]
    points = 5 if len(cells) == size * size else 0
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    if max(rows) - min(rows) + 1 == size and max(cols) - min(cols) + 1 == size and size % 2:
        centre = (min(rows) + size // 2, min(cols) + size // 2)
        points += 5 if tuple(district["hq"]["cell"]) == centre else 0
    return points


def recount(state: dict) -> list[int]:
    """The base score of each district by the rulebook, plus Age of Badgers."""
    options = state["options"]
    totals = []
    for district in state["districts"]:
        hq = district["hq"]
        if "cell2" in hq and "suits" not in hq:  # 6x6: the best spread of the three suits
            suits = card(hq["card"]).suits
            spreads = [[[a, s], [b, s]] for s in suits for a in suits for b in suits
                       if len({a, b, s}) == 3]  # fmt: skip
            base = max(_base(district, options, spread) for spread in spreads)
        else:
            base = _base(district, options, hq.get("suits"))
        if options["bonus"] == "badgers":
            base += _badgers(district, state["size"])
        totals.append(base)
    return totals


def _limit(options: dict) -> int:
    # Two commands a card (place, claim), the shifts and the undos: 80 cards at most (9x9).
    return 1500 if options.get("district") in ("7", "9") else 700


@pytest.mark.parametrize("players", range(1, 7))
def test_playout(players):
    for seed in range(SEEDS):
        options = table_options(players, seed)
        out = playout(RULES, players, seed, options=options, conserved=conserved, perturb=perturb,
                      must_finish=True, max_commands=_limit(options), check_every=7,
                      undo_rate=0.03)  # fmt: skip
        state = out.sim.state
        assert set(out.refused) <= {"nothing_to_undo", "nothing_to_redo"}, (options, out.refused)
        results = state["results"]
        teams = state.get("teams") or list(range(players))  # Teamwork: a district per team
        recounted = [recount(state)[teams[s]] for s in range(players)]
        if state["options"]["bonus"] in ("none", "badgers"):
            assert [r["total"] for r in results] == recounted, options
        else:  # the other bonuses are added to the recounted base
            for result, base in zip(results, recounted, strict=True):
                assert result["total"] == base + sum(b["points"] for b in result["bonuses"])
        best = max(r["total"] for r in results)
        assert {r["place"] for r in results if r["total"] == best} & {1}
        assert all(r["total"] == best for r in results if r["place"] == 1)


def test_the_long_run_plays_every_variant_at_every_player_count():
    # make playouts (200 seeds) plays each variant of variants(players) as seed n's choice.
    for players in range(1, 7):
        assert len(variants(players)) <= 200
