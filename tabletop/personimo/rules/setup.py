"""Setting up a game: start cards, the deck, the token order and the first market row.
Pure, no Django.

Rulebook: ``personimo-rules.txt``, "Setup", "The Market"; The Kickoff, The Head Start, The
Race, "The Deck", "District Size Variants", "Jacynimo", "Solitaire".
"""

from __future__ import annotations

from typing import Any

from tabletop.decider import Topic
from tabletop.rules import EventRecord, NewEvent, SeatInfo, require

from . import scoring
from .cards import card
from .grid import start_headquarters
from .market import DEALT, sort_market
from .options import (
    RACE_ORDER,
    START_CARDS,
    build_deck,
    district_size,
    double_deck,
    extra_cards,
    first_row_size,
    market_size,
    normalize_options,
    token_order,
)
from .state import District, PersonimoState

SET_UP = "personimo.game.set_up"

setup = Topic("setup")


def set_up_events(options: dict, seats: tuple[SeatInfo, ...], rng: Any) -> list[NewEvent]:
    """Setup: start cards, deck, token order (``personimo.game.set_up``), and the first market
    row (``personimo.market.dealt``, final: it shows cards). ``rng``: a ``tabletop.dice.Dice``.
    Raises ``RuleViolation`` for a bad option or player count (``options.normalize_options``)."""
    players = len(seats)
    opts = normalize_options(options, players)
    if opts["bonus"] == "goblins":
        # Age of Goblins: "Select several bonus scoring options to use at random": three.
        opts["bonus_set"] = sorted(rng.sample(sorted(scoring.BONUSES), 3))
    deck, aside = build_deck(players, opts, rng)
    pool = START_CARDS[opts["start_cards"]]
    copies = [1, 2] if double_deck(players, opts) else [1]
    pool = [f"{k}/{n}" for n in copies for k in pool]
    require(
        len(pool) >= players,
        "variant_unsupported",
        f"There are only {len(pool)} start cards for {players} players.",
    )
    # Teamwork: seats 0 and 1 are team 0, 2 and 3 team 1...; a headquarters per team.
    teams = [s // 2 for s in range(players)] if opts["district"] == "teamwork" else None
    starts = rng.sample(pool, players // 2 if teams else players)
    deck += extra_cards(opts, copies, starts)
    if opts["district"] == "9":
        # "a pool of 80 cards from the double Decktet (including the remaining extended
        # deck cards)": the 72 base cards and 8 of the 16 remaining extended cards (Pawns,
        # Courts, Excuses) drawn at random, since all 16 would make 88. They play as in
        # Courting Danger and Excuses Wild.
        remaining = extra_cards(dict(opts, extra_cards="both"), copies, starts)
        deck += rng.sample(remaining, 8)
    deck = rng.shuffled(deck)
    if opts["district"] == "6":  # "a pool of 34 cards drawn from the base deck"
        deck, aside = deck[:34], aside + deck[34:]
    if opts["district"] == "jacynimo":  # "The deck consists of 15 cards per player"
        deck, aside = deck[: 15 * players], aside + deck[15 * players :]
    if opts["first_order"] == "tournament":
        # The Tournament: "rotating player order on the first turn": game n of the series
        # starts with seat n (counting round the table), the others following in seat order.
        opener = (int(opts["tournament_game"]) - 1) % players
        order = [(opener + i) % players for i in range(players)]
    elif opts["first_order"] == "race":
        order = sorted(range(players), key=lambda s: (RACE_ORDER.index(card(starts[(teams or range(players))[s]]).key),
                                                      s))  # fmt: skip
    else:
        order = rng.shuffled(list(range(players)))
    tokens = token_order(order, opts)
    size = market_size(players, opts)
    first_size = first_row_size(players, opts)
    first = sort_market(deck[:first_size], opts["market_sort"], int(opts["attraction_min"]))
    dealt: dict = {"cards": first, "season": 1, "dealt": first_size}
    if opts["soothsayer"] == "yes":
        dealt["preview"] = sort_market(deck[first_size : first_size + size],
                                       opts["market_sort"], int(opts["attraction_min"]))  # fmt: skip
        dealt["dealt"] += len(dealt["preview"])
    return [
        NewEvent(
            SET_UP,
            {
                "names": [s.name for s in seats],
                "options": opts,
                "size": district_size(opts),
                "start_cards": starts,
                "deck": deck,
                "set_aside": aside,
                "tokens": tokens,
                "market_size": size,
                "first_row": first_size,
                **({"teams": teams} if teams else {}),
            },
        ),
        NewEvent(DEALT, dealt, final=True),
    ]


def _district(data: dict, seat: int) -> District:
    """A new district: the headquarters alone (Jacynimo: one square a card; Urban Sprawl)."""
    district: District = {
        "hq": start_headquarters(data["start_cards"][seat], data["size"]),
        "cards": [],
        "discards": [],
    }
    if data["options"]["district"] == "jacynimo":
        district["squares"] = 1
    if data["options"]["district"] == "sprawl":
        district["sprawl"] = True
    return district


@setup.evolver(SET_UP, label="set up the game")
def _set_up(s: PersonimoState, event: EventRecord) -> None:
    data = event.data
    fresh: PersonimoState = dict(  # type: ignore[assignment]
        phase="claim",
        names=list(data["names"]),
        options=dict(data["options"]),
        size=data["size"],
        deck=list(data["deck"]),
        set_aside=list(data["set_aside"]),
        discard=[],
        tokens=list(data["tokens"]),
        market_size=data["market_size"],
        season=0,
        seasons=1 + -(-(len(data["deck"]) - data["first_row"]) // data["market_size"]),
        preview=[],
        row=[],
        old_row=[],
        claim_queue=[],
        actor=None,
        picks=[],
        results=None,
        districts=[_district(data, p) for p in range(len(data["start_cards"]))],
    )
    s.update(fresh)
    if data.get("teams"):
        s["teams"] = list(data["teams"])


@setup.narrator(SET_UP)
def _say_set_up(event: EventRecord, state: PersonimoState) -> str:
    data = event.data
    teams = data.get("teams")
    if teams:  # teamwork: one district, and one start card, per team (its two players)
        owners = [" & ".join(n for n, t in zip(data["names"], teams, strict=True) if t == team)
                  for team in range(len(data["start_cards"]))]
    else:
        owners = list(data["names"])
    starts = ", ".join(
        f"{name}: {card(c).name}" for name, c in zip(owners, data["start_cards"], strict=True)
    )
    return f"Set up with {len(data['deck'])} cards in the deck. Headquarters: {starts}."
