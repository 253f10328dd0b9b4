"""Random playouts of DemLoc missions through the kit's pure step:
seeded quick games for 2, 3 and 4 players and each table variant, choosing among the commands
each seat's page offers (``DemlocRuleset.moves``). DemLoc rulebook 6.4.2 (the app at the
table), 7.3.2.3 (the game ends by turn limit, objective, surrender or total elimination).

Checked: no exception but the kit's coded errors, never stuck, the mission ends within the
bound (a 3-turn limit: after the last turn the game can only end), replay from scratch equals
the incremental state, the characters brought are conserved (only daemons come and go),
each player's fate points equal an independent recount of the fate events, an activated
ability is used at most once a phase unless the table's option ``ability_uses`` says "no
limit" (5.1.1), and the one ending (``end_checks``): every turn played is closed exactly
once, the last one included (but the turn an agreement to stop leaves where it was, option
``stop_turn_end`` = ``none``), no turn starts that is not played, poison grows by one at each
end of a turn (option ``poison`` = ``end``), and a control counter counts only for a player with characters on the board, who
alone can win by it. The table is public while the mission is played (6.4.2) but for a hidden
turn limit (7), which no seat's view may show until the turns are over
(``perturb=hidden.hide_from``; the preparation's secrets: ``test_setup_playouts``,
``test_mission_playouts``).
"""

import copy
import random

import pytest

from missions.rules import DemlocRuleset
from missions.rules.roster import demo_guild
from tabletop.rules import Command
from tabletop.testing import playout, playout_seeds

from .hidden import hide_from

VARIANTS = [
    {},
    {"seals": "reaches", "bleeding": "start", "poison": "end", "free_possessed": "bonus"},
    # An agreement to stop leaves the turn in progress where it is (7.3.2.3)
    {"elimination": "any", "control": "anyone", "objective_turns": "2", "stop_turn_end": "none"},
    # The other readings of the table options
    {"activations": "free", "daemon_level": "any", "hand_test": "penalty",
     "defender_weapon": "none", "bleeding": "end", "poison": "start",
     # A hidden turn limit (7) and claims that end alone (7.3.2.3)
     "turn_limit_hidden": "1", "objective_claim": "claimer",
     # An activated ability paid again in its phase (5.1.1 read as "no limit"), with the fate
     # points to pay it more than once
     "ability_uses": "free", "fate_points": "6",
     # a death by poison counts for nobody (8.1, 8.2: "Count a kill" by hand)
     "poison_kills": "hand"},
]


#: The buttons that move the mission on: Pass, Next turn, End game, the answer to a claim,
#: Apply or Cancel of a pending calculation (6.4.2, 7.2, 7.3, 7.3.2.3).
MOVES_ON = {
    "demloc.phase.next",
    "demloc.turn.next",
    "demloc.mission.end",
    "demloc.objective.answer",
    "demloc.calc.apply",
    "demloc.calc.cancel",
}
#: How often a player whose page offers such a button taps it (otherwise: any button).
MOVE_ON_RATE = 1 / 3


def choose(offered: list[Command], rnd: random.Random, sim) -> Command:
    """A player taps any button of the page, and a third of the time (``MOVE_ON_RATE``), when
    the page offers one, a button that moves the mission on (``MOVES_ON``), as players pass
    when they are done. Picking uniformly among everything a 4-player page offers (up to 80
    commands: a dozen a character, shots and fights against three targets), the acting player
    passed once in about 300 commands: with ``PLAYOUT_SEEDS=200`` three 4-player cases (seeds
    7 and 55 of the default table...) were still in turn 1 after 600 commands, their 3-turn
    limit far away; the rules offered Pass all along."""
    moving = [c for c in offered if c.type in MOVES_ON]
    if moving and rnd.random() < MOVE_ON_RATE:
        return rnd.choice(moving)
    return rnd.choice(offered)


def characters(state):
    return sorted(pid for pid, p in state["pieces"].items() if p["kind"] != "daemon")


def fate_recount(sim) -> dict[int, int]:
    """Each player's fate points from the events alone: 3 at the start, minus what fate.spent,
    a strayed shot's test, an applied shot's test, an arcane test, a hand-to-hand test and an
    ability used took, plus fate.gained."""
    fate: dict[int, int] = {}
    owner: dict[str, int] = {}
    proposed = None
    for e in sim.records():
        d = e.data
        if e.type == "demloc.mission.opened":
            fate = {p["seat"]: int(p["fate"]) for p in d["players"]}
            owner = {p["card"]["id"]: p["owner"] for p in d["pieces"]}
        elif e.type == "demloc.fate.spent":
            fate[e.seat] -= d["amount"]
        elif e.type == "demloc.fate.gained":
            fate[e.seat] += d["amount"]
        elif e.type == "demloc.shot.strayed":
            fate[owner[d["shooter"]]] -= d["fate"]
        elif e.type in ("demloc.arcane.tested", "demloc.hand.tested"):
            fate[owner[d["piece"]]] -= d["fate"]
        elif e.type == "demloc.ability.used":  # 5.1.1, 6.4.2: the player who controls it
            fate[d["seat"]] -= d["fate"]
        elif e.type in ("demloc.shot.proposed", "demloc.brawl.proposed"):
            proposed = d
        elif e.type == "demloc.calc.cancelled":
            proposed = None
        elif e.type == "demloc.calc.applied":
            if proposed and proposed["kind"] == "shot":
                fate[owner[proposed["shooter"]]] -= proposed["fate"]
            proposed = None
        elif e.type == "demloc.daemon.summoned":
            owner[d["id"]] = owner[d["summoner"]]
    return fate


def ability_uses(sim) -> dict[tuple, int]:
    """How many times each activated ability was used in each phase, from the events:
    ``{(piece, ability, "turn:phase"): uses}`` (5.1.1; option ``ability_uses``)."""
    uses: dict[tuple, int] = {}
    for e in sim.records():
        if e.type == "demloc.ability.used":
            key = (e.data["piece"], e.data["ability"], e.data["phase"])
            uses[key] = uses.get(key, 0) + 1
    return uses


def _alive(state, seat) -> bool:
    return any(
        p["owner"] == seat and p["status"] == "in_play" and not p["possessed"]
        for p in state["pieces"].values()
    )


def stopped_in_turn(sim) -> bool:
    """The mission ended by an agreement to stop that left its turn in progress unclosed
    (7.3.2.3, option ``stop_turn_end`` = ``none``: no end-of-turn effects), read from its
    ``demloc.mission.ended`` event."""
    ended = [e for e in sim.records() if e.type == "demloc.mission.ended"]
    said = ended[-1].data.get("turn_end") if ended else None
    return said is not None and not said["closed"]


def end_checks(sim) -> None:
    """The one ending (6.4.2, 7.3.2.3, 8.2), read from the events by folding them again: turns
    1..T each closed once by ``demloc.turn.ended`` (T-1 when an agreement to stop left turn T
    where it was: only on a table whose ``stop_turn_end`` is ``none``, 7.3.2.3) and each
    started once, nothing started after the mission ended; at each closing, a poisoned
    character in play gains exactly one token (or dies of it) when poison acts at the end, and
    the control counter grows only for a seat with characters on the board; a control win goes
    to such a seat."""
    records = sim.records()
    last = sim.state["turn"]
    closed = [e.data["turn"] for e in records if e.type == "demloc.turn.ended"]
    started = [e.data["turn"] for e in records if e.type == "demloc.turn.started"]
    stopped = stopped_in_turn(sim)
    assert not stopped or sim.state["options"]["stop_turn_end"] == "none"
    assert closed == list(range(1, last + (0 if stopped else 1))), closed
    assert started == list(range(1, last + 1)), started
    types = [e.type for e in records]
    assert "demloc.turn.started" not in types[types.index("demloc.mission.ended") :]
    ruleset = sim.ruleset
    state = ruleset.initial_state()
    for e in records:
        before = copy.deepcopy(state)
        ruleset.fold_into(state, e)
        if e.type != "demloc.turn.ended":
            continue
        if state["options"].get("poison") == "end":
            for pid, p in before["pieces"].items():
                if p["status"] == "in_play" and p["poison"] > 0:
                    after = state["pieces"][pid]
                    assert after["poison"] == p["poison"] + 1 or after["status"] != "in_play"
        grew = state["objective"]["count"] > before["objective"]["count"]
        if grew:
            assert _alive(state, state["objective"]["seat"])
    ended = sim.state["ended"]
    if ended["reason"] == "objective_control":
        assert _alive(sim.state, ended["seat"])


@pytest.mark.parametrize(
    "options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default"
)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_missions_never_crash_never_stick_and_end(players, options):
    for seed in playout_seeds():
        out = playout(
            DemlocRuleset(),
            players,
            seed,
            options={"turn_limit": "3", **options},
            max_commands=600,
            undo_rate=0.05,
            conserved=characters,
            must_finish=True,
            check_every=5,
            choose=choose,
            perturb=hide_from,
        )
        state = out.sim.state
        assert state["ended"] is not None
        assert {p["seat"]: p["fate"] for p in state["players"]} == fate_recount(out.sim)
        end_checks(out.sim)
        if state["options"]["ability_uses"] == "phase":  # 5.1.1 read as once per phase
            assert max(ability_uses(out.sim).values(), default=1) == 1


#: The refusals a page's disabled button stands for (its reason beside it): an offered action
#: never meets one (``missions.rules.summoning.summon_refusal``, ``arcane.power_refusal``,
#: ``activation``; 7.2, 7.2.1, 7.2.3.1, 7.2.3.2).
BLOCKED = {"already_activated", "object_taken", "not_enough_mana", "not_active", "no_daemon",
           "possessed", "already_summoning", "cannot_summon", "no_power", "bad_extra"}
#: The actions a character's sheet offers behind such a button.
GUARDED = {"demloc.daemon.summon", "demloc.power.use", "demloc.shot.propose",
           "demloc.brawl.propose", "demloc.mana.channel", "demloc.hand.test"}


#: The arcane actions the checking players favour (``test_an_offered_action_...``).
ARCANE = {"demloc.mana.channel", "demloc.daemon.summon", "demloc.power.use"}


def _useless(sim, command: Command, views: dict) -> dict[str, str]:
    """``{target: why}``: the characters the power of an offered ``demloc.power.use`` would
    change nothing on, as its owner's page says them (the Target options disabled with why:
    ``power_refs``' ``no_effect``, 8.2). ``views``: the seats' views already built, by seat."""
    d = command.data
    owner = sim.state["pieces"][d["piece"]]["owner"]
    if owner not in views:
        views[owner] = sim.ruleset.view(sim.state, owner)
    card = next(p for p in views[owner]["pieces"] if p["id"] == d["piece"])
    ref = next(r for r in card["power_refs"] if (r["code"], r["index"]) == (d["code"], d["power"]))
    return ref["no_effect"]


#: How often a checking player whose page offers a Use <power> with a disabled target taps
#: Use on that target anyway, as a page opened before the target changed would send it.
STALE_RATE = 0.25


def _actor(command: Command) -> str:
    d = command.data
    return str(d.get("piece") or d.get("attacker") or str(d.get("shooter") or "").split(":")[0])


@pytest.mark.parametrize("options", [{}, {"activations": "free"}], ids=["default", "free"])
def test_an_offered_action_is_never_refused_for_what_its_button_would_say(options):
    """The random players tap only what the page offers (``DemlocRuleset.moves``): a Summon,
    a Use <power>, a shot, a fight, a Channel or a hand-to-hand test offered is never refused
    for a reason the page shows beside a disabled button instead (already activated, no mana,
    an exhausted token, no daemon...). Each offered one is tried on a copy of the table.
    A Use <power> is refused ``no_effect`` exactly when its page says it changes nothing on
    that target (8.2, ``arcane.no_effect_reason``); now and then (seeded) a player taps Use on
    such a target anyway (a stale page), and the command refuses it: reached where the players
    use powers most (activations free)."""
    met: dict[str, int] = {}
    refused: dict[str, int] = {}

    def checking(offered, rnd, sim):
        views: dict = {}
        for command in offered:
            if command.type not in GUARDED:
                continue
            owner = sim.state["pieces"][_actor(command)]["owner"]
            trial = copy.deepcopy(sim)
            code = trial.try_send(owner, command.type, command.data)
            assert code not in BLOCKED, (command, code)
            met[command.type] = met.get(command.type, 0) + 1
            if command.type == "demloc.power.use":
                said = command.data["target"] in _useless(sim, command, views)
                assert (code == "no_effect") == said, (command, code)
        stale = [(c, sorted(_useless(sim, c, views))) for c in offered if c.type == "demloc.power.use"]
        stale = [(c, targets) for c, targets in stale if targets]
        if stale and rnd.random() < STALE_RATE:
            command, targets = rnd.choice(stale)
            return Command(command.type, {**command.data, "target": rnd.choice(targets)})
        # Arcane play first, half the time: mana held makes Use <power> and Summon offered.
        arcane = [c for c in offered if c.type in ARCANE]
        if arcane and rnd.random() < 0.5:
            return rnd.choice(arcane)
        return choose(offered, rnd, sim)

    for seed in playout_seeds():
        out = playout(DemlocRuleset(), 2, seed, options={"turn_limit": "3", **options},
                      max_commands=300, undo_rate=0.05, choose=checking)
        for code, n in out.refused.items():
            refused[code] = refused.get(code, 0) + n
    print(f"{options or 'default'}: offered {met}; refused {refused}")
    # (Activations once a phase, a summoner rarely holds both colours and is free: the free
    # reading of the option is where the players summon.)
    wanted = {"demloc.power.use", "demloc.shot.propose", "demloc.brawl.propose"}
    if options.get("activations") == "free":
        wanted.add("demloc.daemon.summon")
        assert refused.get("no_effect", 0) > 0, refused  # 8.2: the stale taps were refused
    assert wanted <= set(met), met


@pytest.mark.parametrize("reading", ["phase", "free"])
def test_random_players_using_abilities_follow_the_tables_reading_of_5_1_1(reading):
    """Players who tap *Use <ability>* half the time (5.1.1, 6.4.2; 6 fate points each):
    with the option ``ability_uses`` at ``phase`` no ability is used twice in a phase (the
    second tap refused ``ability_used``), at ``free`` some are, each use paid; fate points
    always equal the recount of the events."""
    uses: dict[tuple, int] = {}

    def tapping_abilities(offered, rnd, sim):
        mine = [c for c in offered if c.type == "demloc.ability.use"]
        if mine and rnd.random() < 0.5:
            return rnd.choice(mine)
        return choose(offered, rnd, sim)

    for seed in playout_seeds():
        out = playout(DemlocRuleset(), 2, seed,
                      options={"turn_limit": "3", "ability_uses": reading, "fate_points": "6"},
                      max_commands=300, undo_rate=0.05, choose=tapping_abilities)
        state = out.sim.state
        assert {p["seat"]: p["fate"] for p in state["players"]} == fate_recount(out.sim)
        for key, n in ability_uses(out.sim).items():
            uses[(seed, *key)] = n
    assert uses, "no ability was used"
    most = max(uses.values())
    print(f"{reading}: {len(uses)} abilities used in a phase, at most {most} times")
    assert most == 1 if reading == "phase" else most > 1


@pytest.mark.parametrize("reading", ["close", "none"])
def test_players_agreeing_to_stop_mid_turn_follow_the_tables_stop_turn_end_7_3_2_3(reading):
    """Players who tap *Agree to stop* half the time from turn 2 on (7.3.2.3: the mission ends
    once every player agreed), on a table whose option ``stop_turn_end`` is ``reading``: at
    ``close`` the turn in progress ends first (its end-of-turn effects), at ``none`` it stops
    where it is (no ``demloc.turn.ended`` for it); ``end_checks`` holds either way, and every
    seed ends by that agreement in the middle of a turn."""
    said = []

    def stopping(offered, rnd, sim):
        # not "End the mission" (total elimination): this table ends by agreement
        offered = [c for c in offered if c.type != "demloc.mission.end"] or offered
        agree = [c for c in offered if c.type == "demloc.surrender.vote" and c.data["agree"]]
        if agree and sim.state["turn"] >= 2 and rnd.random() < 0.5:
            return agree[0]
        return choose(offered, rnd, sim)

    for seed in playout_seeds():
        out = playout(DemlocRuleset(), 2, seed,
                      options={"turn_limit": "3", "stop_turn_end": reading},
                      max_commands=300, undo_rate=0.05, choose=stopping, must_finish=True)
        end_checks(out.sim)
        ended = [e for e in out.sim.records() if e.type == "demloc.mission.ended"][-1]
        said.append((ended.data["reason"], ended.data.get("turn_end")))
    print(f"stop_turn_end={reading}: {said}")
    for reason, turn_end in said:
        assert reason == "surrender" and turn_end is not None, said  # mid-turn, by agreement
        assert turn_end["closed"] == (reading == "close"), said


def poisonous_guilds(players: int) -> list[dict]:
    """The demo guilds with every character's weapons POISONOUS 2 (8.1)."""
    guilds = [demo_guild(i) for i in range(players)]
    for guild in guilds:
        for card in guild["characters"]:
            for weapon in card.get("weapons") or []:
                weapon["features"] = [*weapon.get("features", []), "POISONOUS 2"]
    return guilds


@pytest.mark.parametrize("reading, timing", [("poisoner", "end"), ("poisoner", "start"),
                                             ("hand", "end")])
def test_random_missions_with_poisonous_weapons_count_poison_deaths_as_the_table_says_8_1(
        reading, timing):
    """Players whose every weapon is POISONOUS 2 (8.1), shooting and fighting half the time,
    on a table whose option ``poison_kills`` is ``reading`` (the poison growing at the turn's
    ``timing``): at ``poisoner`` every death by
    poison (more tokens than the hit factor, at a turn's end or start) that an attack the app
    applied had started counts once, for that attacker's player, never for the victim's own;
    at ``hand`` none does. The usual checks of ``playout`` hold (replay equal, no crash)."""
    credited = sourced = 0

    def attacking(offered, rnd, sim):
        attacks = [c for c in offered if c.type in ("demloc.shot.propose", "demloc.brawl.propose",
                                                     "demloc.calc.apply")]
        if attacks and rnd.random() < 0.5:
            return rnd.choice(attacks)
        return choose(offered, rnd, sim)

    for seed in playout_seeds(8):
        out = playout(DemlocRuleset(), 2, seed,
                      options={"turn_limit": "6", "poison_kills": reading, "activations": "free",
                               "poison": timing},
                      content={"guilds": poisonous_guilds(2)}, max_commands=500,
                      undo_rate=0.05, conserved=characters, choose=attacking)
        state, counted = out.sim.state, set()
        for e in out.sim.records():
            sourced += e.type == "demloc.poison.sourced"
            if e.type != "demloc.kill.counted" or not e.data.get("poison"):
                continue
            victim, poisoner = state["pieces"][e.data["piece"]], state["pieces"][e.data["by"]]
            assert e.data["seat"] == poisoner["owner"] != victim["owner"], e.data
            assert victim["status"] == "killed" and victim["poison"] > victim["hit"], victim
            assert e.data["piece"] not in counted, "a poison death counted twice"
            counted.add(e.data["piece"])
        credited += len(counted)
    print(f"{reading}, {timing}: {sourced} poisonings by an attack, {credited} poison deaths "
          "counted")
    if reading == "hand":
        assert sourced == credited == 0
    else:
        assert credited > 0, "no poison death was met: the case checks nothing"
