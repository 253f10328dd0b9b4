"""Helpers to drive the Personal Demons rules without a database (tests only)."""

from __future__ import annotations

import random

from tabletop.dice import make_dice
from tabletop.errors import RuleViolation
from tabletop.personal_demons.rules import PersonalDemonsRuleset
from tabletop.personal_demons.rules import board as B
from tabletop.personal_demons.rules import engine as E
from tabletop.rules import Command, EventRecord, SeatInfo

NAMES = ["Ann", "Ben", "Cat", "Dan"]


class Game:
    """A game folded event by event; ``records`` is the log, ``state`` the incremental state."""

    def __init__(
        self,
        players: int = 2,
        seed: int = 1,
        options: dict | None = None,
        ruleset: PersonalDemonsRuleset | None = None,
    ) -> None:
        self.rs = ruleset or PersonalDemonsRuleset()
        self.seed = seed
        self.calls = 0
        self.records: list[EventRecord] = []
        self.state = self.rs.initial_state()
        seats = tuple(SeatInfo(i, NAMES[i]) for i in range(players))
        self._append(self.rs.setup(options or {}, seats, make_dice(seed)), None)

    def _append(self, events, seat) -> None:
        for e in events:
            record = EventRecord(e.type, e.data, seat, len(self.records) + 1)
            self.records.append(record)
            self.state = self.rs.evolve(self.state, record)

    def cmd(self, seat: int, type_: str, **data):
        """Run one command for ``seat``; returns its events. Raises ``RuleViolation``."""
        self.calls += 1
        events = self.rs.decide(
            self.state, Command(type_, data), seat, make_dice(f"{self.seed}-{self.calls}")
        )
        self._append(events, seat)
        return events

    def p(self, seat: int) -> dict:
        return self.state["players"][seat]

    def view(self, seat):
        return self.rs.view(self.state, seat)


def bot_command(state: dict, seat: int, rnd: random.Random):
    """A random legal-looking command for ``seat`` or None when it has nothing to do."""
    p = state["players"][seat]
    cards = state["catalog"]
    if state["phase"] == "setup":
        if p["setup_done"]:
            return None
        return "pd.setup.choose", {
            "fear_space": [rnd.randrange(4), rnd.randrange(4)],
            "keep": rnd.sample(p["candidates"], 2),
        }
    if len(p["courage"]) > 3:
        return "pd.courage.discard", {"cards": [rnd.choice(p["courage"])]}
    if p["keeper"] is not None:
        return "pd.keeper.keep", {"keep": [x for x in p["keeper"] if rnd.random() < 0.5]}
    if p["drawn"]:
        options = E._drawn_options(state, seat)
        if not options:
            return "pd.drawn.discard", {}
        space, half = rnd.choice(options)
        return "pd.drawn.place", {
            "space": space,
            "half": half,
            "wild_colour": rnd.choice(B.COLOURS),
        }
    if state["phase"] != "summoning":
        return None
    if state["step"] == "place" and not p["placed"]:
        regular = {"id": "?", "size": "regular", "deck": "round1", "sigils": [None] * 4}
        spaces = [a for a, _ in B.legal_anchors(p["board"], cards, regular, face_up=False)]
        return "pd.card.place", {"card": rnd.choice(p["hand"]), "space": rnd.choice(spaces)}
    if state["step"] == "reveal" and not p["reveal"]:
        card = B.placement_by_pid(p["board"], p["placed"])["card"]
        if E.can_summon(state, seat, card) and rnd.random() < 0.85:
            return "pd.card.reveal", {"face_up": True, "wild_colour": rnd.choice(B.COLOURS)}
        return "pd.card.reveal", {
            "face_up": False,
            "seal_colour": rnd.choice(B.COLOURS),
            "sin": rnd.choice(E.SINS),
        }
    if state["step"] == "bonus":
        opts = E.bonus_options(state, seat)
        if not opts["my_turn"] or opts["status"]:
            return None
        choices = [("pd.bonus.decline", {})]
        if opts["fear"] and rnd.random() < 0.3:
            choices.append(("pd.bonus.face_fear", {"wild_colour": "red"}))
        if opts["fragment"]:
            choices.append(("pd.bonus.fragment", {"sin": rnd.choice(opts["sins_for"]["2"])}))
        if opts["royal"]:
            choices.append(("pd.bonus.royal", {"sin": rnd.choice(opts["sins_for"]["4"])}))
        for cid in opts["personal"]:
            card = cards[cid]
            anchors = [a for a, _ in B.legal_anchors(p["board"], cards, card, face_up=True)]
            named = card["cost"]["sin"] if card["deck"] == "colossal" else None
            sin = named or rnd.choice(opts["sins_for"]["6"])
            choices.append(
                (
                    "pd.bonus.personal",
                    {"card": cid, "space": rnd.choice(anchors), "sin": sin, "wild_colour": "blue"},
                )
            )
        return rnd.choice(choices)
    return None


def play_random(
    players: int, seed: int, options: dict | None = None, max_commands: int = 2000
) -> Game:
    """Play a whole game with random legal commands."""
    game = Game(players, seed, options)
    rnd = random.Random(seed)
    for _ in range(max_commands):
        if game.state["phase"] == "over":
            return game
        moves = [(s, bot_command(game.state, s, rnd)) for s in range(players)]
        moves = [(s, m) for s, m in moves if m]
        assert moves, f"stuck: {game.state['phase']} {game.state['step']}"
        seat, (type_, data) = rnd.choice(moves)
        try:
            game.cmd(seat, type_, **data)
        except RuleViolation as exc:
            raise AssertionError(
                f"bot move {type_} {data} refused: {exc.code} {exc.message}"
            ) from exc
    raise AssertionError("game did not end")
