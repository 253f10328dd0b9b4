"""The end of the game and its scoring (How to Win, How to Play 9)."""

from __future__ import annotations

from collections import Counter

from tabletop.decider import Decision, Topic
from tabletop.rules import EventRecord

from .cards import FACTION_LABELS, FACTIONS, REBEL, SHADOW
from .state import State

end = Topic("end")


def game_over_reason(state: State) -> str | None:
    """How to Play 9: ``"faction_eliminated"`` (every player of a faction out),
    ``"souls_exhausted"`` (no soul card left) or None (the game goes on)."""
    for faction in FACTIONS:
        members = [p for p in state["players"] if p["faction"] == faction]
        if members and all(p["eliminated"] for p in members):
            return "faction_eliminated"
    if not state["soul_deck"]:
        return "souls_exhausted"
    return None


def minority_faction(state: State) -> str | None:
    """The faction with fewer players for the end bonus (How to Play 9), or None when equal.

    Rulebook silent on which players count: option ``minority`` ``"dealt"`` (default: players
    dealt into the faction, so only 3- and 5-player games have one) or ``"surviving"`` (players
    still in the game at the end: a faction wiped out counts 0)."""
    players = state["players"]
    if state["options"]["minority"] == "surviving":
        players = [p for p in players if not p["eliminated"]]
    counts = Counter(p["faction"] for p in players)
    rebel, shadow = counts[REBEL], counts[SHADOW]
    if rebel == shadow:
        return None
    return REBEL if rebel < shadow else SHADOW


def score(state: State, bonus_faction: str | None, bonus: list[int]) -> dict:
    """Souls totalled per faction and the winner (How to Win: the faction with the most souls).

    Every soul a faction's players hold counts, eliminated players' too (rulebook silent), plus
    the minority bonus. A tie is settled by option ``tie_break``: ``"shared"`` (both factions
    share the victory: ``winner`` None), ``"survivors"`` (more players still in the game, else
    shared) or ``"health"`` (more health left in total, else shared). Returns ``{totals {faction:
    souls}, winner, settled_by "souls"|"survivors"|"health"|"shared"}``."""
    totals = {faction: 0 for faction in FACTIONS}
    for p in state["players"]:
        totals[p["faction"]] += sum(p["souls"])
    if bonus_faction:
        totals[bonus_faction] += sum(bonus)
    if totals[REBEL] != totals[SHADOW]:
        winner = REBEL if totals[REBEL] > totals[SHADOW] else SHADOW
        return {"totals": totals, "winner": winner, "settled_by": "souls"}
    rule = state["options"]["tie_break"]
    if rule in ("survivors", "health"):
        measure = {faction: 0 for faction in FACTIONS}
        for p in state["players"]:
            measure[p["faction"]] += (not p["eliminated"]) if rule == "survivors" else p["health"]
        if measure[REBEL] != measure[SHADOW]:
            winner = REBEL if measure[REBEL] > measure[SHADOW] else SHADOW
            return {"totals": totals, "winner": winner, "settled_by": rule}
    return {"totals": totals, "winner": None, "settled_by": "shared"}


def end_game(d: Decision, reason: str) -> None:
    """How to Play 9: the minority faction draws 2 more souls if any are left, then every faction
    and soul is revealed and the souls totalled per faction (final)."""
    s = d.state
    bonus_faction = minority_faction(s)
    bonus = list(s["soul_deck"][:2]) if bonus_faction else []
    d.emit(
        "espionage.game.ended",
        {
            "reason": reason,
            "factions": [p["faction"] for p in s["players"]],
            "souls": [list(p["souls"]) for p in s["players"]],
            "bonus_faction": bonus_faction,
            "bonus": bonus,
            **score(s, bonus_faction, bonus),
        },
        final=True,
    )


@end.evolver("espionage.game.ended", label="→ the game ended: all factions and souls revealed")
def _game_ended(s: State, e: EventRecord) -> None:
    data = e.data
    s["phase"] = "ended"
    s["duel"] = None
    s["soul_deck"] = s["soul_deck"][len(data["bonus"]) :]
    s["result"] = {
        "reason": data["reason"],
        "factions": list(data["factions"]),
        "souls": [list(x) for x in data["souls"]],
        "bonus_faction": data["bonus_faction"],
        "bonus": list(data["bonus"]),
        "totals": dict(data["totals"]),
        "winner": data["winner"],
        "settled_by": data["settled_by"],
    }


@end.narrator("espionage.game.ended")
def _say_game_ended(e: EventRecord, s: State) -> str:
    data = e.data
    why = (
        "a faction has been eliminated"
        if data["reason"] == "faction_eliminated"
        else "all soul cards have been drawn"
    )
    totals = data["totals"]
    verdict = (
        f"{FACTION_LABELS[data['winner']]} wins"
        if data["winner"]
        else "both factions share the victory"
    )
    return (
        f"Game over: {why}. Rebel {totals[REBEL]} souls, Shadow {totals[SHADOW]} souls: {verdict}."
    )
