"""What a DemLoc control says, read as a new player reads it on a phone: the turn bar's fate
badge is the reader's own (6.4.2: each player's fate points), the mana refusal of the
preparation says what was wrong (6.4.1), an arcane test's result line is at its Test form
(7.2.3.5), and a Summon button the rules would refuse is disabled with the first reason
(7.2, 7.2.3.2)."""

import copy

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


def test_a_summon_that_can_never_be_paid_says_so_first_and_the_command_agrees_7_2_3_2():
    """Found by a new user: Malve's Summon section said the cost was more than she can hold,
    yet "Summon a daemon" was offered, and the tap was refused for another reason ("already
    activated this phase"). A reason no later moment changes (the cost above the arcane
    ability, 5.1.1) comes before those of this moment (activated, 7.2): the view's reason
    (beside the disabled button) is the command's refusal, code and words."""
    from missions.rules.view import view
    from tests.kit import refused

    from .demloc_sim import new_sim, run

    t = new_sim(options={"activations": "once"})
    vesna = t.state["pieces"]["s0-vesna"]
    for code in [vesna.get("code"), *vesna.get("codes", [])]:
        if code and code.get("summon_cost"):
            code["summon_cost"] = {"common": 1, "dark": 2}
    run(t, 0, "mana.channel", piece="s0-vesna", common=1, dark=1, seals=0)  # an activation
    sheet = next(p for p in view(t.state, 0)["my_pieces"] if p["id"] == "s0-vesna")
    words = "Needs 3 mana; Vesna the Gray holds at most 2 (arcane ability, 5.1.1): this cannot be paid."
    assert sheet["summon"]["blocked"] == words
    err = refused("not_enough_mana", lambda: run(t, 0, "daemon.summon", piece="s0-vesna",
                                                 code=sheet["summon"]["code_index"], level=1, hearts=1))
    assert str(err) == words


def test_every_summon_the_view_blocks_is_refused_with_its_words_and_no_other_7_2_3_2():
    """The page's reason and the command agree in each case: no mana (channel first), the
    movement token exhausted, activated; and a summon the view leaves open is accepted."""
    from missions.rules.view import view

    from .demloc_sim import new_sim, run

    def sheet(t):
        return next(p for p in view(t.state, 0)["my_pieces"] if p["id"] == "s0-vesna")["summon"]

    def attempt(t, flow):
        try:
            run(t, 0, "daemon.summon", piece="s0-vesna", code=flow["code_index"], level=1, hearts=1)
        except Exception as err:  # noqa: BLE001 - the coded refusal is compared below
            return str(err)
        return ""

    t = new_sim(options={"activations": "once"})
    assert sheet(t)["blocked"].startswith("Not enough mana: Vesna the Gray holds 0 common, 0 dark")
    assert attempt(t, sheet(t)) == sheet(t)["blocked"]
    run(t, 0, "mana.channel", piece="s0-vesna", common=1, dark=1, seals=0)  # an activation
    assert sheet(t)["blocked"].startswith("Vesna the Gray was already activated this phase")
    assert attempt(t, sheet(t)) == sheet(t)["blocked"]
    run(t, 0, "movement.set", piece="s0-vesna", state="exhausted")
    assert sheet(t)["blocked"] == "Summoning needs an active movement token (7.2.3.2)."
    assert attempt(t, sheet(t)) == sheet(t)["blocked"]
    t = new_sim(options={"activations": "once"})
    run(t, 0, "mana.channel", piece="s0-vesna", common=1, dark=1, seals=0, setup=True)
    assert sheet(t)["blocked"] == ""
    assert attempt(t, sheet(t)) == ""


def test_use_power_shoot_and_brawl_are_disabled_with_the_commands_own_reason_7_2_7_2_3_1():
    """The same pattern for the other buttons of a sheet: the view's reason (beside the
    disabled button) is what the command answers, code and words. A power that can never be
    paid says so before the activation (5.1.1, 7.2); once activated (a Channel in play), Use,
    Shoot and Brawl say so (7.2); a Channel's own reason leaves the setup channelling open."""
    from missions.rules.view import view
    from tests.kit import refused

    from .demloc_sim import new_sim, run

    def sheet(t, seat, pid):
        return next(p for p in view(t.state, seat)["my_pieces"] if p["id"] == pid)

    t = new_sim(options={"activations": "once"})
    assert sheet(t, 0, "s0-vesna")["power_refs"][0]["blocked"].startswith(
        "Not enough mana: Vesna the Gray holds 0 common, 0 dark; Cinder touch costs 1 common")
    run(t, 0, "mana.channel", piece="s0-vesna", common=1, dark=0, seals=0)  # an activation
    vesna = sheet(t, 0, "s0-vesna")
    words = "Vesna the Gray was already activated this phase (7.2): it cannot use an arcane power"
    assert vesna["power_refs"][0]["blocked"].startswith(words)
    err = refused("already_activated", lambda: run(t, 0, "power.use", piece="s0-vesna", power=0,
                                                   target="s1-bram"))
    assert str(err) == vesna["power_refs"][0]["blocked"]
    assert vesna["channel_blocked"].startswith("Vesna the Gray was already activated")
    # A cost above the arcane ability comes first: no later phase pays it.
    for code in [t.state["pieces"]["s0-vesna"].get("code"), *t.state["pieces"]["s0-vesna"].get("codes", [])]:
        if code:
            code["powers"][0]["cost"] = {"common": 2, "dark": 1}
    t.state = copy.deepcopy(t.state)  # a state viewed is never changed in place (its memo)
    vesna = sheet(t, 0, "s0-vesna")
    assert vesna["power_refs"][0]["blocked"] == (
        "Needs 3 mana; Vesna the Gray holds at most 2 (arcane ability, 5.1.1): this cannot be paid.")
    err = refused("not_enough_mana", lambda: run(t, 0, "power.use", piece="s0-vesna", power=0,
                                                 target="s1-bram"))
    assert str(err) == vesna["power_refs"][0]["blocked"]
    # Shoot and Brawl of an activated character (7.2): Korr shoots (a failed test strays).
    korr = sheet(t, 0, "s0-korr")
    assert korr["shoot_blocked"] == "" and korr["attack_blocked"] == ""
    weapon = next(w["index"] for w in korr["weapon_refs"] if w.get("range"))
    run(t, 0, "shot.propose", shooter=f"s0-korr:{weapon}", target="s1-bram", test_roll=6,
        dice="4 4 4")
    korr = sheet(t, 0, "s0-korr")
    assert korr["shoot_blocked"] == "" and korr["stray_only"]  # its stray shot goes on (5.6)
    assert korr["attack_blocked"].startswith("Korr Halfhand was already activated this phase")
    # Vesna, activated by her Channel, may not shoot: the same words from the command.
    vesna = sheet(t, 0, "s0-vesna")
    assert vesna["shoot_blocked"].startswith("Vesna the Gray was already activated this phase")
    err = refused("already_activated", lambda: run(
        t, 0, "shot.propose", shooter="s0-vesna:0", target="s1-bram", test_roll=1, dice="4"))
    assert str(err) == vesna["shoot_blocked"]


def test_the_arcane_section_says_channel_is_the_activation_before_the_tap_7_2_3():
    """Found by a new user: "1. Channel ... 2. <power>" read as one sequence, but Channel is the phase's
    activation (7.2.3: "one of the following actions: Channeling mana; Using an arcane power;
    Summoning a daemon"), so a player who followed 1 then 2 was always refused. The section
    says so before the first tap, and the "channel first" of a power says when."""
    from html import unescape

    from django.template.loader import render_to_string

    from missions.rules.view import view

    from .demloc_sim import new_sim, run

    def sheet_and_html(t):
        v = view(t.state, 0)
        sheet = next(p for p in v["my_pieces"] if p["id"] == "s0-vesna")
        html = render_to_string(
            "missions/_piece_forms.html",
            {"p": sheet, "view": v, "command_url": "/c/", "table": {"code": "ABC"}},
        )
        return sheet, unescape(html)

    t = new_sim(options={"activations": "once"})
    sheet, html = sheet_and_html(t)
    assert sheet["arcane_choice"].startswith("One per activation (7.2.3): Channel, Use a power or Summon.")
    assert sheet["arcane_choice"] in html
    assert "<strong>Channel</strong> (uses this activation)" in html
    assert "1. Channel" not in html and "<strong>2. " not in html
    assert "no activation, 7.2.3.5" in html
    power = sheet["power_refs"][0]["blocked"]
    assert power.endswith("channel first (Channel is an activation of its own, 7.2.3: use it in a later phase).")
    run(t, 0, "mana.channel", piece="s0-vesna", common=1, dark=1, seals=0)
    sheet, _html = sheet_and_html(t)
    assert all(pw["blocked"].startswith("Vesna the Gray was already activated this phase")
               for pw in sheet["power_refs"])
    # A table that does not check activations has no such line: channel, then use.
    t = new_sim(options={"activations": "free"})
    sheet, html = sheet_and_html(t)
    assert sheet["arcane_choice"] == "" and "(uses this activation)" not in html
    assert sheet["power_refs"][0]["blocked"].endswith("channel first.")
