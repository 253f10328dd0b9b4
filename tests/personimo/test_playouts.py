"""Random Personimo games through the kit's pure step.

For every player count and every variant the options offer: seeded games choosing among the
commands each page offers (``PersonimoRuleset.moves``), asserting no exception but coded
errors, never stuck, the game ends within a bound ("Game Play": it proceeds "until the deck is
exhausted"), replay equals the incremental state, cards conserved, a seat's view unchanged when
only hidden cards change (the deck's order, the set-aside cards without The Reveal), and the
final scores equal a recount written here from the rulebook's "Scoring" and "Bonus Points"
sections (every bonus option, Teamwork, 6x6, Jacynimo; nothing taken from the game's scoring).
``PLAYOUT_SEEDS`` seeds a case (2 in ``make test``, 200 in ``make playouts``).
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

SEEDS = int(os.environ.get("PLAYOUT_SEEDS", "2"))
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


def _base(district: dict, options: dict) -> int:
    """Base score, "Scoring": "To score a neighborhood, multiply the number of blocks in the neighborhood by the number
    of scoring cards/tokens in the neighborhood": each scoring card counts in the neighborhood of
    its bottom ("posher") suit (Personality Paralysis: the suit its player chooses; the larger
    neighborhood is the best choice); a neighborhood without one scores zero."""
    squares = _squares(district)
    hq = district["hq"]
    hq_cells = [tuple(hq["cell"])] + ([tuple(hq["cell2"])] if "cell2" in hq else [])
    owners = [(hq["card"], [(s, cell) for cell in hq_cells for s in squares[cell]])]
    for placed in district["cards"]:
        owners.append(
            (placed["card"], [(s, tuple(c)) for c in placed["cells"] for s in squares[tuple(c)]])
        )
    hoods = _hoods(squares)
    scoring: dict = {}
    for card_id, pairs in owners:
        weight = _weight(card_id, options)
        if not weight:
            continue
        if options["paralysis"] == "yes":
            pair = max(pairs, key=lambda p: len(hoods[p]))
        else:
            pair = next((p for p in pairs if p[0] == card(card_id).bottom_suit), None)
            if pair is None:
                continue
        scoring[hoods[pair]] = scoring.get(hoods[pair], 0) + weight
    return sum(len(hood) * n for hood, n in scoring.items())


def _squares(district: dict) -> dict[tuple[int, int], set[str]]:
    """cell -> the suits of its block: the headquarters keeps its three suits (on 6x6 the two
    suits chosen for each of its squares), a placed card one suit a block, a Jacynimo card all its
    suits on its one square ("Assigning Suits", "Jacynimo")."""
    squares: dict = {}
    hq = district["hq"]
    hq_cells = [tuple(hq["cell"])] + ([tuple(hq["cell2"])] if "cell2" in hq else [])
    for i, cell in enumerate(hq_cells):
        squares[cell] = set(hq["suits"][i]) if hq.get("suits") else set(card(hq["card"]).suits)
    for placed in district["cards"]:
        for i, cell in enumerate(placed["cells"]):
            one = len(placed["cells"]) == 1
            squares[tuple(cell)] = set(card(placed["card"]).suits) if one else {placed["suits"][i]}
    return squares


def _frame(cells, size: int):
    """The district's top-left corner when the built blocks span it both ways, else None: "as
    long as there aren't enough holes to make the position ambiguous"."""
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    if max(rows) - min(rows) + 1 == size and max(cols) - min(cols) + 1 == size:
        return min(rows), min(cols)
    return None


def _bonuses(district: dict, size: int, wanted: set[str]) -> int:
    """The rulebook's "Bonus Points", each scored at most once a district ("for having", the app's reading):
    5 complete; 5 headquarters in the exact centre; 10 in a corner; 5/10/15 for the longest line
    (3/4/5+) of one suit, diagonals included; 5 for a 2x2 box of one suit; 10 for a neighborhood
    reaching across the district (``size`` blocks from edge to edge, snaking allowed)."""
    squares = _squares(district)
    hq = district["hq"]
    hq_cells = [tuple(hq["cell"])] + ([tuple(hq["cell2"])] if "cell2" in hq else [])
    points = 0
    if "complete" in wanted and len(squares) == size * size:
        points += 5
    frame = _frame(list(squares), size)
    if frame:
        spots = {(r - frame[0], c - frame[1]) for r, c in hq_cells}
        if "centre" in wanted and size % 2 and (size // 2, size // 2) in spots:
            points += 5
        if "corner" in wanted and spots & {
            (0, 0),
            (0, size - 1),
            (size - 1, 0),
            (size - 1, size - 1),
        }:
            points += 10
    if "row" in wanted:
        longest = 0
        for (r, c), suits in squares.items():
            for suit in suits:
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    n = 1
                    while suit in squares.get((r + n * dr, c + n * dc), ()):
                        n += 1
                    longest = max(longest, n)
        points += 15 if longest >= 5 else {3: 5, 4: 10}.get(longest, 0)
    if "box" in wanted and any(
        suit in squares.get((r + 1, c), ()) and suit in squares.get((r, c + 1), ())
        and suit in squares.get((r + 1, c + 1), ())
        for (r, c), suits in squares.items() for suit in suits
    ):  # fmt: skip
        points += 5
    if "run" in wanted:
        hoods = set(_hoods(squares).values())
        if any(
            max(r for r, _ in h) - min(r for r, _ in h) + 1 >= size
            or max(c for _, c in h) - min(c for _, c in h) + 1 >= size
            for h in hoods
        ):
            points += 10
    return points


def _largest(districts: list[dict], wanted: set[str]) -> list[int]:
    """Largest neighborhood, "Bonus Points": "5 points for having the largest neighborhood in a suit, regardless of whether it is a
    scoring neighborhood. For more than three players, also award 2 points for second place":
    ties share the place; the competitors are the districts (Teamwork: teams)."""
    awards = [0] * len(districts)
    if "largest" not in wanted or len(districts) < 2:
        return awards
    best = []
    for district in districts:
        by_suit: dict[str, int] = {}
        for (suit, _cell), hood in _hoods(_squares(district)).items():
            by_suit[suit] = max(by_suit.get(suit, 0), len(hood))
        best.append(by_suit)
    for suit in SUITS:
        sizes = sorted({b[suit] for b in best if suit in b}, reverse=True)
        prizes = [5, 2] if len(districts) > 3 else [5]
        for size, prize in zip(sizes, prizes, strict=False):
            for i, b in enumerate(best):
                awards[i] += prize if b.get(suit) == size else 0
    return awards


#: The bonus options each table option turns on ("Bonus Points": Age of Badgers "the first
#: two"; Age of Goblins "several ... at random": the three the table drew, public in its options).
BONUS_SETS = {
    "none": set(),
    "badgers": {"complete", "centre"},
    "all": {"complete", "centre", "corner", "row", "box", "run", "largest"},
}


def recount(state: dict) -> list[int]:
    """The score of each district by the rulebook: the base score plus every bonus in force."""
    options = state["options"]
    wanted = BONUS_SETS.get(options["bonus"]) or set(options.get("bonus_set", ()))
    totals, districts = [], []
    for district in state["districts"]:
        hq = district["hq"]
        if "cell2" in hq and "suits" not in hq:
            # 6x6: "one suit (eventually) assigned to each square and the third suit assigned to
            # both squares", chosen at scoring by the player: the spread that scores most.
            suits = card(hq["card"]).suits
            spreads = [[[a, s], [b, s]] for s in suits for a in suits for b in suits
                       if len({a, b, s}) == 3]  # fmt: skip
            tries = [dict(district, hq=dict(hq, suits=sp)) for sp in spreads]
            district = max(
                tries, key=lambda t: _base(t, options) + _bonuses(t, state["size"], wanted)
            )
        totals.append(_base(district, options) + _bonuses(district, state["size"], wanted))
        districts.append(district)
    largest = _largest(districts, wanted)
    return [t + a for t, a in zip(totals, largest, strict=True)]


def _limit(options: dict) -> int:
    # Two commands a card (place, claim), the shifts and the undos: 80 cards at most (9x9).
    return 1500 if options.get("district") in ("7", "9") else 700


def check_playout(players: int, seed: int, options: dict) -> None:
    """One seeded game with every property asserted, its scores recounted."""
    out = playout(RULES, players, seed, options=options, conserved=conserved, perturb=perturb,
                  must_finish=True, max_commands=_limit(options), check_every=7,
                  undo_rate=0.03)  # fmt: skip
    state = out.sim.state
    assert set(out.refused) <= {"nothing_to_undo", "nothing_to_redo"}, (options, out.refused)
    results = state["results"]
    teams = state.get("teams") or list(range(players))  # Teamwork: a district per team
    recounted = [recount(state)[teams[s]] for s in range(players)]
    assert [r["total"] for r in results] == recounted, options
    best = max(r["total"] for r in results)
    assert {r["place"] for r in results if r["total"] == best} & {1}
    assert all(r["total"] == best for r in results if r["place"] == 1)


@pytest.mark.parametrize("players", range(1, 7))
def test_playout(players):
    for seed in range(SEEDS):
        check_playout(players, seed, table_options(players, seed))


def _every_variant() -> dict[str, tuple[int, dict]]:
    """Each option value of the options page at the smallest player count that accepts it
    (two players first: the cheapest games)."""
    found: dict[str, tuple[int, dict]] = {}
    for players in (2, 1, 3, 4, 5, 6):
        for chosen in variants(players):
            name = ",".join(f"{k}={v}" for k, v in chosen.items()) or "default"
            found.setdefault(name, (players, chosen))
    return found


EVERY_VARIANT = _every_variant()


@pytest.mark.parametrize("name", sorted(EVERY_VARIANT))
def test_every_variant_in_a_playout(name):
    # make test plays every option value of the options page once (make playouts: each at every
    # player count that accepts it, several times)
    players, chosen = EVERY_VARIANT[name]
    check_playout(players, 0, chosen)


def test_the_long_run_plays_every_variant_at_every_player_count():
    # make playouts (200 seeds) plays each variant of variants(players) as seed n's choice.
    for players in range(1, 7):
        assert len(variants(players)) <= 200
