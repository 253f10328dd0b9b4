"""A DemLoc table seen by a phone that only watches it (a spectator, a seat-less public screen):
the whole public table live (cards, damage, turn, log; DemLoc's information is public, 6.4.2)
and no control that would send a command, in every phase of a mission; a command it sends
anyway is refused with ``not_seated`` and changes nothing (KIT.md section 1). The pages are
fetched and the commands posted as the browser does (``GET /t/<code>/``, an htmx POST)."""

from __future__ import annotations

import pytest
from django.test import Client

from missions import services as mission_services
from missions.rules import DemlocRuleset
from missions.rules.setup import STAGES
from missions.rules.setup_stages import deployment_areas
from tabletop import services as table_services
from tabletop.errors import NotFound
from tabletop.models import Event
from tabletop.rules import Command
from tests.tabletop.test_watcher_pages import controls

from .lifecycle_flow import all_next, build_guild, cmd, open_table, roster_id, state

pytestmark = pytest.mark.django_db


def page(client: Client, table) -> str:
    response = client.get(f"/t/{table.code}/")
    assert response.status_code == 200
    return response.content.decode()


def acting_seat(table):
    s = state(table)
    return table.seats.get(number=s["play_order"][s["acting_index"]])


def test_a_watcher_sees_a_worked_out_shot_but_no_apply_or_cancel(make_table):
    table, (ann, bob) = make_table("demloc")
    cmd(
        table,
        ann,
        "shot.propose",
        shooter="s0-korr:0",
        target="s1-gunner",
        test_roll=1,
        dice=[6, 6, 6],
    )
    seated = Client()
    seated.cookies.update(page_cookies(ann))
    mine = page(seated, table)
    assert 'value="demloc.calc.apply"' in mine  # the players' page offers it
    html = page(Client(), table)
    assert 'id="dl-pending"' in html and "The players apply or cancel it." in html
    # Every Guild's cards (the watcher has none of its own), folded open.
    assert "Korr Halfhand" in html and "Maud Brinewitch" in html
    assert "Your characters" not in html and "The guilds" in html
    assert controls(html) == []


def page_cookies(seat):
    """The cookie a phone holding ``seat`` sends (what ``tabletop.seats.remember_seat`` set)."""
    from django.http import HttpResponse

    from tabletop.seats import remember_seat

    response = HttpResponse()
    remember_seat(response, seat)
    return response.cookies


@pytest.mark.parametrize("control", ["owner", "anyone"])
def test_a_watcher_has_no_turn_bar_buttons_in_any_phase_nor_with_shared_control(
    make_table, control
):
    table, seats = make_table("demloc", options={"control": control})
    watcher = Client()
    seen = set()
    for _ in range(2):  # two turns: strategic, brawl and turn end each
        while state(table)["phase"] != "end":
            seen.add(state(table)["phase"])
            html = page(watcher, table)
            assert controls(html) == [] and 'id="dl-turn"' in html
            cmd(table, acting_seat(table), "phase.next")
        seen.add("end")
        html = page(watcher, table)
        assert controls(html) == [] and "Next first player" in html
        cmd(table, seats[0], "turn.next")
    assert seen == {"strategic", "brawl", "end"}
    # Everyone agrees to stop: the mission is over, and the watcher sees how it ended.
    for seat in seats:
        cmd(table, seat, "surrender.vote", agree=True)
    html = page(watcher, table)
    assert "Mission over" in html and controls(html) == []


def test_a_watcher_follows_the_preparation_without_its_controls(make_guild, demo_missions):
    a = build_guild("House Ash", "red", ("Rook",), arcane=2)
    b = build_guild("House Birch", "blue", ("Ash",))
    mission, table, (sa, sb) = open_table([a, b], demo_missions["waves"])
    # A third Guild Master with no seat here, logged in (their guest Guilds are not offered).
    elm = make_guild("House Elm", "green", ("Fir",))
    watcher = Client()
    watcher.force_login(elm.master)
    stages = []

    def check():
        html = page(watcher, table)
        stage = state(table)["setup"]["stage"]
        stages.append(stage)
        assert controls(html) == [], stage
        assert "Your slots" not in html and "Pull your cards" not in html, stage
        return html

    while state(table)["setup"]["stage"] != "characters":
        check()
        all_next(table, [sa, sb])
    cmd(table, sa, "setup.pick", character=roster_id(table, sa, "Rook"))
    cmd(table, sb, "setup.pick", character=roster_id(table, sb, "Ash"))
    html = check()
    assert "Rook" in html and "Ash" in html  # what each Guild chose is public
    all_next(table, [sa, sb])
    assert state(table)["setup"]["stage"] == "mana"
    check()
    cmd(table, sa, "setup.mana", character=roster_id(table, sa, "Rook"), common=1, dark=1, seals=0)
    check()
    all_next(table, [sa, sb])  # -> miniatures
    check()
    all_next(table, [sa, sb])  # -> deployment
    while (s := state(table)["setup"])["stage"] == "deployment":
        html = check()
        assert "places a miniature" in html
        acting = table.seats.get(number=s["deploy"]["acting"])
        todo = next(
            p["id"]
            for p in s["picks"][str(acting.number)]
            if f"s{acting.number}-{p['id']}" not in s["deploy"]["placed"]
        )
        cmd(
            table,
            acting,
            "setup.deploy",
            character=todo,
            area=deployment_areas(s, acting.number)[0],
        )
    check()
    all_next(table, [sa, sb])
    assert state(table)["setup"]["stage"] == "play"
    html = page(watcher, table)
    assert controls(html) == [] and "Rook" in html
    assert set(STAGES) - {"play"} <= set(stages)  # every preparation stage (6.4.1) was watched
    # The end (everyone agrees to stop): the result is shown, Close and Continue are the
    # players'.
    for seat in (sa, sb):
        cmd(table, seat, "surrender.vote", agree=True)
    html = page(watcher, table)
    assert 'id="dl-winner"' in html and controls(html) == []
    mission_services.mission_close(mission_id=mission.pk)
    html = page(watcher, table)
    assert 'id="dl-closed"' in html and "Battle report" in html and controls(html) == []


def test_every_command_of_a_watcher_is_refused_with_not_seated(make_table):
    """Each DemLoc command type and each mission action (bring, guest, leave, close, continue),
    posted as the page's forms post them, by a phone with no seat."""
    table, seats = make_table("demloc")
    before = Event.objects.filter(table=table).count()
    watcher = Client()
    types = sorted(DemlocRuleset().registry.commands)
    assert len(types) > 30 and "demloc.calc.apply" in types
    for type_ in [*types, "table.undo", "table.redo"]:
        response = watcher.post(
            f"/t/{table.code}/command/",
            {"type": type_, "expected_version": table.version, "idempotency_key": type_},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 404, type_
        assert 'data-code="not_seated"' in response.content.decode(), type_
    for name in ("bind", "guest", "leave", "close", "continue"):
        response = watcher.post(
            f"/missions/t/{table.code}/{name}/", {}, headers={"HX-Request": "true"}
        )
        assert response.status_code == 404, name
        assert 'data-code="not_seated"' in response.content.decode(), name
    # The JSON API refuses it the same way.
    response = watcher.post(
        f"/api/tables/{table.code}/commands",
        {"type": "demloc.phase.next"},
        content_type="application/json",
    )
    assert response.status_code == 404 and response.json()["code"] == "not_seated"
    assert Event.objects.filter(table=table).count() == before
    # And the kit's one write path, whoever calls it.
    with pytest.raises(NotFound) as info:
        table_services.run_command(table, None, Command("demloc.phase.next"))
    assert info.value.code == "not_seated"


def test_a_dead_characters_card_shows_no_mana_nor_counter_buttons_5_1_1(make_table):
    """Found by a new user: a killed character's card still showed its mana and the + / − of
    its mana cubes (refused: ``not_in_play``). Killed, a character is "eliminated from the
    game" (5.1.1): its card keeps its damage and tokens, read only, and shows no mana."""
    table, (ann, bob) = make_table("demloc")
    cmd(table, ann, "mana.adjust", piece="s0-vesna", colour="common", delta=1)
    ann_phone = Client()
    ann_phone.cookies.update(page_cookies(ann))

    def card(html: str, pid: str) -> str:
        return html.split(f'id="piece-{pid}"')[1].split("</article>")[0]

    alive = card(page(ann_phone, table), "s0-vesna")
    assert "mana 1+0" in alive and 'value="demloc.mana.adjust"' in alive
    cmd(table, ann, "tokens.adjust", piece="s0-vesna", token="broken_hearts", delta=3)
    assert state(table)["pieces"]["s0-vesna"]["status"] == "killed"
    for phone in (ann_phone, Client()):
        dead = card(page(phone, table), "s0-vesna")
        assert "killed" in dead and "Broken hearts" in dead
        assert "mana" not in dead.lower() and "Arcane</summary>" not in dead
        assert "<form" not in dead  # nothing on it would be accepted
    # The other cards of the same player keep theirs.
    assert 'value="demloc.tokens.adjust"' in card(page(ann_phone, table), "s0-korr")


def test_an_ended_game_shows_no_kill_buttons_and_each_card_says_its_fate_7(make_table):
    """Found by a new user: a closed mission's page still showed the "−1" kill buttons
    (tapping one: "This game is over.") and labelled every card "active", the killed ones
    too. Over (7 "ending the game"), nothing there can change: the cards say each
    character's fate (killed, escaped, in play at the end)."""
    table, (ann, bob) = make_table("demloc")
    cmd(table, bob, "tokens.adjust", piece="s1-bram", token="broken_hearts", delta=3)
    cmd(table, ann, "kill.count", kind="mercenary", level=1, delta=1)
    ann_phone = Client()
    ann_phone.cookies.update(page_cookies(ann))

    def card(html: str, pid: str) -> str:
        return html.split(f'id="piece-{pid}"')[1].split("</article>")[0]

    playing = page(ann_phone, table)
    assert 'aria-label="Remove one mercenary level 1 kill"' in playing
    assert ">active</span>" in card(playing, "s0-korr")
    for seat in (ann, bob):
        cmd(table, seat, "surrender.vote", agree=True)
    assert state(table)["ended"] is not None
    over = page(ann_phone, table)
    assert "Remove one mercenary level 1 kill" not in over
    assert "mercenary L1 × 1" in over
    assert 'dl-fate">killed</span>' in card(over, "s1-bram")
    korr = card(over, "s0-korr")
    assert 'dl-fate">in play at the end</span>' in korr and ">active</span>" not in korr
