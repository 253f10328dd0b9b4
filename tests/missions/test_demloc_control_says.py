"""What a DemLoc control says, read as a new player reads it on a phone: the turn bar's fate
badge is the reader's own (6.4.2: each player's fate points), the mana refusal of the
preparation says what was wrong (6.4.1), an arcane test's result line is at its Test form
(7.2.3.5), and a Summon button the rules would refuse is disabled with the first reason
(7.2, 7.2.3.2)."""

from django.template import engines


def _turn_bar(**view) -> str:
    base = {"ended": None, "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}],
            "me": 0, "prompt": None, "turn": 1, "turn_limit": 6, "phase": "strategic",
            "phase_label": "Strategic", "first_name": "Bob", "my_turn": False,
            "acting_name": "Bob", "my_fate": 3, "last_turn": False, "next_odds": []}
    return engines["jinja2"].env.get_template("missions/live/dl-turn.html").render(
        view={**base, **view}, table={"code": "ABCDEF"})


def test_the_turn_bars_fate_badge_is_mine_while_another_guild_acts_6_4_2():
    """Found by a new user: "Bob is acting. fate 3" read as Bob's fate; the badge is the
    reader's own fate points, and says so whoever is acting."""
    html = _turn_bar()
    assert "</strong> is acting." in html
    assert 'id="dl-my-fate" title="your fate points">your fate 3</span>' in html
    assert 'id="dl-my-fate" title="your fate points">your fate 2</span>' in _turn_bar(
        my_turn=True, my_fate=2)


def test_a_mana_refusal_says_what_is_wrong_6_4_1():
    """Found by a new user: 3 common on 2 arcane dice was refused with "Malve of the Ash rolls
    2 arcane dice: enter what each one shows", which is what the form already said. The
    refusal says what was entered against what is rolled: too many, too few, a field that is
    not a number of dice."""
    from missions.rules.setup_stages import mana_count_words, mana_field_words

    assert mana_count_words("Malve of the Ash", 2, 3) == (
        "3 entered, Malve of the Ash rolls only 2 arcane dice: count each die once "
        "(common, dark or seal).")
    assert mana_count_words("Malve of the Ash", 2, 1) == (
        "1 entered, Malve of the Ash rolls 2 arcane dice: 1 missing "
        "(count each die as common, dark or seal).")
    assert mana_count_words("Vesna", 1, 0).startswith("0 entered, Vesna rolls 1 arcane die: 1 missing")
    assert mana_count_words("Malve of the Ash", 2, 2) is None
    assert mana_field_words("Malve of the Ash", 2, "dark", "-1") == (
        "Dark: enter 0 to 2 (Malve of the Ash rolls 2 arcane dice), not -1.")


def test_the_mana_command_refuses_with_those_words_and_changes_nothing_6_4_1():
    """The command ``demloc.setup.mana`` gives those refusals (codes ``bad_count``,
    ``bad_input``) and keeps what was saved before."""
    import pytest

    from tabletop.errors import RuleViolation

    from .demloc_sim import run
    from .test_lifecycle_setup import to_mana

    t = to_mana()
    name = next(p for p in t.state["setup"]["picks"]["0"] if p["id"] == "m11")["name"]
    arcane = next(p for p in t.state["setup"]["picks"]["0"] if p["id"] == "m11")["card"]["arcane"]
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "setup.mana", character="m11", common=arcane + 1)
    assert err.value.code == "bad_count"
    assert err.value.message.startswith(f"{arcane + 1} entered, {name} rolls only ")
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "setup.mana", character="m11", common=0)
    assert err.value.code == "bad_count" and err.value.message.startswith(f"0 entered, {name} rolls ")
    with pytest.raises(RuleViolation) as err:
        run(t, 0, "setup.mana", character="m11", common=1, seals="-1")
    assert err.value.code == "bad_input"
    assert err.value.message == mana_words_field(name, arcane)
    assert "s0-m11" not in t.state["setup"]["mana"]


def mana_words_field(name, arcane):
    from tabletop.rules import counted

    return f"Seals: enter 0 to {arcane} ({name} rolls {counted(arcane, 'arcane die', 'arcane dice')}), not -1."


def test_an_arcane_tests_result_line_is_at_its_test_form_this_phase_7_2_3_5():
    """Found by a new user: Test (with a fate point) reset the form and its result went only
    to the log, off screen. The view gives the tester's result line (``test_result``, shown at
    the Test form of its Arcane section, where its phone lands: the version is its key), with
    what the test did for its purpose, until the phase ends."""
    from .demloc_sim import new_sim, run

    t = new_sim()
    run(t, 0, "mana.channel", piece="s0-vesna", common=1, dark=1, seals=0, setup=True)
    run(t, 1, "mana.channel", piece="s1-maud", common=2, dark=1, seals=0, setup=True)
    assert t.view(0)["test_result"] is None
    run(t, 0, "arcane.test", piece="s0-vesna", purpose="other", roll=3, fate=1)
    result = t.view(0)["test_result"]
    assert result["piece"] == "s0-vesna" and result["key"] == t.state["version"]
    assert result["text"] == ("Vesna the Gray's arcane test: rolled 3 − 1 fate point → 2 "
                              "(never below 1) against Arcane 2: passed.")
    assert t.view(1)["test_result"] == result  # the table is public (6.4.2)
    while t.state["phase"] == "strategic":
        run(t, t.state["play_order"][t.state["acting_index"]], "phase.next")
    assert t.view(0)["test_result"] is None  # gone the next phase
    t.assert_replay_equal()
    # A defend test says what became of the power it answered.
    t = new_sim()
    run(t, 0, "mana.channel", piece="s0-vesna", common=1, dark=1, seals=0, setup=True)
    run(t, 1, "mana.channel", piece="s1-maud", common=2, dark=1, seals=0, setup=True)
    run(t, 0, "power.use", piece="s0-vesna", power=1, target="s1-maud")
    run(t, 1, "arcane.test", piece="s1-maud", purpose="defend", roll=5)
    result = t.view(1)["test_result"]
    assert result["piece"] == "s1-maud"
    assert result["text"].endswith("against Arcane 3: failed; Black flame stands.")

