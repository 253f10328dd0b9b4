"""The hand-to-hand test outside a fight: the command ``demloc.hand.test``, its event and fold.
DemLoc rulebook 7.2.1 ("Evasive movement", the ability test and fate points) and 7.3.2
("Details: destroying scene elements", +2 as the table option ``hand_test`` reads it). The
fight itself is ``missions.rules.brawl``.
"""

from __future__ import annotations

from tabletop.decider import Data, Decision, Topic, say
from tabletop.errors import RuleViolation
from tabletop.rules import EventRecord

from . import activation
from .brawl import h2h_ability
from .common import (
    BRAWL,
    STRATEGIC,
    fate_amount,
    num,
    own_piece,
    piece_name,
    play_command,
    player,
)
from .shooting import ability_test, record_test, tested_words
from .state import DemlocState

hand = Topic("hand")

#: The purposes of a hand-to-hand test outside a fight and the phase each belongs to.
HAND_TESTS = {"evasive": STRATEGIC, "scenery": BRAWL}


def hand_test_modifier(rule: str) -> tuple[int, int]:
    """``(added to the roll, added to the ability)`` of the test to destroy scenery (7.3.2
    "Details: destroying scene elements": "test his character's hand-to-hand ability, adding +2
    to the result obtained by rolling the die"), as the table option ``hand_test`` reads it:
    ``"bonus"`` (default) a help like ``free_possessed``; ``"penalty"`` +2 on the die."""
    return (2, 0) if rule == "penalty" else (0, 2)


def hand_test_best_roll(ability: int, rule: str) -> int:
    """The highest d6 (before fate points) that passes the scenery test for hand-to-hand
    ``ability`` under the option ``hand_test`` (7.3.2); 0: no roll can (the page says so)."""
    roll_mod, ability_mod = hand_test_modifier(rule)
    return max(0, min(6, ability + ability_mod - roll_mod))


def hand_test_refusal(state: DemlocState, p: dict, purpose: str) -> RuleViolation | None:
    """The first rule a hand-to-hand test of ``p`` for ``purpose`` breaks now, as the refusal
    to raise (its code and message), or None: the check of ``demloc.hand.test`` and of the page, which disables its
    Test with this reason beside it (``missions.rules.view``): possessed (7.2.3), the phase
    (7.2.1, 7.3.2), an exhausted movement token for an evasive movement (7.2.1), already
    activated this phase (7.2)."""
    if p["possessed"]:
        return RuleViolation("possessed", "A possessed character cannot act (7.2.3).")
    if state["phase"] != HAND_TESTS[purpose]:
        return RuleViolation("wrong_phase", (
            "An evasive movement is made in the free movement sub-phase (7.2.1)."
            if purpose == "evasive"
            else "Scenery is destroyed in the brawl phase, instead of an attack (7.3.2)."))
    if purpose == "evasive" and p["movement"] != "active":
        return RuleViolation(
            "not_active",
            "An evasive movement spends movement points: the token must be active (7.2.1).",
        )
    words = activation.activated_words(state, p, "make this test")
    return RuleViolation("already_activated", words) if words else None


@play_command(hand, "demloc.hand.test")
def hand_test(d: Decision, data: Data) -> None:
    """``{"piece", "purpose": evasive | scenery, "roll": 1..6, "fate": 0..6}``: a test of the
    hand-to-hand ability outside a fight (7.2.1 ability test, fate points lower the roll):

    - ``evasive`` (7.2.1 "Evasive movement": "used exclusively during the free movement
      sub-phase to move a character engaged ... If the test is passed, the player can spend the
      movement points"): strategic phase, movement token active; it activates the character.
    - ``scenery`` (7.3.2 "destroying scene elements", barrels and fences in its control zone,
      "instead of making his hand-to-hand attack"): brawl phase, +2 (option ``hand_test``);
      passed, the player removes the element. It is the character's activation of the phase.

    The ability is the one of this turn (VIGOR/WEAKNESS). Raises ``bad_input``, ``possessed``,
    ``wrong_phase``, ``not_active``, ``already_activated``, ``not_enough_fate``, ``bad_roll``."""
    p = own_piece(d, data)
    purpose = data.choice(
        "purpose",
        tuple(HAND_TESTS),
        code="bad_input",
        message="A hand-to-hand test is for an evasive movement or to destroy scenery.",
    )
    refusal = hand_test_refusal(d.state, p, purpose)
    if refusal is not None:
        raise refusal
    fate = fate_amount(d, data, "fate", p["owner"], least=0, most=6)
    roll_mod, ability_mod = (
        hand_test_modifier(d.state["options"].get("hand_test", "bonus"))
        if purpose == "scenery"
        else (0, 0)
    )
    test = ability_test(
        num(data, "roll", None), h2h_ability(p) + ability_mod, fate, roll_mod, name="Hand-to-hand"
    )
    d.emit(
        "demloc.hand.tested",
        {
            "piece": p["id"],
            "purpose": purpose,
            "fate": fate,
            "passed": test.passed,
            "test": record_test(test),
        },
    )


def _hand_outcome(name: str, purpose: str, passed: bool) -> str:
    if purpose == "evasive":
        return (
            f"{name} slips away: spend its movement points to move (7.2.1)."
            if passed
            else f"{name} stays engaged: no evasive movement."
        )
    return (
        f"{name} destroys the barrel or fence: remove it from the board (7.3.2)."
        if passed
        else f"{name} fails to destroy the scenery."
    )


@hand.evolver("demloc.hand.tested", label="made a hand-to-hand test")
def hand_tested(s: DemlocState, e: EventRecord) -> None:
    d = e.data
    p = s["pieces"][d["piece"]]
    if d["fate"]:
        player(s, p["owner"])["fate"] -= d["fate"]
    activation.mark(s, p["id"])
    say(*tested_words(d, "Hand-to-hand"))
    say(_hand_outcome(p["name"], d["purpose"], d["passed"]))


@hand.narrator("demloc.hand.tested")
def say_hand_tested(e: EventRecord, s: DemlocState) -> str:
    name = piece_name(s, e.data["piece"])
    tested = tested_words(e.data, "Hand-to-hand")
    return " ".join([*tested, _hand_outcome(name, e.data["purpose"], e.data["passed"])])
