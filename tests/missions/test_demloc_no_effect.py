"""A power that would change nothing on its target (DemLoc rulebook 8.2 CARE x, REPAIR x,
POISON x, STUNNING) is refused before any mana is spent, and the page says so beforehand on
that target (found by a new user: Mend on a character with armor damage only cost a common
mana and said "no effect" only after). One function for both:
``missions.rules.arcane.no_effect_reason``."""

from missions.rules.arcane import no_effect_reason, no_effect_words
from missions.rules.view import view
from tests.kit import refused_unchanged

from .demloc_sim import new_sim, piece, run

ANN, BOB = 0, 1
VESNA, KORR = "s0-vesna", "s0-korr"
MAUD, BRAM = "s1-maud", "s1-bram"
SALT_BALM, DROWNED_BREATH = 0, 1  # Maud's Codex of Salted Ash (CARE 1; POISON 1, WEAKNESS 1)


def powers(t, seat, pid):
    card = next(p for p in view(t.state, seat)["pieces"] if p["id"] == pid)
    return card["power_refs"]


def test_8_2_care_on_a_character_without_broken_hearts_is_refused_and_said_beforehand():
    t = new_sim()
    run(t, ANN, "mana.channel", piece=VESNA, common=1, dark=0, seals=0, setup=True)
    run(t, BOB, "mana.channel", piece=MAUD, common=2, dark=1, seals=0, setup=True)
    balm = powers(t, BOB, MAUD)[SALT_BALM]
    # nobody has a broken heart: Use is disabled with why, every target marked
    assert balm["blocked"].startswith("No effect on any character in play now: Salt balm")
    assert balm["no_effect"][BRAM] == "no broken heart token to remove"
    error = refused_unchanged(t, BOB, "demloc.power.use",
                              {"piece": MAUD, "power": SALT_BALM, "target": VESNA})
    assert error.code == "no_effect"
    assert str(error) == f"No effect on {piece(t, VESNA)['name']}: no broken heart token to remove (8.2)."
    assert piece(t, MAUD)["mana"] == {"common": 2, "dark": 1}
    # Bram has a broken heart: Salt balm mends him; on the others it still says no effect
    run(t, BOB, "tokens.adjust", piece=BRAM, token="broken_hearts", delta=1)
    balm = powers(t, BOB, MAUD)[SALT_BALM]
    assert balm["blocked"] == "" and BRAM not in balm["no_effect"] and VESNA in balm["no_effect"]
    run(t, BOB, "power.use", piece=MAUD, power=SALT_BALM, target=BRAM)
    assert piece(t, BRAM)["broken_hearts"] == 0 and piece(t, MAUD)["mana"]["common"] == 1


def test_8_2_a_power_with_one_effect_that_applies_is_never_said_useless():
    """POISON 1 on a poisoned character does nothing, but Drowned breath's WEAKNESS 1 does:
    the power is used; REPAIR on no broken armor and STUNNING on an exhausted token do not."""
    t = new_sim()
    vesna = {**piece(t, VESNA), "poison": 1}
    assert no_effect_reason({"effects": ["POISON 1"]}, vesna) == "already poisoned"
    assert no_effect_reason({"effects": ["POISON 1", "WEAKNESS 1"]}, vesna) == ""
    assert no_effect_reason({"effects": ["REPAIR 1"]}, vesna) == "no broken armor token to remove"
    assert no_effect_reason({"effects": ["REPAIR 1"]}, {**vesna, "broken_armor": 1}) == ""
    tired = {**vesna, "movement": "exhausted"}
    assert no_effect_words({"effects": ["STUNNING"]}, tired) == (
        f"No effect on {vesna['name']}: movement token already exhausted (8.2).")
    assert no_effect_reason({"effects": ["HIT 1"]}, vesna) == ""
    assert no_effect_reason({"effects": ["SALT SLEEP"]}, vesna) == ""
