"""Declared shapes of the DemLoc mission: the game state and the payload of every event.

Pure data (JSON-shaped ``TypedDict`` s, no behaviour). The state is *game state only*: no prose
(log lines are narrated from the events, ``missions.rules.common``), so it does not grow with
the number of commands. Event payloads keep the meaning they have always had
(stored tables replay): a shot, a fight and an ability test carry the numbers they were
worked out from (their narrators word them); events stored before carry the calculators'
arithmetic as ``lines`` (what the players confirmed), and those still read as stored.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class Mana(TypedDict):
    common: int
    dark: int


class Piece(TypedDict, total=False):
    """A character in play: its card (``missions.rules.cards``) plus live state
    (``missions.rules.damage.new_piece``)."""

    id: str
    name: str
    kind: str  # mercenary | follower | daemon
    level: int
    armor: int
    impact: int
    hit: int
    move: int
    h2h: int
    h2h_bonus: int
    ranged: int
    ranged_bonus: int
    arcane: int
    favourite: str | None
    weapons: list[dict[str, Any]]
    features: list[str]
    code: dict[str, Any] | None  # the code in hand
    codes: list[dict[str, Any]]  # every Arcane Code held (5.1.5)
    abilities: list[dict[str, Any]]  # every personal ability with its fate cost (5.1.1)
    assigned: bool  # a daemon given its code and dice (7.2.3.2)
    kabbalah: str | None
    owner: int
    armor_damage: int
    hit_damage: int
    broken_armor: int
    broken_hearts: int
    heart_limit: int
    seals: int
    bleeding: int
    poison: int
    movement: str  # active | exhausted
    vigor: int
    weakness: int
    mana: Mana
    lost_dice: int
    possessed: bool
    fury: int
    summoning: str | None
    summoner: str | None
    asset: str  # standard | post_summoning
    status: str  # in_play | killed | escaped | dismissed
    token: int | None
    enters: int
    area: str
    activated: str  # "turn:phase" of its last activation (missions.rules.activation)
    struck: str  # "turn:phase" its summoning pentacle last struck in (8.3)
    arcane_effects: list[dict[str, Any]]  # arcane effect tokens (arcane.lasting)
    possession: dict[str, str] | None  # {"source", "instructions"}: possessed by a card
    relics: int  # relic tokens carried (7.2.1: only a mercenary's count)
    dignitary: bool  # cannot escape (7.2.1)
    object_turn: int  # the turn it picked up or put down an object (7.2.1: no shot nor power)


class Player(TypedDict, total=False):
    seat: int
    name: str
    guild: str
    fate: int
    pantheon: list[dict[str, Any]]
    kills: dict[str, dict[str, int]]  # kind -> level (str) -> count
    relics: int


class Objective(TypedDict):
    target: int  # turns to hold (0: no control objective)
    count: int
    counting: bool
    seat: int | None


class _Ended(TypedDict):
    reason: str  # turn_limit | objective | objective_control | surrender | elimination
    seat: int | None


class Ended(_Ended, total=False):
    by: int  # surrender: the seat that asked to stop first (option ``surrender``, 7.3.2.3)


class Notice(TypedDict, total=False):
    """What the table must do now, as data (the view words it): ``kind`` ``wave`` (``turn``,
    ``pieces``), ``stray`` (``ooc``; and since the shooter's phone lands on it, ``shooter``,
    ``target`` and ``at``: the version of the stray shot), ``replaced`` (``daemon``,
    ``old_owner``, ``new_owner``)."""

    kind: str
    turn: int
    pieces: list[str]
    ooc: dict[str, Any]
    shooter: str
    target: str
    at: int
    daemon: str
    old_owner: int
    new_owner: int


class Claim(TypedDict):
    """An "Objective achieved" claim waiting for the other players (7.3.2.3)."""

    seat: int
    turn: int
    agreed: list[int]


class MissionEventDone(TypedDict, total=False):
    """A scripted mission event that happened (6.4.2): the definition's entry and its turn."""

    turn: int
    kind: str  # objective | turn_limit | area_closed | reinforcements | rule
    text: str
    objective: str
    turn_limit: int
    area: str


class EventNotice(TypedDict):
    turn: int
    events: list[MissionEventDone]


class DemlocState(TypedDict, total=False):
    """The projection of a DemLoc table (``DemlocRuleset.initial_state``): the type of every
    fold's and narrator's state. Its keys and their types are checked (mypy, ``make lint``),
    and so are those of a player, the objective, a claim, the ending, the notices and the
    mission events (the TypedDicts above). A piece is held as a plain dict, whose keys
    ``Piece`` names, because the calculators (``missions.rules.damage``...) take and return
    plain dicts."""

    version: int  # the version of the last event folded (``DemlocRuleset.holds``)
    options: dict[str, str]
    players: list[Player]
    pieces: dict[str, dict[str, Any]]  # Piece
    order: list[str]
    turn: int
    phase: str  # strategic | brawl | end
    first: int | None
    previous_first: int | None
    play_order: list[int]
    acting_index: int
    weights: list[int]
    objective: Objective
    turn_limit: int
    turn_limit_hidden: bool  # 7: the number of turns is not shown
    surrender: list[int]
    surrender_by: int | None  # the first seat that agreed to stop this turn (7.3.2.3)
    claim: Claim | None  # an objective claim waiting for the others (7.3.2.3)
    elimination: int | None  # a seat; -1 nobody left; -2 one of 3-4 players wiped out
    elimination_since: int | None  # the turn the elimination was first seen
    ended: Ended | None
    closed_turn: int  # the last turn whose end-of-turn effects were applied (once each)
    pending: dict[str, Any] | None  # the proposal of a calculator (shot.proposed/brawl.proposed)
    notice: Notice | None
    mission_events: list[MissionEventDone]  # scripted events that happened (6.4.2)
    event_notice: EventNotice | None  # this turn's mission events (the turn bar notice)
    closed_areas: list[str]  # deployment areas a mission event closed
    objective_text: str | None  # the objective as a mission event changed it
    daemon_seq: int
    last_power: dict[str, Any] | None  # the last arcane power and what it changed (7.2.3.5)
    last_test: dict[str, Any] | None  # the last arcane test and its outcome (7.2.3.5)
    ooc: dict[str, dict[str, Any]]  # this turn's out-of-control rolls (possessed pieces, 7.2.3)
    setup: dict[str, Any] | None  # the preparation phases (missions.rules.setup)
    closed: dict[str, Any] | None
    left: list[int]  # the seats whose Guild left the mission (missions.rules.leave)


# ---------------------------------------------------------------------------- event payloads
class MissionOpened(TypedDict):
    options: dict[str, str]
    players: list[dict[str, Any]]
    pieces: list[dict[str, Any]]  # {"card", "owner", "mana"?, "token"?, "enters"?, "area"?}


class TurnStarted(TypedDict):
    turn: int
    first: int
    weights: list[int]
    ooc: dict[str, dict[str, Any]]  # piece id -> out-of-control roll (possessed pieces)
    seats: list[int]  # the seats drawn among (older events lack it), ``weights`` in that order


class TurnEnded(TypedDict):
    turn: int  # the turn closed: its end-of-turn effects (missions.rules.turns._end_of_turn)


class PhaseAdvanced(TypedDict, total=False):
    phase: str
    acting_index: int
    turn: int  # since the toolkit move; older events lack it (then the state's turn is used)
    passed: int  # the seat whose turn it was (older events lack it: the seat that tapped)
    acts: int  # the seat that acts next (older events lack it: today's play order is read)


class DamageAssigned(TypedDict):
    piece: str
    amount: int
    mode: str  # general | hit


class DamageRemoved(TypedDict):
    piece: str
    amount: int
    step: str  # armor | hit


class TokensAdjusted(TypedDict):
    piece: str
    token: str
    delta: int


class MovementSet(TypedDict):
    piece: str
    state: str


class ManaAdjusted(TypedDict):
    piece: str
    colour: str
    delta: int


class ManaChannelled(TypedDict, total=False):
    piece: str
    common: int
    dark: int
    seals: int
    setup: bool
    daemon_left: bool


class PowerUsed(TypedDict):
    piece: str
    power: int
    target: str
    extra: Mana


class PentacleStruck(TypedDict):
    piece: str
    targets: list[str]
    effects: list[str]


class EffectSet(TypedDict):
    piece: str
    effect: str  # fury | vigor | weakness
    value: int


class AbilityUsed(TypedDict):
    piece: str
    ability: int
    fate: int
    seat: int  # the player who pays


class DaemonAssigned(TypedDict):
    piece: str
    code: dict[str, Any]
    common: int
    dark: int
    seals: int


class PieceEscaped(TypedDict):
    piece: str


class AbilityRoll(TypedDict):
    """An ability test an event carries (7.2.1, ``missions.rules.shooting.record_test``): the
    d6 rolled, what is added after the fate points, the factor tested."""

    roll: int
    modifier: int
    ability: int


class ShotProposed(TypedDict):
    kind: str  # "shot"
    by: int
    shooter: str
    target: str
    weapon: int
    fate: int
    positioned: bool
    outcome: str  # none | armor | hit
    damage: int
    test: NotRequired[AbilityRoll | None]  # None: a stray shot on its new target (5.6)
    steps: NotRequired[dict[str, Any]]  # missions.rules.shooting.shot_steps
    lines: NotRequired[list[str]]  # instead of test and steps in events stored before them


class ShotStrayed(TypedDict):
    shooter: str
    target: str
    fate: int
    test: NotRequired[AbilityRoll]
    lines: NotRequired[list[str]]  # instead of test in events stored before it
    ooc: dict[str, Any]


class BrawlProposed(TypedDict):
    kind: str  # "brawl"
    by: int
    attacker: str
    defender: str
    winner: str | None
    difference: int
    damage: int
    broken_hearts: int
    steps: NotRequired[dict[str, Any]]  # missions.rules.brawl.brawl_steps
    lines: NotRequired[list[str]]  # instead of steps in events stored before them


class CalcApplied(TypedDict):
    kind: str


class ArcaneTested(TypedDict):
    piece: str
    target: str | None
    purpose: str  # free | defend | cancel | other
    fate: int
    passed: bool
    test: NotRequired[AbilityRoll]
    lines: NotRequired[list[str]]  # instead of test in events stored before it


class HandTested(TypedDict):
    piece: str
    purpose: str  # evasive | scenery
    fate: int
    passed: bool
    test: NotRequired[AbilityRoll]
    lines: NotRequired[list[str]]  # instead of test in events stored before it


class DaemonSummoned(TypedDict):
    summoner: str
    daemon: dict[str, Any]
    id: str
    hearts: int
    kabbalah: str
    level: int
    drawn_level: int
    replaced: str | None


class ObjectiveCounting(TypedDict):
    seat: int
    counting: bool


class SurrenderVoted(TypedDict):
    agree: bool


class MissionEnded(TypedDict):
    reason: str
    seat: int | None


class MissionClosed(TypedDict):
    result: dict[str, Any]


class FateChanged(TypedDict):
    amount: int
    reason: str


class _KillCounted(TypedDict):
    kind: str
    level: int
    delta: int


class KillCounted(_KillCounted, total=False):
    """A kill on a player's counter: tapped ("Count a kill": the acting seat's counter), or
    counted by the app with the attack that killed (``missions.rules.score.credit_kills``):
    then ``seat`` (whose counter), ``piece`` (the killed character) and ``by`` (the killer)."""

    seat: int
    piece: str
    by: str


class RelicTaken(TypedDict):
    delta: int
