"""Demon Espionage on the kit with the database: a full game through ``run_command``, replay,
and secrecy of factions, souls and face-down cards in pages, API answers, frames and undo."""

import json

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tabletop import services
from tabletop.errors import RuleViolation
from tabletop.models import Table
from tabletop.rules import Command
from tabletop.seats import cookie_name, seat_token

NINE = {"kind": "troop", "damage": 9, "symbol": "rock"}
DUMMY = {"kind": "dummy"}


def run(table, seat, type_, **data):
    return services.run_command(table, seat, Command(f"espionage.{type_}", data))


def state_of(table):
    table.refresh_from_db()
    return table.state


def play_duel(table, seats, a, b, winner):
    """``a`` challenges ``b``; ``winner`` (a or b) plays a 9, the other the Dummy Corpse."""
    run(table, seats[a], "duel.challenge", opponent=b)
    run(table, seats[a], "duel.card", **(NINE if winner == a else DUMMY))
    run(table, seats[b], "duel.card", **(NINE if winner == b else DUMMY))
    run(table, seats[b], "duel.actions", cards=[])
    run(table, seats[a], "duel.actions", cards=[])


@pytest.mark.django_db
def test_full_four_player_game_through_run_command(client, make_table):
    """Rulebook, How to Play 1-9 with 4 players: the Rebels win every duel until both Shadows
    are eliminated (10 health lost, 10 souls plus 2 extra for the eliminations, 6 left)."""
    table, seats = make_table("espionage", players=4)
    state = state_of(table)
    assert table.status == Table.Status.PLAYING
    assert len(state["soul_deck"]) == 18 and state["reveal_cards"] == 1
    factions = [p["faction"] for p in state["players"]]
    assert sorted(factions) == ["rebel", "rebel", "shadow", "shadow"]
    duels = 0
    while state["phase"] == "playing":
        me = state["active"]
        living = [n for n, p in enumerate(state["players"]) if not p["eliminated"]]
        if factions[me] == "rebel":
            foe = next(n for n in living if factions[n] == "shadow")
            play_duel(table, seats, me, foe, winner=me)
        else:
            foe = next(n for n in living if factions[n] == "rebel")
            play_duel(table, seats, me, foe, winner=foe)
        duels += 1
        state = state_of(table)
    assert duels == 10
    result = state["result"]
    assert result["reason"] == "faction_eliminated" and result["winner"] == "rebel"
    assert len(state["soul_deck"]) == 18 - 12 and result["bonus"] == []
    rebel_souls = [v for p in state["players"] if p["faction"] == "rebel" for v in p["souls"]]
    assert len(rebel_souls) == 12 and result["totals"]["rebel"] == sum(rebel_souls)
    assert result["totals"]["shadow"] == 0
    assert sum(p["revealed"] for p in state["players"]) == 1  # 4 players: the first at 2
    assert table.status == Table.Status.FINISHED
    report = services.table_replay(table)
    assert report["state_matches"] and report["meta_matches"]
    html = page(client, table, seats[1])  # at the end everything is shown to everyone
    assert 'id="es-result"' in html and "Game over." in html
    assert f"Rebel {sum(rebel_souls)}</span>" in html and "Shadow 0</span>" in html
    assert html.count('class="es-rebel">Rebel</td>') == 2
    assert html.count('class="es-shadow">Shadow</td>') == 2
    with pytest.raises(RuleViolation):
        run(table, seats[0], "duel.challenge", opponent=1)


@pytest.mark.django_db
def test_refused_command_changes_nothing(make_table):
    table, seats = make_table("espionage", players=3)
    active = state_of(table)["active"]
    other = (active + 1) % 3
    version = table.version
    with pytest.raises(RuleViolation) as excinfo:
        run(table, seats[other], "duel.challenge", opponent=active)
    assert excinfo.value.code == "not_your_turn"
    table.refresh_from_db()
    assert table.version == version


def page(client, table, seat):
    client.cookies[cookie_name(table.pk)] = seat_token(seat)
    return client.get(f"/t/{table.code}/").content.decode()


def faction_marker(state, n):
    label = {"rebel": "Rebel", "shadow": "Shadow"}[state["players"][n]["faction"]]
    return f'id="my-faction">{label}<'


@pytest.mark.django_db
def test_pages_and_api_show_only_the_own_faction_souls_and_card(client, make_table):
    table, seats = make_table("espionage", players=4)
    state = state_of(table)
    a = state["active"]
    b = (a + 1) % 4
    play_duel(table, seats, a, b, winner=a)  # a now holds one soul
    state = state_of(table)
    a_soul = state["players"][a]["souls"][0]
    for n, seat in enumerate(seats):
        html = page(client, table, seat)
        assert faction_marker(state, n) in html
        assert html.count('id="my-faction"') == 1
        assert html.count("data-faction") == 0  # nobody revealed yet
        assert ('id="my-souls"><' not in html) and (n != a or f'id="my-souls">{a_soul}<' in html)
        if n != a:
            assert 'id="my-souls">none<' in html
        view = client.get(
            f"/api/tables/{table.code}/view", HTTP_X_SEAT_TOKEN=seat_token(seat)
        ).json()["view"]
        assert view["me"]["faction"] == state["players"][n]["faction"]
        assert [p["faction"] for p in view["players"] if p["seat"] != n] == [None] * 3
        assert all(p["souls"] is None for p in view["players"])
    # a face-down card: its owner sees it, the opponent and the others do not
    c = state["active"]
    d = (c + 1) % 4
    run(table, seats[c], "duel.challenge", opponent=d)
    run(table, seats[c], "duel.card", kind="troop", damage=7, symbol="scissors")
    assert "7 Scissors" in page(client, table, seats[c])
    for n in range(4):
        if n != c:
            assert "7 Scissors" not in page(client, table, seats[n])
    # the opponent may not undo the initiator's card (each duelist's own business),
    # and the refusal carries no event data or card
    refused = client.post(
        f"/api/tables/{table.code}/commands",
        {"type": "table.undo"},
        content_type="application/json",
        HTTP_X_SEAT_TOKEN=seat_token(seats[d]),
    )
    assert refused.status_code == 403 and refused.json()["code"] == "not_your_action"
    assert "7 Scissors" not in refused.content.decode() and "damage" not in refused.content.decode()
    # its sender undoes it: the answer carries no event data or card either
    result = client.post(
        f"/api/tables/{table.code}/commands",
        {"type": "table.undo"},
        content_type="application/json",
        HTTP_X_SEAT_TOKEN=seat_token(seats[c]),
    ).json()
    assert "7 Scissors" not in json.dumps(result) and '"damage": 7' not in json.dumps(result)
    assert result["view"]["me"]["faction"] == state["players"][c]["faction"]


@pytest.mark.django_db(transaction=True)
async def test_websocket_frames_hold_only_the_own_faction(make_table):
    from asgiref.sync import sync_to_async

    table, seats = await sync_to_async(make_table)("espionage", players=3)
    state = table.state
    watcher = next(n for n in range(3) if n != state["active"])
    token = await sync_to_async(seat_token)(seats[watcher])
    comm = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.code}/",
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"host", b"127.0.0.1"),
            (b"cookie", f"{cookie_name(table.pk)}={token}".encode()),
        ],
    )
    connected, _ = await comm.connect()
    assert connected
    frame = await comm.receive_from(timeout=5)
    assert faction_marker(state, watcher) in frame and frame.count('id="my-faction"') == 1
    active = state["active"]
    await sync_to_async(services.run_command)(
        table, seats[active], Command("espionage.duel.challenge", {"opponent": watcher})
    )
    await sync_to_async(services.run_command)(
        table,
        seats[active],
        Command("espionage.duel.card", {"kind": "troop", "damage": 8, "symbol": "paper"}),
    )
    # The consumer coalesces: two quick commands may arrive as one frame of the latest state.
    frames = [await comm.receive_from(timeout=5)]
    while "face down" not in frames[-1]:
        frames.append(await comm.receive_from(timeout=5))
    for frame in frames:
        assert "8 Paper" not in frame
        assert faction_marker(state, watcher) in frame and frame.count('id="my-faction"') == 1
    assert "face down" in frames[-1]
    await comm.disconnect()
