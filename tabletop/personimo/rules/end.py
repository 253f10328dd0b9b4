"""The end of each command and of the game: deal the next season when a season's work is done,
end the game after the last placement and record the final scores. Pure, no Django.

Rulebook: ``personimo-rules.txt``, "Game Play" ("until the deck is exhausted"), "Scoring".
"""

from __future__ import annotations

from tabletop.decider import Decision, Topic, copy_json
from tabletop.rules import EventRecord

from . import scoring
from .market import district_of, next_market, team_name
from .options import scoring_options
from .state import PersonimoState

ENDED = "personimo.game.ended"

end = Topic("end")


def score_results(state: PersonimoState) -> list[dict]:
    """Final scores of every player (``scoring.score_table``) with their ``seat`` and ``name``:
    one per seat (Teamwork: teammates share their district's score, place and ``team`` name)."""
    by_district = scoring.score_table(state["districts"], scoring_options(state["options"]))
    results = []
    for number, name in enumerate(state["names"]):
        result = copy_json(by_district[district_of(state, number)])
        result["seat"] = number
        result["name"] = name
        if state.get("teams"):
            result["team"] = team_name(state, district_of(state, number))
        results.append(result)
    return results


def advance(d: Decision) -> None:
    """After a command's own events: when nobody is left to act, either end the game (the last
    season's cards are all placed: ``personimo.game.ended`` with the scores) or deal the next
    row (``market.next_market``, final when it shows cards)."""
    state: PersonimoState = d.state
    if state["actor"] is not None or state["phase"] == "over":
        return
    if state["phase"] == "turn" and not state["row"] and all(x["done"] for x in state["old_row"]):
        d.emit(ENDED, {"results": score_results(state)})
        return
    event = next_market(state)
    d.emit(event.type, event.data, final=event.final)


@end.evolver(ENDED, label="ended the game")
def _ended(s: PersonimoState, event: EventRecord) -> None:
    s["phase"] = "over"
    s["actor"] = None
    s["results"] = event.data["results"]


@end.narrator(ENDED)
def _say_ended(event: EventRecord, state: PersonimoState) -> str:
    results = event.data["results"]
    winners = [r for r in results if r["place"] == 1]
    scores = ", ".join(f"{r['name']} {r['total']}" for r in results)
    names = " and ".join(r["name"] for r in winners)
    return f"Game over: {names} {'wins' if len(winners) == 1 else 'tie'} ({scores})."
