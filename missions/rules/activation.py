"""Activations: a character is activated once per game phase (DemLoc rulebook 7.2: "once a
character has been activated it cannot be activated again until the next game phase (Brawls
phase)"; 7.3: "once a character has been activated it cannot be activated again until the next
game phase. Each activated character can respectively move and/or make one hand-to-hand
attack"). Pure helpers, no commands: the commands that activate a character check
``require_free`` and their folds call ``mark``.

What activates: in the strategic phase a shot (a stray shot is the same
activation going on), channelling mana (not in the setup nor as a daemon leaves), using an
arcane power, summoning a daemon, the hand-to-hand test of an evasive movement; in the brawl
phase a hand-to-hand attack or the test to destroy scenery. Movement alone is the movement
token's business (``demloc.movement.set``); the arcane test is not an activation (7.2.3.5: "even
while the opponent is playing"), nor are the pentacle's strikes (7.2.3.2: the summoner "can
only apply the effects of the summoning pentacles").

The table option ``activations`` (``"once"``, the default, or ``"free"``) turns the check off;
a table opened before the option existed is ``"free"``. The mark is kept either way, so the
page can show who has acted.
"""

from __future__ import annotations

from tabletop.decider import Decision

from .common import TURN_END
from .state import DemlocState


def phase_key(state: DemlocState) -> str:
    """``"turn:phase"``: the game phase an activation belongs to."""
    return f"{state['turn']}:{state['phase']}"


def is_activated(state: DemlocState, p: dict) -> bool:
    """Whether ``p`` was activated in the current phase."""
    return state["phase"] != TURN_END and p.get("activated") == phase_key(state)


def tracked(state: DemlocState) -> bool:
    """Whether the table checks activations (option ``activations``)."""
    return state["options"].get("activations", "free") == "once"


def activated_words(state: DemlocState, p: dict, what: str) -> str | None:
    """Why ``p`` may not ``what`` now because it was already activated this phase (7.2, 7.3),
    or None: the refusal of ``require_free`` and the reason the page gives beside the
    disabled button (``missions.rules.view``)."""
    if tracked(state) and is_activated(state, p):
        return (f"{p['name']} was already activated this phase (7.2): it cannot {what} until "
                "the next phase.")
    return None


def turn_over_words(state: DemlocState, p: dict, what: str) -> str | None:
    """Why ``p`` may not ``what`` (shoot, attack, channel mana, use an arcane power, summon a
    daemon) now because the turn is over, or None: 7.3.2.3 "When all players have finished
    their brawl phase, the turn is over"; what is left is Next turn, or the end of the game
    after the last one (found by a new user: a fight worked out and applied after the last
    turn was written into the Guilds). Checked whatever the ``activations`` option; damage and
    tokens by hand stay open for corrections. The refusal of ``require_turn_on`` and the
    reason the page gives beside the disabled button (``missions.rules.view``)."""
    if state["phase"] != TURN_END:
        return None
    limit = state.get("turn_limit")
    if limit and state["turn"] >= limit:
        return (f"Turn {state['turn']} was the last (7.3.2.3): {p['name']} cannot {what}; "
                "end the game.")
    return (f"Turn {state['turn']} is over (7.3.2.3): {p['name']} cannot {what} until the "
            "next turn.")


def require_turn_on(state: DemlocState, p: dict, what: str) -> None:
    """Refuse ``what`` once the turn is over (``turn_over_words``). Raises
    ``RuleViolation("turn_over")``."""
    words = turn_over_words(state, p, what)
    Decision.require(words is None, "turn_over", words or "")


def arcane_choice_words(state: DemlocState) -> str:
    """What the Arcane section of a sheet says before its first button (7.2.3: "The player can
    make the activated character perform one of the following actions: Channeling mana; Using
    an arcane power; Summoning a daemon"; 7.2.3.5: the arcane test is apart, with a die of the
    mana pool): channelling, a power and a summon are three choices, not steps, when the table
    checks activations; "" when it does not (option ``activations`` ``"free"``)."""
    if not tracked(state):
        return ""
    return ("One per activation (7.2.3): Channel, Use a power or Summon. Channelling is this "
            "phase's activation: its mana pays a power or a summon in a later phase. The arcane "
            "test is no activation; it spends one die of the mana pool (7.2.3.5).")


def channel_first_words(state: DemlocState) -> str:
    """The end of a "not enough mana" refusal: channel first, and when the table checks
    activations, that channelling is itself the activation of its phase (7.2.3), so the mana
    is spent in a later phase."""
    if tracked(state):
        return "channel first (Channel is an activation of its own, 7.2.3: use it in a later phase)"
    return "channel first"


def require_free(state: DemlocState, p: dict, what: str) -> None:
    """Refuse ``what`` for a character already activated this phase (7.2, 7.3).
    Raises ``RuleViolation("already_activated")``."""
    words = activated_words(state, p, what)
    Decision.require(words is None, "already_activated", words or "")


def mark(state: DemlocState, pid: str) -> None:
    """Mark the piece ``pid`` activated in the current phase."""
    p = state["pieces"].get(pid)
    if p is not None:
        p["activated"] = phase_key(state)


def object_words(state: DemlocState, p: dict, what: str) -> str | None:
    """Why ``p`` may not ``what`` (shoot, use an arcane power) this turn because it picked up
    or put down an object (7.2.1), or None: ``require_no_object``'s refusal and the page's
    reason beside the disabled button."""
    if p.get("object_turn") == state["turn"]:
        return (f"{p['name']} picked up or put down an object this turn (7.2.1): it cannot "
                f"{what} until the next turn.")
    return None


def require_no_object(state: DemlocState, p: dict, what: str) -> None:
    """Refuse a shot or an arcane power of a character that picked up or put down an object
    this turn (7.2.1: "A character who picks up or deposits an object can not make ranged
    attacks or use arcane powers that turn"). Checked whatever the ``activations`` option: it
    is a rule of its own. Raises ``RuleViolation("object_taken")``."""
    words = object_words(state, p, what)
    Decision.require(words is None, "object_taken", words or "")


def mark_object(state: DemlocState, pid: str) -> None:
    """The piece ``pid`` picked up or put down an object this turn (7.2.1)."""
    p = state["pieces"].get(pid)
    if p is not None:
        p["object_turn"] = state["turn"]
