"""Random playouts of a mission's preparation (DemLoc rulebook 6.4.1, 5.1.1, 5.1.2) through the
kit's pure step (``tabletop.testing.Sim``), like ``test_playouts``: seeded, 2 to 4 players whose
Guilds share mercenary names (so contests happen), each seat choosing among the commands its
setup page offers (``DemlocRuleset.moves`` -> ``missions.rules.moves.setup_moves``), now and
then an undo or a command from the page drawn when the step began. The Guilds are brought and the control spot drawn by the server first (those are
server routes, not buttons).

Checked: no exception but the kit's coded errors; never stuck (until the first turn some seat
is offered a move); the preparation reaches the first turn within the bound; replay from
scratch equals the incremental state; the live log narrates; and at every step:

- 5.1.1 uniqueness: no mercenary name is held by two Guilds at once. Two Guilds have him in
  their slots only while a contest between exactly those Guilds is open (nobody holds him yet);
  once a contest is settled only the winner may have him, ever (``setup.settled_holder``); past
  the Characters step, and among the pieces of the mission, each name is once at most.
- Feods are neither created nor lost: a seat's settled offers equal the ``paid`` of the
  ``contest_settled`` events it won (each the best of its offers: losers pay nothing), its
  hires the cost of the followers in its slots, no purse is overdrawn, and at the first turn
  ``missions.rules.resolution.compute`` charges each Guild exactly those (a standard mission;
  a training one charges nothing, 6.4).
"""

import os
import random
from collections import defaultdict

import pytest

from missions.rules import DemlocRuleset, resolution
from missions.rules.setup import available_feods
from tabletop.log import recent_lines
from tabletop.testing import Sim, _round_trip

from .hidden import differences, hidden_view
from .lifecycle_data import guild_payload, mission_option

SEEDS = int(os.environ.get("PLAYOUT_SEEDS", "2")) * 4
#: ``make playouts`` runs the cases on every core (pytest-xdist): the seeds of a player count
#: in blocks of about 100, each a test of its own (a block of 800 seeds held one process for
#: a quarter of an hour), each asserting what the whole range did.
BLOCKS = [
    range(SEEDS * b // n, SEEDS * (b + 1) // n)
    for n in [max(1, round(SEEDS / 100))]
    for b in range(n)
]
S = "demloc.setup."
CANDIDATES = [
    {"id": 5, "name": "Salt Gate", "area": "Docks", "kind": "gate", "holder_guild_id": 2},
    {"id": 6, "name": "Old Mill", "area": "Hill", "kind": "mill", "holder_guild_id": None},
]


def scripted(seed: int) -> dict:
    """A hidden turn limit (7) and mission events (6.4.2) for some seeds, the secrets the
    pages must keep (``hidden.hide_from``), drawn apart from the seed's other draws."""
    extra = random.Random(f"script:{seed}")
    over: dict = {}
    if extra.random() < 0.5:
        over["turn_limit"] = extra.choice([3, 5])
        over["turn_limit_hidden"] = extra.random() < 0.7
    if extra.random() < 0.5:
        over["events"] = [
            {"turn": 2, "kind": "rule", "text": "Water costs 2 movement points."},
            {"turn": 3, "kind": "objective", "objective": "Hold the bell.", "text": "It rings."},
        ]
    return over


def new_table(players: int, seed: int, rnd: random.Random) -> Sim:
    mode = rnd.choice(["standard", "standard", "training"])
    kind = rnd.choice(["objective", "waves"])
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    sim = Sim(
        DemlocRuleset(),
        names,
        content={"mission": mission_option(kind, mode, **scripted(seed))},
        seed=f"setup-playout:{seed}",
    )
    for seat in range(players):
        # Two demo Guilds only: every seat shares its mercenaries' names with another seat or
        # with both demo sets' seats (5.1.1 contests), with small purses so offers run short.
        payload = guild_payload(
            rnd.randrange(2),
            seat + 1,
            fame=rnd.choice([10, 20]),
            feods=rnd.choice([0, 5, 12, 40]),
        )
        payload["seat"] = seat
        sim.send(None, S + "guild_bind", payload)
    if mode == "standard":
        sim.send(None, S + "raffle", {"candidates": CANDIDATES})
    return sim


def mercenary_holders(setup: dict) -> dict[str, set[int]]:
    holders: dict[str, set[int]] = defaultdict(set)
    for key, picks in setup["picks"].items():
        for p in picks:
            if p["source"] == "mercenary":
                holders[p["name"]].add(int(key))
    return holders


def settled_paid(sim: Sim) -> dict[int, int]:
    """Each seat's offers won, from the events alone (since a Guild last left: then everyone
    chooses again and nothing is charged)."""
    paid: dict[int, int] = defaultdict(int)
    for e in sim.records():
        if e.type == S + "guild_left":
            paid.clear()
        elif e.type == S + "contest_settled":
            d = e.data
            assert d["paid"] == max(d["offers"].values()), "the winner pays the best offer"
            assert d["offers"][str(d["winner"])] == d["paid"], "only the best offer wins"
            paid[d["winner"]] += d["paid"]
    return paid


class Views:
    """Every seat's view (``Sim.view``: as JSON, what its page receives) of the table's current
    version, built once: ``check`` builds them all after each command and the next command's
    seat chooses among what they offer (a refused command changes nothing: the same views)."""

    def __init__(self, sim: Sim):
        self.sim, self.version, self.built = sim, None, {}

    def __call__(self, seat: int) -> dict:
        if self.version != (self.sim.version, len(self.sim.log)):
            self.version, self.built = (self.sim.version, len(self.sim.log)), {}
        if seat not in self.built:
            self.built[seat] = self.sim.view(seat)
        return self.built[seat]


def check(
    sim: Sim,
    where: str,
    views: Views | None = None,
    secrets: random.Random | None = None,
) -> None:
    views = views or Views(sim)
    setup = sim.state["setup"]
    holders = mercenary_holders(setup)
    for name, seats in holders.items():
        if len(seats) > 1:
            contest = setup["contests"].get(name)
            assert contest and set(contest["seats"]) == seats, f"{name} held twice ({where})"
            assert setup["stage"] == "characters", f"{name} contested past Characters ({where})"
        held = setup.get("settled", {}).get(name)
        if held:
            assert name not in setup["contests"], f"{name} contested again ({where})"
            assert seats <= {held["seat"]}, f"{name} changed hands after settling ({where})"
    paid = settled_paid(sim)
    for seat in setup["seats"]:
        costs = setup["costs"][str(seat)]
        assert costs["offers"] == paid[seat], f"offers of seat {seat} ({where})"
        hires = sum(p["cost"] for p in setup["picks"][str(seat)] if p["source"] == "hired")
        assert costs["hires"] == hires, f"hires of seat {seat} ({where})"
        assert available_feods(setup, seat) >= 0, f"seat {seat} overspent ({where})"
    recent_lines(sim.ruleset, sim.state, sim.log[-8:], set(sim.meta.undone))
    for seat in setup["seats"]:
        views(seat)  # built, and plain JSON
    if secrets is not None:
        # Another Guild's purse, dormitory and sealed offers, a hidden turn limit and the
        # mission events to come change nothing in a seat's page (``hidden.hide_from``).
        for seat in [*setup["seats"], None]:
            seen = views(seat) if seat is not None else sim.view(None)
            hidden = _round_trip(hidden_view(sim.ruleset, sim.state, seat, secrets))
            assert hidden == seen, (
                f"seat {seat} sees a secret ({where}): {differences(seen, hidden)}"
            )


def check_first_turn(sim: Sim) -> None:
    """At the first turn: every mercenary name once among the pieces, and the close would
    charge each Guild exactly its hires and won offers (``resolution.compute``: who "wins" a
    mission not played yet does not matter here)."""
    state = sim.state
    names = [p["name"] for p in state["pieces"].values() if p["kind"] == "mercenary"]
    assert len(names) == len(set(names)), "two mercenaries of one name in the mission (5.1.1)"
    result = resolution.compute(state)
    setup = state["setup"]
    for g in result["guilds"]:
        costs = setup["costs"][str(g["seat"])]
        charges = [
            line
            for line in g["lines"]
            if line.startswith(("Followers enlisted", "Offer won for a contested"))
        ]
        wanted = []
        if result["applies"]:
            if costs["hires"]:
                wanted.append(f"Followers enlisted for the mission: -{costs['hires']} feods")
            if costs["offers"]:
                wanted.append(f"Offer won for a contested mercenary: -{costs['offers']} feods")
        assert charges == wanted, f"seat {g['seat']}'s charges at the close"


def choose(offered: list, rnd: random.Random, stage: str):
    """At the Characters step mostly something else than Next while there is something else,
    so it lasts (picks after a settled contest, the winner freeing his slot...); at the other
    steps any button the page offers. (Leaning away from Next at the mana step too, a Guild
    whose page offers two mana forms and Next re-entered its dice for 100 commands: 4 players,
    seed 80 never reached the first turn within the bound.)"""
    others = [c for c in offered if c.type != S + "next"]
    if stage != "characters":
        return rnd.choice(offered)
    return rnd.choice(others if others and rnd.random() < 0.8 else offered)


def setup_playout(
    players: int,
    seed: int,
    max_commands: int = 600,
    undo_rate: float = 0.05,
    stale_rate: float = 0.1,
):
    """One seeded preparation; ``stale_rate``: how often a seat sends a command its page
    offered when the step began (a phone that has not redrawn: the rules must hold on their
    own, e.g. a Choose of a mercenary a contest gave to another Guild since)."""
    rnd = random.Random(seed)
    sim = new_table(players, seed, rnd)
    ruleset = sim.ruleset
    refused: dict[str, int] = defaultdict(int)
    stale: dict[tuple[int, str], list] = {}
    views = Views(sim)
    secrets = random.Random(f"secrets:{seed}")  # its own draws: the seat choices stay the seed's
    for index in range(max_commands):
        if sim.state["setup"]["stage"] == "play":
            break
        order = list(range(players))
        rnd.shuffle(order)
        seat, offered = order[0], []
        for seat in order:
            offered = ruleset.moves(views(seat), seat)
            if offered:
                break
        assert offered, f"stuck at {sim.state['setup']['stage']} (seed {seed}, command {index})"
        # The page this seat's phone drew when the step began (at Characters: every mercenary
        # of its dormitory has a Choose button).
        stale.setdefault((seat, sim.state["setup"]["stage"]), offered)
        if sim.meta.undo and rnd.random() < undo_rate:
            code = sim.try_send(rnd.randrange(players), "table.undo")
        else:
            if rnd.random() < stale_rate:
                offered = stale[(seat, sim.state["setup"]["stage"])]
            command = choose(offered, rnd, sim.state["setup"]["stage"])
            code = sim.try_send(seat, command.type, command.data)
            assert code != "unknown_command", f"the page offers {command.type!r} (seed {seed})"
        if code is not None:
            refused[code] += 1
        # The secrets every 5 commands and at the first turn (each seat's view twice more).
        last = sim.state["setup"]["stage"] == "play"
        check(
            sim,
            f"seed {seed}, command {index}",
            views,
            secrets if last or index % 5 == 0 else None,
        )
        if index + 1 >= 64 and (index + 1) & index == 0:
            sim.assert_replay_equal()
    sim.assert_replay_equal()
    return sim, refused


@pytest.mark.parametrize("seeds", BLOCKS, ids=lambda r: f"seeds{r.start}-{r.stop - 1}")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_preparations_never_crash_never_stick_and_keep_mercenaries_and_feods(players, seeds):
    settled = taken = 0
    for seed in seeds:
        sim, refused = setup_playout(players, seed)
        assert sim.state["setup"]["stage"] == "play", f"seed {seed} never reached the first turn"
        check_first_turn(sim)
        settled += sum(1 for e in sim.records() if e.type == S + "contest_settled")
        taken += refused.get("mercenary_taken", 0)
    assert settled, "no contest was ever settled: the playouts miss 5.1.1"
    assert taken, "no stale page ever chose a settled mercenary: the playouts miss 5.1.1"


@pytest.mark.parametrize("players, seed", [(3, 30), (4, 10)])
def test_preparations_where_an_undo_follows_the_last_guild_brought(players, seed):
    """Found with ``PLAYOUT_SEEDS=40``: a training mission (no raffle barrier) whose first
    command was a player's Undo took back the server's ``guild_bound`` of the last Guild
    (``available_feods`` then raised KeyError for that seat). 6.4: only a Guild Master brings
    or takes out a Guild; ``guild_bound`` is final now."""
    sim, _ = setup_playout(players, seed)
    assert sim.state["setup"]["stage"] == "play"
    assert sorted(sim.state["setup"]["guilds"]) == [str(s) for s in range(players)]
    check_first_turn(sim)


def test_a_preparation_where_a_ready_guild_lost_its_only_character_to_a_contest():
    """Found with ``PLAYOUT_SEEDS=40`` (2 players, seed 29): Ann tapped Next with one
    mercenary, Bob then chose his own of that name and won the contest (5.1.1); Ann stayed
    ready with no character and the deployment was stuck on her turn."""
    sim, _ = setup_playout(2, 29)
    assert sim.state["setup"]["stage"] == "play"
    check_first_turn(sim)


def test_the_setup_pages_offer_no_choose_for_a_mercenary_another_guild_won():
    """5.1.1: what ``setup_moves`` offers is what the page renders (``_setup.html``)."""
    from .test_lifecycle_contest import settled_for_bob

    t = settled_for_bob()
    types = [(c.type, c.data) for c in t.ruleset.moves(t.view(0), 0)]
    assert (S + "pick", {"character": "m11"}) not in types
    assert (S + "pick", {"character": "m12"}) in types
    assert (S + "pick", {"character": "m11"}) not in [
        (c.type, c.data) for c in t.ruleset.moves(t.view(1), 1)
    ]  # Bob has no m11; his own Vesna (m21) is in his slots: Remove is offered
    assert (S + "unpick", {"character": "m21"}) in [
        (c.type, c.data) for c in t.ruleset.moves(t.view(1), 1)
    ]


def test_a_preparation_where_the_last_guild_at_the_mana_step_keeps_entering_its_dice():
    """Found with ``PLAYOUT_SEEDS=24`` (4 players, seed 80): after a long Characters step
    (6.4.1 "Characters choice phase") three Guilds were ready at the mana step and the fourth,
    whose page offers its mercenary's mana form twice (the dice as rolled, a wrong count) and
    Next, re-entered its dice for 106 commands: the playout's chooser leaned away from Next at
    every step, not only at Characters, and the preparation never reached the first turn within
    its 600 commands. The rules were right (6.4.1 "Pulling cards": a player may enter the roll
    again until Next); the chooser leans away from Next at Characters only."""
    sim, _ = setup_playout(4, 80)
    assert sim.state["setup"]["stage"] == "play"
    check_first_turn(sim)
