"""The mission log speaks in names, never internal ids (DemLoc rulebook 6.4.2:
the app tells the table what happened). Scripted and random missions are narrated both ways
the pages do it: the whole story (the log page and battle report fold every event from the
state before it) and the live lines (each topic's narrator against the current state), and
every line is scanned for ids such as "s1-m7" (a piece), "d1" (a daemon) or "m12" (a roster
card of the preparation)."""

import re

import pytest

from missions.rules import DemlocRuleset
from tabletop import live as live_reads
from tabletop.log import recent_lines
from tabletop.testing import playout

from .demloc_sim import finish_turn, new_sim, run
from .test_lifecycle_setup import new_table, play_through

# A daemon's id is d1, d2...; a die is written d6 or d10 (never an id in our tests: at most
# five daemons are summoned in them).
ID = re.compile(r"\bs\d+-[\w-]+|\bd(?!(?:6|10)\b)\d+\b|\b[mg]\d{2,}\b")


def leaks(sim) -> list[str]:
    ruleset = DemlocRuleset()
    whole = sim.lines()
    live = [
        line.text or "" for line in recent_lines(ruleset, sim.state, sim.log, set(sim.meta.undone))
    ]
    return sorted({line for line in whole + live if ID.search(line)})


def test_the_id_pattern_finds_ids():
    # The scan can fail: these are the shapes our ids take.
    for text in ("s1-m7 is hit", "Korr hits s0-korr.", "d1 leaves", "mana on m12"):
        assert ID.search(text)
    for text in ("Vesna the Gray: d6 4 - 1 = 3", "Turn 2: Ann plays first (draw odds 1/3)"):
        assert not ID.search(text)


def test_a_scripted_mission_names_everyone():
    t = new_sim()
    run(t, 0, "shot.propose", shooter="s0-korr:0", target="s1-bram", test_roll=2, dice="3 3 3")
    run(t, 1, "calc.apply")
    run(t, 1, "shot.propose", shooter="s1-gunner:0", target="s0-korr", test_roll=6, dice="")
    # Setup channelling is no activation (6.4.1, 7.2): the same character may then summon.
    run(t, 0, "mana.channel", piece="s0-vesna", common=1, dark=1, seals=0, setup=True)
    run(t, 0, "daemon.summon", piece="s0-vesna", level=1, hearts=1)
    run(t, 1, "mana.channel", piece="s1-maud", common=1, dark=0, seals=1, setup=True)
    run(t, 1, "power.use", piece="s1-maud", power=0, target="s1-bram")
    run(t, 1, "tokens.adjust", piece="s1-gunner", token="seals", delta=2)
    run(t, 1, "tokens.adjust", piece="s1-bram", token="poison", delta=1)
    run(t, 0, "tokens.adjust", piece="s0-korr", token="bleeding", delta=1)
    run(t, 0, "movement.set", piece="s0-korr", state="exhausted")
    run(t, 0, "effect.set", piece="s0-watch", effect="vigor", value=1)
    run(t, 0, "fate.spend", amount=1, reason="an ability")
    run(t, 0, "kill.count", kind="follower", level=1, delta=1)
    t.undo(1)
    finish_turn(t)
    run(t, 0, "turn.next")
    run(
        t,
        1,
        "brawl.propose",
        attacker="s1-bram",
        defender="d1",
        attacker_dice="6 5 4",
        defender_dice="2 1 1",
    )
    run(t, 1, "calc.apply")
    run(t, 0, "piece.escape", piece="s0-korr")
    assert leaks(t) == []


def test_the_preparation_of_a_mission_names_everyone():
    t = new_table()
    play_through(t, {0: ["m11", "m12"], 1: ["m21", "g23"]})
    assert leaks(t) == []


@pytest.mark.parametrize("players", [2, 3])
def test_random_missions_name_everyone(players):
    for seed in range(2):
        out = playout(
            DemlocRuleset(),
            players,
            seed,
            options={"turn_limit": "3"},
            max_commands=300,
            undo_rate=0.05,
            check_every=50,
        )
        assert leaks(out.sim) == [], seed


def test_the_opening_line_names_a_guild_once_when_the_seat_bears_its_name():
    """Found by a new user: "Ann's Ravens (Ann's Ravens) ...". A Guild Master's seat is named
    after the Guild: the opening line names it once; a seat named otherwise keeps its Guild."""
    from missions.rules.roster import player_and_guild

    assert player_and_guild({"name": "Ann's Ravens", "guild": "Ann's Ravens"}) == "Ann's Ravens"
    assert player_and_guild({"name": "ann's ravens ", "guild": "Ann's Ravens"}) == "ann's ravens "
    assert player_and_guild({"name": "Ann", "guild": "The Ravens"}) == "Ann (The Ravens)"
    assert player_and_guild({"name": "Ann", "guild": ""}) == "Ann"


@pytest.mark.django_db
def test_a_guild_missions_opening_log_line_names_each_guild_once(make_guild, demo_missions):

    from .lifecycle_flow import open_table, prepare

    a = make_guild("Ann's Ravens", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    lines = [line["text"] for line in live_reads.log_lines(table)]
    opening = next(t for t in lines if t.startswith("The mission begins"))
    assert opening == "The mission begins: Ann's Ravens, House Birch.", opening
