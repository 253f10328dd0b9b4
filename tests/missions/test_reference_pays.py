"""The rules reference page's "What a mission pays" (DemLoc rulebook 6.4.1 "resolution phase":
"the Fame points and the feods won (or lost) and any items earned"): the amounts are those the
close pays (``missions.rules.resolution``'s ``DEFAULT_REWARDS``, the mission admin's defaults,
and each active mission's own), never typed again in the page. The amounts expected here are
worked out from the constants and the definitions' fields by the test's own arithmetic (a kill
pays its reward times the killed card's level, 6.4.2 kill counter)."""

import re

import pytest
from django.urls import reverse

from missions.models import MissionDefinition
from missions.rules import resolution
from missions.rules.resolution import DEFAULT_REWARDS

from .reference_pays import CURRENCIES, fetch_pays

pytestmark = pytest.mark.django_db

KINDS = ("mercenary", "follower", "daemon")


def expected_rows(rewards: dict) -> dict[str, dict]:
    """Each row of a pays table from ``rewards`` (the shape of ``DEFAULT_REWARDS``)."""

    def money(pair: dict, sign: int = 1, times: int = 1) -> dict:
        return {c: sign * times * pair.get(c, 0) for c in CURRENCIES}

    rows = {
        "win": money(rewards["win"]),
        "draw": dict.fromkeys(CURRENCIES, 0),
        "loss": money(rewards["loss"], -1),
        "objective": money(rewards["objective"]),
        "relic": money(rewards["relic"]),
        "possessed_escape": money(rewards["possessed_escape"], -1),
    }
    for kind in KINDS:
        for level in range(1, 6):
            rows[f"kill-{kind}-{level}"] = money(rewards["kill"][kind], times=level)
    return rows


def test_the_page_shows_the_amounts_the_close_pays_by_default(client):
    pays = fetch_pays(client)["defaults"]
    assert pays["rows"] == expected_rows(DEFAULT_REWARDS)
    assert pays["heal"] == DEFAULT_REWARDS["heal_feods_per_heart"]
    # The words beside the numbers: the winner's row reads +10 fame, +20 feods.
    html = client.get(reverse("missions:reference")).content.decode()
    win = DEFAULT_REWARDS["win"]
    assert re.search(
        rf'data-row="win"[^>]*><th scope="row">Won the mission<span class="small muted">The '
        rf"winner</span></th><td>\+{win['fame']}</td><td>\+{win['feods']}</td>"
        rf"<td>\+{win['blood_stones']}</td></tr>",
        html,
    )
    kill = DEFAULT_REWARDS["kill"]["mercenary"]
    assert f">+{3 * kill['fame']} / +{3 * kill['feods']}</td>" in html  # level 3
    assert "Feods and blood stones never go below 0" in html


def test_the_mission_admins_defaults_are_the_resolutions():
    """A new mission in the admin pays ``DEFAULT_REWARDS``: the page's default table is what
    such a mission pays."""
    assert MissionDefinition().rewards() == DEFAULT_REWARDS


def test_changing_a_constant_of_the_resolution_changes_the_page(client, monkeypatch):
    before = fetch_pays(client)["defaults"]["rows"]
    monkeypatch.setitem(DEFAULT_REWARDS["win"], "fame", DEFAULT_REWARDS["win"]["fame"] + 27)
    monkeypatch.setitem(DEFAULT_REWARDS["kill"]["daemon"], "feods", 4)
    monkeypatch.setitem(DEFAULT_REWARDS, "heal_feods_per_heart", 9)
    pays = fetch_pays(client)["defaults"]
    assert pays["rows"]["win"]["fame"] == before["win"]["fame"] + 27
    assert pays["rows"]["kill-daemon-5"]["feods"] == 20
    assert pays["heal"] == 9
    assert pays["rows"] == expected_rows(DEFAULT_REWARDS)


def test_each_active_mission_shows_its_own_amounts(client, demo_missions):
    """The demo missions (one pays relics) and a mission edited in the admin: each its table,
    read from its row; an inactive mission has none."""
    definition = demo_missions["relic"]
    pays = fetch_pays(client)
    for d in MissionDefinition.objects.filter(is_active=True):
        got = pays[f"mission-{d.pk}"]
        assert got["rows"] == expected_rows(d.rewards()), d.name
        assert got["heal"] == d.heal_feods_per_heart
    assert pays[f"mission-{definition.pk}"]["rows"]["relic"]["feods"] == definition.relic_feods
    definition.relic_feods = 11
    definition.loss_feods = 7
    definition.save()
    other = demo_missions["waves"]
    other.is_active = False
    other.save()
    pays = fetch_pays(client)
    assert pays[f"mission-{definition.pk}"]["rows"]["relic"]["feods"] == 11
    assert pays[f"mission-{definition.pk}"]["rows"]["loss"]["feods"] == -7
    assert f"mission-{other.pk}" not in pays


def test_the_rows_are_what_the_resolution_adds_for_each_rule():
    """``payouts`` and ``compute`` read one ``rewards``: a state where seat 0 won by its
    objective, killed a level-2 mercenary and a level-1 daemon, and carried a relic token,
    while seat 1 lost, pays what the rows add up to."""
    rewards = {
        **DEFAULT_REWARDS,
        "relic": {"fame": 1, "feods": 3},
        "win": {"fame": 10, "feods": 20, "blood_stones": 2},
    }
    rows = {r["key"]: r for r in resolution.payouts(rewards)}

    def guild(seat):
        return {"guild": {"id": 10 + seat, "name": f"G{seat}"}}

    state = {
        "setup": {
            "mode": "standard",
            "definition": {"rewards": rewards},
            "guilds": {"0": guild(0), "1": guild(1)},
            "costs": {"0": {"hires": 0, "offers": 0}, "1": {"hires": 0, "offers": 0}},
            "picks": {"0": [], "1": []},
            "names": {"0": "Ann", "1": "Bob"},
            "raffle": {},
        },
        "ended": {"reason": "objective", "seat": 0},
        "options": {},
        "players": [
            {"seat": 0, "kills": {"mercenary": {"2": 1}, "daemon": {"1": 1}}, "relics": 1},
            {"seat": 1, "kills": {}, "relics": 0},
        ],
        "pieces": {},
        "order": [],
    }
    result = resolution.compute(state)
    ann, bob = result["guilds"]
    for c in CURRENCIES:
        assert ann[c] == sum(
            rows[k][c] for k in ("win", "objective", "kill-mercenary-2", "kill-daemon-1", "relic")
        )
        assert bob[c] == rows["loss"][c]
