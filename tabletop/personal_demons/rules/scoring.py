"""Scoring (rulebook "Scoring", "Score Courage", "End of Game", "Final scores" of the solo
meditation): points, seals scored, Knights, Courage, the winners and the solo rating."""

from __future__ import annotations

from tabletop.decider import Decision, Topic
from tabletop.rules import EventRecord

from . import board as B
from .state import State

scoring = Topic("scoring")

RATINGS = (
    (75, "Lacking focus"),
    (100, "Fine"),
    (125, "Good"),
    (150, "Great"),
    (175, "Amazing"),
    (201, "God-like"),
)


def solo_rating(score: int) -> str:
    """The solo meditation rating (rulebook "Final scores"). The table's ranges share their
    ends; read as: below 75, 75-99, 100-124, 125-149, 150-174, 175-200, above 200; exactly 66 is
    "Demonic"."""
    if score == 66:
        return "Demonic"
    for limit, label in RATINGS:
        if score < limit:
            return label
    return "Surely impossible?"


def courage_points(state: State, seat: int, cid: str) -> int:
    """Points a Courage card gives in the scoring phase (rulebook "Score Courage"): type cards
    count face-up cards of their type on top of the circle; Score Sins gives half the total sin,
    rounded down; others nothing."""
    effect = state["catalog"][cid]["effect"]
    p = state["players"][seat]
    if effect["kind"] == "type_score":
        seen = set()
        for layer in B.tops(p["board"]).values():
            for x in layer:
                if x["face_up"] and effect["type"] in state["catalog"][x["card"]]["types"]:
                    seen.add(x["pid"])
        return len(seen) * effect["points"]
    if effect["kind"] == "score_sins":
        return sum(p["sins"].values()) // 2
    return 0


def score_round(d: Decision) -> bool:
    """The scoring phase (rulebook "Scoring"): every active seal scores the cards it touches,
    Knights 3 (Fragment deck) or 6 (Royal deck), then Courage. After round III the game ends
    (highest score wins, ties share; solo: the rating). Returns True when the game ended."""
    s = d.state
    d.emit("pd.round.scoring", {"round": s["round"]})
    catalog = s["catalog"]
    for seat in range(len(s["players"])):
        p = s["players"][seat]
        for entry in B.seal_scores(p["board"], catalog, s["geometry"]):
            d.emit("pd.seal.scored", {"seat": seat, **entry})
        knights = sum(
            6 if catalog[x["card"]]["deck"] == "royal" else 3
            for x in p["board"]["placements"]
            if "Knight" in catalog[x["card"]]["types"]
        )
        if knights:
            d.emit(
                "pd.score.gained",
                {"seat": seat, "points": knights, "reason": "Knights", "scoring": True},
            )
        for cid in p["courage"]:
            points = courage_points(s, seat, cid)
            if points:
                d.emit(
                    "pd.score.gained",
                    {
                        "seat": seat,
                        "points": points,
                        "reason": catalog[cid]["name"],
                        "scoring": True,
                    },
                )
    if s["round"] < 3:
        return False
    scores = [p["score"] for p in s["players"]]
    best = max(scores)
    winners = [i for i, v in enumerate(scores) if v == best]
    rating = solo_rating(scores[0]) if s["solo"] else None
    d.emit("pd.game.ended", {"scores": scores, "winners": winners, "rating": rating})
    return True


@scoring.evolver("pd.score.gained", label="scored")
def _score_gained(s: State, e: EventRecord) -> None:
    d = e.data
    p = s["players"][d["seat"]]
    p["score"] += d["points"]
    if d.get("scoring"):
        p["scoring"].append({"reason": d["reason"], "points": d["points"]})


@scoring.evolver("pd.seal.scored", label="scored a seal")
def _seal_scored(s: State, e: EventRecord) -> None:
    d = e.data
    p = s["players"][d["seat"]]
    for seal in p["board"]["seals"]:
        if seal["sid"] == d["sid"]:
            seal["active"] = False
    p["score"] += d["points"]
    p["scoring"].append(
        {
            "reason": f"seal at {d['point'][0]},{d['point'][1]}",
            "points": d["points"],
            "card_values": d["values"],
        }
    )


@scoring.evolver("pd.round.scoring", label="began the scoring phase")
def _round_scoring(s: State, e: EventRecord) -> None:
    for p in s["players"]:
        p["scoring"] = []
    s["phase"] = "scoring"
    s["step"] = "scoring"


@scoring.evolver("pd.game.ended", label="ended the ritual")
def _game_ended(s: State, e: EventRecord) -> None:
    s["phase"] = "over"
    s["step"] = "over"
    s["winners"] = e.data["winners"]
    s["rating"] = e.data.get("rating")


@scoring.narrator("pd.game.ended")
def _say_game_ended(e: EventRecord, s: State) -> str:
    names = [s["players"][i]["name"] for i in e.data["winners"]] if s.get("players") else []
    scores = ", ".join(str(x) for x in e.data["scores"])
    rating = f" Rating: {e.data['rating']}." if e.data.get("rating") else ""
    return f"The ritual is over (scores {scores}): {' and '.join(names) or 'nobody'} won.{rating}"
