"""Two Guilds play three standard missions in a row, ended three ways, each closed into the
Guilds (DemLoc rulebook 6.4.1 "resolution phase", 7.3.2.3, 6.4 "disconnecting"), the way two
Guild Masters' phones do it: every step is a request to the app (the missions API to open,
bring the Guilds, leave, close and play another; the tables API for every tap of the
preparation and the mission, each phone reading its own view to find its buttons).

1. "Six Bells to Dawn" (turns, limit 2): Bob's Ash dies (his phone puts the third broken heart),
   Ann counts the kill (6.4.2 kill counter), her Wren takes a broken heart; the last turn ends
   and Ann ends the mission: Ann wins on kills (7.3.2.3 turn limit).
2. Another mission with the same players: "The Drowned Bell" (objective): Bob claims the
   objective at the end of the turn and Ann confirms it: Bob wins by his objective.
3. Another: "Hold the Salt Market" (control): Ann's Fenn kills Bob's Moss, Ann's Rook takes two
   broken hearts, then Bob's Guild leaves the mission (his Elm escapes): nobody is left against
   Ann, who wins by total elimination; the mission closes at once.

After each close both Guilds' ledger rows (fame, feods, blood stones), their mercenaries'
fates and the control spot are compared with what the test works out from the amounts the rules
reference page (``/missions/reference/``) states for that mission, read before it is played.
"""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from guilds import models as gm
from missions import services
from missions.models import Mission
from tests.guilds.factories import AreaFactory, MercenaryCardFactory

from .lifecycle_flow import build_guild
from .reference_pays import CURRENCIES, fetch_pays

pytestmark = pytest.mark.django_db


class Phone:
    """A Guild Master's phone: signed in, it sends what its page's buttons send."""

    def __init__(self, guild):
        self.guild = guild
        self.client = APIClient()
        self.client.force_authenticate(guild.master)
        self.code = ""

    def post(self, url, body=None, status=200):
        response = self.client.post(url, body or {}, format="json")
        assert response.status_code == status, (url, response.status_code, response.content)
        return response.json() if response.content else None

    def send(self, type_, **data):
        """A tap: the command to the table's API."""
        return self.post(f"/api/tables/{self.code}/commands", {"type": type_, "data": data})

    def view(self):
        response = self.client.get(f"/api/tables/{self.code}/view")
        assert response.status_code == 200, response.content
        return response.json()["view"]

    def setup(self):
        return self.view()["setup"]


def play_preparation(phones, picks):
    """Every phone through the preparation (6.4.1) as its page offers it: Next, Choose its
    characters by name, Next to the end, then each places its miniatures in turn in an area
    its page offers."""
    while (s := phones[0].setup())["stage"] != "characters":
        for phone in phones:
            if not phone.setup()["i_ready"]:
                phone.send("demloc.setup.next")
    for phone, names in zip(phones, picks, strict=True):
        roster = {c["name"]: c["id"] for c in phone.setup()["my_free_roster"]}
        for name in names:
            phone.send("demloc.setup.pick", character=roster[name])
    while (s := phones[0].setup())["stage"] != "deployment":
        for phone in phones:
            if not phone.setup()["i_ready"]:
                phone.send("demloc.setup.next")
    while (s := phones[0].setup())["stage"] == "deployment":
        for phone in phones:
            mine = phone.setup()
            if mine["my_deploy_turn"]:
                phone.send(
                    "demloc.setup.deploy",
                    character=mine["to_place"][0]["id"],
                    area=mine["my_areas"][0],
                )
    while "setup" in phones[0].view():
        for phone in phones:
            view = phone.view()
            if "setup" in view and not view["setup"]["i_ready"]:
                phone.send("demloc.setup.next")
    assert s is not None


def piece(phone, owner, name):
    return next(
        p["id"] for p in phone.view()["pieces"] if p["owner"] == owner and p["name"] == name
    )


def finish_turn(phones):
    """Each player passes both phases in the order the app says (7.2, 7.3)."""
    while (view := phones[0].view())["phase"] != "end":
        phones[view["acting"]].send("demloc.phase.next")


def ledger(guild, mission) -> dict[str, int]:
    rows = gm.LedgerEntry.objects.filter(
        guild=guild, reference=services.mission_reference(mission.pk)
    )
    return {c: sum(r.amount for r in rows if r.currency == c) for c in CURRENCIES}


def added(pays, *keys) -> dict[str, int]:
    """The page's rows ``keys`` added up (a key twice: twice)."""
    return {c: sum(pays["rows"][k][c] for k in keys) for c in CURRENCIES}


def fates(guild) -> dict[str, tuple[str, int]]:
    return {m.card.name: (m.status, m.heal_feods) for m in guild.mercenaries.all()}


def check_close(mission, guilds, balances, expected, want_fates, winner):
    """The close (6.4.1): each Guild's ledger rows for the mission and its balance moved by
    what the page says (``balances``: each Guild's before the close, moved on here); the
    mercenaries' fates; the control spot drawn went to the winner."""
    mission.refresh_from_db()
    assert mission.closed_at is not None
    for guild, before, want in zip(guilds, balances, expected, strict=True):
        assert ledger(guild, mission) == want, guild.name
        guild.refresh_from_db()
        assert (guild.fame, guild.feods, guild.blood_stones) == tuple(
            before[c] + want[c] for c in CURRENCIES
        ), guild.name
        for c in CURRENCIES:
            before[c] += want[c]
    for guild, want in zip(guilds, want_fates, strict=True):
        assert fates(guild) == want, guild.name
    point = mission.table.state["setup"]["raffle"]["point"]
    assert point is not None, "a standard mission draws a control spot (6.4.1 raffle)"
    assert gm.ControlPoint.objects.get(pk=point["id"]).holder_id == winner.pk


def test_three_missions_between_two_guilds_closed_three_ways(client, demo_missions):
    # A Guild holds two hunters at most (5.1.1 dormitory): the third of each is a belligerent.
    for name in ("Fenn", "Moss"):
        MercenaryCardFactory(
            name=name, type="belligerent", area=AreaFactory(), hit_factor=3, armor=3
        )
    ash = build_guild("House Ash", "red", ("Rook", "Wren", "Fenn"), fame=20, feods=100)
    birch = build_guild("House Birch", "blue", ("Ash", "Elm", "Moss"), fame=20, feods=100)
    gm.ControlPoint.objects.create(name="Salt Gate", area=AreaFactory(), kind="market")
    balances = [{c: getattr(g, c) for c in CURRENCIES} for g in (ash, birch)]
    ann, bob = Phone(ash), Phone(birch)
    phones = [ann, bob]
    turns = demo_missions["turns"]
    turns.turn_limit = 2  # two turns, not six: the same mission, shorter
    turns.save()
    page = fetch_pays(client)  # what the players read before playing
    heal = {k: t["heal"] for k, t in page.items()}

    # 1. Won on kills at the turn limit.
    opened = ann.post(
        reverse("missions:api_open"),
        {"definition": turns.pk, "mode": "standard", "options": {"kills_win": "count"}},
        status=201,
    )
    first = Mission.objects.get(pk=opened["mission_id"])
    ann.code = bob.code = opened["code"]
    bob.post(f"/api/tables/{bob.code}/join", {"name": "House Birch"}, status=201)
    ann.send("table.start")
    for phone in phones:
        phone.post(reverse("missions:api_bind", args=[first.pk]), status=204)
    play_preparation(phones, [["Rook", "Wren"], ["Ash", "Elm"]])
    bob.send("demloc.tokens.adjust", piece=piece(bob, 1, "Ash"), token="broken_hearts", delta=3)
    ann.send("demloc.kill.count", kind="mercenary", level=1)
    ann.send("demloc.tokens.adjust", piece=piece(ann, 0, "Wren"), token="broken_hearts", delta=1)
    finish_turn(phones)
    ann.send("demloc.turn.next")
    finish_turn(phones)
    assert ann.view()["can_end"]
    ann.send("demloc.mission.end")
    result = bob.post(reverse("missions:api_close", args=[first.pk]))
    assert (result["winner"], result["how"]) == (0, "kills")
    pays = page[f"mission-{turns.pk}"]
    check_close(
        first,
        (ash, birch),
        balances,
        [added(pays, "win", "kill-mercenary-1"), added(pays, "loss")],
        [
            {
                "Rook": ("active", 0),
                "Wren": ("injured", heal[f"mission-{turns.pk}"]),
                "Fenn": ("active", 0),
            },
            {"Ash": ("dead", 0), "Elm": ("active", 0), "Moss": ("active", 0)},
        ],
        ash,
    )

    # 2. Another mission, the same players: the objective achieved.
    objective = demo_missions["objective"]
    pays = page[f"mission-{objective.pk}"]
    opened = bob.post(
        reverse("missions:api_continue", args=[first.pk]),
        {"definition": objective.pk, "mode": "standard"},
        status=201,
    )
    second = Mission.objects.get(pk=opened["mission_id"])
    ann.code = bob.code = opened["code"]
    play_preparation(phones, [["Rook"], ["Elm", "Moss"]])
    finish_turn(phones)
    bob.send("demloc.objective.achieve")
    ann.send("demloc.objective.answer", agree=True)
    result = ann.post(reverse("missions:api_close", args=[second.pk]))
    assert (result["winner"], result["how"]) == (1, "objective")
    check_close(
        second,
        (ash, birch),
        balances,
        [added(pays, "loss"), added(pays, "win", "objective")],
        [
            {
                "Rook": ("active", 0),
                "Wren": ("injured", heal[f"mission-{turns.pk}"]),
                "Fenn": ("active", 0),
            },
            {"Ash": ("dead", 0), "Elm": ("active", 0), "Moss": ("active", 0)},
        ],
        birch,
    )

    # 3. Another: Bob's Guild leaves the mission; nobody is left against Ann.
    control = demo_missions["control"]
    pays = page[f"mission-{control.pk}"]
    opened = ann.post(
        reverse("missions:api_continue", args=[second.pk]),
        {"definition": control.pk, "mode": "standard"},
        status=201,
    )
    third = Mission.objects.get(pk=opened["mission_id"])
    ann.code = bob.code = opened["code"]
    play_preparation(phones, [["Rook", "Fenn"], ["Elm", "Moss"]])
    bob.send("demloc.tokens.adjust", piece=piece(bob, 1, "Moss"), token="broken_hearts", delta=3)
    ann.send("demloc.kill.count", kind="mercenary", level=1)
    ann.send("demloc.tokens.adjust", piece=piece(ann, 0, "Rook"), token="broken_hearts", delta=2)
    left = bob.post(reverse("missions:api_leave", args=[third.pk]))
    assert left == {"left": "play", "closed": True}
    result = ann.post(reverse("missions:api_close", args=[third.pk]))  # closed already: the same
    assert (result["winner"], result["how"]) == (0, "elimination")
    check_close(
        third,
        (ash, birch),
        balances,
        [added(pays, "win", "kill-mercenary-1"), added(pays, "loss")],
        [
            {
                "Rook": ("injured", 2 * heal[f"mission-{control.pk}"]),
                "Wren": ("injured", heal[f"mission-{turns.pk}"]),
                "Fenn": ("active", 0),
            },
            {"Ash": ("dead", 0), "Elm": ("active", 0), "Moss": ("dead", 0)},
        ],
        ash,
    )
