"""The market: sorting a row, dealing the next one, and the order in which tokens act.
Pure, no Django.

Rulebook: ``personimo-rules.txt``, "The Market", "Turn Order"; the variants Incognito,
Recognition, Inception, The Soothsayer, There are Four Lights.
"""

from __future__ import annotations

from tabletop.decider import Decision, Topic
from tabletop.rules import EventRecord, NewEvent

from . import scoring
from .cards import SUITS, card
from .state import Actor, PersonimoState

DEALT = "personimo.market.dealt"

market = Topic("market")


def sort_market(cards: list[str], method: str = "standard", attraction_min: int = 8) -> list[str]:
    """Sort a market row ("The Market") and its variants.

    standard: ascending rank (Ace low, Crown high), ties by the suits in natural order (the
    Castle before the Cave), then personalities moved to the end keeping their order.
    incognito: personalities stay in rank order. recognition: personalities at the end sorted
    by scoring (bottom) suit, ties by the other suits. inception: scoring cards
    (personalities and attractions) at the end, sorted by bottom suit then top suit, and the
    rest sorted the same way. Remaining ties (two copies of a card) keep instance order.
    """

    def suit_key(instance: str) -> tuple[int, ...]:
        return tuple(SUITS.index(s) for s in card(instance).suits)

    def rank_key(instance: str) -> tuple:
        return (card(instance).order, suit_key(instance), instance)

    def by_suit(instance: str) -> tuple:
        c = card(instance)
        bottom = SUITS.index(c.bottom_suit) if c.suits else 99
        others = tuple(SUITS.index(s) for s in c.suits[:-1])
        return (bottom, others, c.order, instance)

    ranked = sorted(cards, key=rank_key)
    if method == "incognito":
        return ranked
    opts = scoring.ScoringOptions(attraction_min=attraction_min)
    if method == "inception":
        scoring_part = [i for i in ranked if scoring.weight(i, opts)]
        rest = [i for i in ranked if not scoring.weight(i, opts)]
        return sorted(rest, key=by_suit) + sorted(scoring_part, key=by_suit)
    people = [i for i in ranked if card(i).personality]
    rest = [i for i in ranked if not card(i).personality]
    if method == "recognition":
        people.sort(key=by_suit)
    return rest + people


def next_market(state: PersonimoState) -> NewEvent:
    """The ``personimo.market.dealt`` event that starts the next season ("Turn Order" step 1):
    the next cards of the deck, sorted; empty when the deck is exhausted (the last season, when
    the old row is only placed). There are Four Lights: the unpicked card is carried into the
    new row. The Soothsayer: the row already shown becomes the market and the next one is
    dealt face up beside it. Final when it shows cards."""
    opts = state["options"]
    method, lowest = opts["market_sort"], int(opts["attraction_min"])
    carried = (
        [x["card"] for x in state["row"] if x["seat"] is None]
        if opts["market"] == "four_lights"
        else []
    )
    size = state["market_size"]
    data: dict = {}
    if opts["soothsayer"] == "yes":
        fresh = state["preview"]
        data["preview"] = sort_market(state["deck"][:size], method, lowest)
        data["dealt"] = len(data["preview"])
    else:
        fresh = state["deck"][:size]
        data["dealt"] = len(fresh)
    data["cards"] = sort_market(carried + fresh, method, lowest) if fresh else []
    data["season"] = state["season"] + (1 if fresh else 0)
    return NewEvent(DEALT, data, final=data["dealt"] > 0)


def next_placer(state: PersonimoState) -> Actor | None:
    """The first token of the old row whose card is not placed yet ("In ascending token order
    (as they appear in the old market row)"), or None when the season's placements are done."""
    for slot, entry in enumerate(state["old_row"]):
        if not entry["done"]:
            return {"seat": entry["seat"], "action": "place", "slot": slot}
    return None


@market.evolver(DEALT, label="dealt the market")
def _dealt(s: PersonimoState, event: EventRecord) -> None:
    data = event.data
    cards = list(data["cards"])
    s["deck"] = s["deck"][data["dealt"] :]
    s["season"] = data["season"]
    s["preview"] = list(data.get("preview", []))
    if s["phase"] == "claim" and not s["row"]:
        s["row"] = [{"card": c, "seat": None} for c in cards]
        s["claim_queue"] = list(s["tokens"])[: len(cards)]
        s["actor"] = {"seat": s["tokens"][0], "action": "claim", "slot": None}
        return
    s["phase"] = "turn"
    s["discard"] += [x["card"] for x in s["row"] if x["seat"] is None and x["card"] not in cards]
    s["old_row"] = [
        {"card": x["card"], "seat": x["seat"], "done": False}
        for x in s["row"]
        if x["seat"] is not None
    ]
    s["row"] = [{"card": c, "seat": None} for c in cards]
    s["actor"] = {"seat": s["old_row"][0]["seat"], "action": "place", "slot": 0}


@market.narrator(DEALT)
def _say_dealt(event: EventRecord, state: PersonimoState) -> str:
    cards = event.data["cards"]
    if not cards:
        return "The deck is exhausted: the last cards are placed."
    names = ", ".join(card(c).name for c in cards)
    return f"Season {event.data['season']}: the market is {names}."


def my_turn(d: Decision) -> Actor:
    """The actor entry when it is ``d.seat``'s turn. Raises ``RuleViolation("not_your_turn")``."""
    actor = d.state["actor"]
    d.require(
        actor is not None and actor["seat"] == d.seat,
        "not_your_turn",
        f"It is {d.state['names'][actor['seat']]}'s turn." if actor else "Wait a moment.",
    )
    return actor


def district_of(state: PersonimoState, seat: int) -> int:
    """The index of ``seat``'s district: its own, or with Teamwork its team's
    (``state["teams"]``, seat -> team)."""
    teams = state.get("teams")
    return teams[seat] if teams else seat


def team_name(state: PersonimoState, index: int) -> str:
    """The name shown for district ``index``: its player's, or the team's ("Ann & Ben")."""
    teams = state.get("teams")
    if not teams:
        return state["names"][index]
    return " & ".join(n for s, n in enumerate(state["names"]) if teams[s] == index)


def who(state: PersonimoState, seat: int | None) -> str:
    """The name of ``seat`` for a log line."""
    return state["names"][seat] if seat is not None and seat < len(state["names"]) else "Someone"


def may_claim(state: PersonimoState) -> bool:
    """After placing: whether the placer claims a card of the new row. Always when the row has
    a card for them and every token after them; a short last row (a deck that does not divide
    into rows: 6x6, Jacynimo, Courting Danger, Excuses Wild) is shared out instead: a placer
    who already holds more cards of it than another player still to place passes (the rulebook
    is silent; this keeps 6x6 at 17 cards each and Jacynimo at 15, what the districts hold).
    Tables set up before (no ``options["short_row"]``) keep the old reading, first come first
    served, so their stored events still replay to the same state."""
    actor = state["actor"]
    if actor is None or actor["slot"] is None:
        return False
    free = sum(x["seat"] is None for x in state["row"])
    waiting = [
        x["seat"] for i, x in enumerate(state["old_row"]) if not x["done"] and i > actor["slot"]
    ]
    if free > len(waiting):
        return True
    if not free:
        return False
    if state["options"].get("short_row") != "shared":
        return True  # a table set up before short rows were shared: the old reading
    taken: dict[int | None, int] = {}
    for x in state["row"]:
        taken[x["seat"]] = taken.get(x["seat"], 0) + 1
    mine = taken.get(actor["seat"], 0)
    return not any(taken.get(s, 0) < mine for s in waiting if s != actor["seat"])
