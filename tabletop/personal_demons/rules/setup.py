"""Setup (rulebook "Setup" A-L; "Solo Meditation" A-J): the table options, the deal, and each
player's Fear and two kept Personal Demons."""

from __future__ import annotations

from typing import Any

from tabletop.decider import Data, Decision
from tabletop.rules import EventRecord, require

from . import board as B
from .common import DIFFICULTIES, SINS, AppTopic, need, read_space
from .content import DECKS, build_catalog, default_geometry, demo_cards
from .decks import draw
from .sins import MORE_SINS
from .state import Player, State

setup = AppTopic("setup")

OPTIONS_SCHEMA: dict[str, dict[str, Any]] = {
    "table": {
        "label": "Cards",
        "choices": [
            ["app", "On the phones: the app deals and referees"],
            ["physical", "Real cards: the app keeps cadence, sins, Courage, score"],
        ],
        "default": "app",
        "help": "With real cards each player lays out their own circle at the table.",
    },
    "difficulty": {
        "label": "Solo difficulty",
        "choices": [
            ["angelic", "Angelic (draw 3)"],
            ["human", "Human (draw 2)"],
            ["devilish", "Devilish (draw 1)"],
        ],
        "default": "human",
        "help": "Only for a game with one player (solo meditation).",
    },
    "advanced": {
        "label": "Advanced colossal cards",
        "choices": [["no", "Leave them out"], ["yes", "Include them"]],
        "default": "no",
        "help": "Colossal cards marked Advanced are not recommended for a first game.",
    },
    "more_sins": {
        "label": "More Sins (Courage)",
        "choices": [
            ["single", "+1 only when you gain exactly one sin"],
            ["type", "+1 whenever you gain sin of one type"],
        ],
        "default": "single",
        "help": "FAQ: it 'only triggers when you gain a single sin at one time' (never of Hell).",
    },
}


def new_player(name: str) -> Player:
    """A player before setup: empty circle, sins 0, score 0 (rulebook "Setup" D-F)."""
    return {
        "name": name,
        "hand": [],
        "candidates": [],
        "personal": [],
        "courage": [],
        "board": B.empty_board(),
        "sins": {s: 0 for s in SINS},
        "score": 0,
        "setup_done": False,
        "placed": None,
        "reveal": None,
        "bonus": None,
        "drawn": None,
        "keeper": None,
        "scoring": [],
        "offers": [],
    }


def filled_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """The table options with defaults. Raises ``RuleViolation("bad_option")``."""
    out = {k: (options or {}).get(k, v["default"]) for k, v in OPTIONS_SCHEMA.items()}
    for key, spec in OPTIONS_SCHEMA.items():
        require(
            out[key] in [c[0] for c in spec["choices"]],
            "bad_option",
            f"Unknown choice for {spec['label']}.",
        )
    assert out["difficulty"] in DIFFICULTIES and out["more_sins"] in MORE_SINS
    return out


def deal(
    d: Decision, options: dict[str, Any], names: list[str], content: dict[str, Any] | None
) -> None:
    """Setup A-L into ``d`` (a Decision on the initial state): the catalog of ``content``
    (``{"cards": [...], "geometry": {...}}``, gathered by the app's content provider; the demo
    set and the default circle when absent), Advanced colossal cards left out unless chosen,
    the Leader drawn (L), then per seat a Courage card (G), a Fear (H), two hefty and two
    colossal cards to choose from (J) and, with 2-4 players, six Round I cards (K). Raises
    ``RuleViolation("bad_card")`` for bad content."""
    content = content or {}
    cards = [
        c
        for c in (content.get("cards") or demo_cards())
        if options["advanced"] == "yes" or not c.get("advanced")
    ]
    solo = len(names) == 1
    d.emit(
        "pd.game.started",
        {
            "catalog": build_catalog(cards),
            "geometry": content.get("geometry") or default_geometry(),
            "options": options,
            "seats": names,
            "solo": solo,
            "leader": 0 if solo else d.rng.randbelow(len(names)),
        },
    )
    for seat in range(len(names)):
        d.emit(
            "pd.cards.dealt",
            {"seat": seat, "to": "courage", "cards": draw(d, "courage")},
            final=True,
        )
        d.emit("pd.cards.dealt", {"seat": seat, "to": "fear", "cards": draw(d, "fear")}, final=True)
        big = draw(d, "hefty", 2) + draw(d, "colossal", 2)
        d.emit("pd.cards.dealt", {"seat": seat, "to": "candidates", "cards": big}, final=True)
        if not solo:
            d.emit(
                "pd.cards.dealt",
                {"seat": seat, "to": "hand", "cards": draw(d, "round1", 6)},
                final=True,
            )


@setup.evolver("pd.game.started", label="began the ritual")
def _started(s: State, e: EventRecord) -> None:
    catalog = e.data["catalog"]
    s.clear()  # type: ignore[attr-defined]
    s.update(
        {
            "phase": "setup",
            "catalog": catalog,
            "geometry": e.data["geometry"],
            "options": e.data["options"],
            "solo": e.data["solo"],
            "leader": e.data["leader"],
            "round": 1,
            "turn": 0,
            "step": "setup",
            "bonus_order": [],
            "players": [new_player(n) for n in e.data["seats"]],
            "decks": {
                deck: sorted(cid for cid, c in catalog.items() if c["deck"] == deck)
                for deck in DECKS
            },
            "discards": {"royal": [], "fragment": [], "courage": []},
            "out": [],
            "winners": [],
            "rating": None,
        }
    )


@setup.command("pd.setup.choose")
def choose(d: Decision, data: Data) -> None:
    """Steps H and J: ``{"fear_space": [r, c], "keep": [id, id]}``: place the Fear in one of
    the 16 spaces and keep two of the four hefty/colossal cards, secretly. Raises
    ``RuleViolation`` ``wrong_step``, ``already_done``, ``keep_two``, ``bad_space``,
    ``off_circle``."""
    need(d.state, "setup")
    p = d.state["players"][d.seat]
    require(not p["setup_done"], "already_done", "You have already set up your circle.")
    keep = data.list("keep", max_items=4, default=[], code="keep_two")
    require(
        len(keep) == 2 and len(set(keep)) == 2 and all(k in p["candidates"] for k in keep),
        "keep_two",
        "Keep exactly two of your four hefty/colossal cards.",
    )
    space = read_space(data, "fear_space")
    require(
        0 <= space[0] < 4 and 0 <= space[1] < 4,
        "off_circle",
        "The Fear goes in one of the 16 spaces.",
    )
    d.emit("pd.setup.done", {"seat": d.seat, "fear_space": space, "keep": keep})


@setup.evolver("pd.setup.done", label="placed a Fear and chose Personal Demons")
def _setup_done(s: State, e: EventRecord) -> None:
    p = s["players"][e.data["seat"]]
    keep = list(e.data["keep"])
    s.setdefault("out", []).extend(
        c for c in p["candidates"] if c not in keep
    )  # back to the box (J)
    p["personal"] = keep
    p["candidates"] = []
    p["setup_done"] = True
    fear = p.pop("fear_card", None)
    if fear is not None:
        put(p["board"], fear, "regular", [e.data["fear_space"]], None, True, fear=True)


def put(
    board: Any,
    card: str,
    size: str,
    spaces: list,
    half: str | None,
    face_up: bool,
    fear: bool = False,
) -> str:
    """Add a placement on top of ``board`` (a fold helper); returns its pid."""
    pid = f"p{board['next']}"
    board["next"] += 1
    board["placements"].append(
        {
            "pid": pid,
            "card": card,
            "size": size,
            "spaces": [list(x) for x in spaces],
            "half": half,
            "face_up": face_up,
            "fear": fear,
        }
    )
    return pid
