"""The thumb bar of the card games and the kit's lobby line (docs/playing.md "The thumb bar";
tabletop/KIT.md "Where the page lands"), as each seat's page renders them: the one next step
of the phone whose step it is, with its alert's text and key (``data-bar-prompt``), and
nothing to do on the others; the lobby says what it waits for at its top; a greyed Undo says
why in the game's words."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from tabletop import live as live_reads
from tabletop import services
from tabletop.registry import get_ruleset
from tabletop.rules import Command
from tabletop.seats import cookie_name, seat_token

pytestmark = pytest.mark.django_db


def page_of(table, seat) -> str:
    """The table page as ``seat``'s phone gets it."""
    client = Client()
    client.cookies[cookie_name(table.pk)] = seat_token(seat)
    response = client.get(f"/t/{table.code}/")
    assert response.status_code == 200
    return response.content.decode()


def bar_of(page: str) -> str:
    """The game's part of the bottom bar, its entities read (a card's name with an apostrophe)."""
    start = page.index('id="bottom-bar"')
    return html.unescape(page[start : page.index('<nav class="toolbar">', start)])


def prompt(bar: str) -> str | None:
    found = re.search(r'data-bar-prompt="([^"]*)"', bar)
    return found.group(1) if found else None


def test_the_lobby_says_what_it_waits_for_above_the_code(make_table):
    table, (host,) = make_table("realm", players=1, start=False)
    page = page_of(table, host)
    line = html.unescape(re.search(r'id="lobby-waiting"[^>]*>(.*?)</p>', page).group(1))
    assert line == "Waiting for players: 1 seated, Pixel Demon's Realm needs at least 2."
    assert page.index('id="lobby-waiting"') < page.index('id="join-code"')
    ben = services.seat_join(table=table, name="Ben")
    assert "2 players seated: tap <strong>Start the game</strong> below" in page_of(table, host)
    assert "Waiting for the host to start: 2 players seated." in page_of(table, ben)


def test_the_join_page_button_says_join_table(client, make_table):
    table, _ = make_table("realm", players=1, start=False)
    page = client.get(f"/j/{table.code}/").content.decode()
    assert '<button class="btn btn-primary btn-block">Join table</button>' in page


def test_personimo_bar_carries_the_claim_with_a_link_to_the_market(make_table):
    table, seats = make_table("personimo", players=2)
    state = get_ruleset("personimo").load(table.state)
    actor = state["actor"]["seat"]
    mine, other = bar_of(page_of(table, seats[actor])), bar_of(page_of(table, seats[1 - actor]))
    assert prompt(mine) == "Your turn: claim a card of the market."
    assert f'data-bar-prompt-key="{table.code}-claim-1-' in mine
    assert 'href="#pm-market" id="pm-go">Show the market</a>' in mine
    assert prompt(other) is None and "Waiting for" in other and "pm-go" not in other


def test_personimo_bar_names_the_card_to_place_and_links_to_it(make_table):
    table, seats = make_table("personimo", players=2)
    game = get_ruleset("personimo")
    state = game.load(table.state)
    actor = state["actor"]["seat"]
    for _ in range(20):  # every claim of the row, then the first placement
        view = live_reads.seat_view(table, seats[actor])
        if view["placing"]:
            break
        services.run_command(table, seats[actor], game.moves(view, actor)[0])
        table.refresh_from_db()
        actor = game.load(table.state)["actor"]["seat"]
    placer = actor
    name = view["placing"]["card"]["name"]
    bar = bar_of(page_of(table, seats[placer]))
    assert prompt(bar) == f"Your turn: place {name}."
    assert f'href="#pm-mine" id="pm-go">Show {name}</a>' in bar


def test_personal_demons_ready_and_place_face_down_are_in_the_bar(make_table):
    """Setup (rulebook "Setup" H and J): Ready is a bar button sending the page's setup form,
    which has no button of its own; the place step: Place face down, sending the place form."""
    table, seats = make_table("personal_demons", players=2)
    page = page_of(table, seats[1])
    bar = bar_of(page)
    assert 'form="pd-setup" id="pd-ready">Ready</button>' in bar
    assert prompt(bar) == "Setup: your Fear's space and two Personal Demons, then Ready."
    setup_form = re.search(r'<form[^>]*id="pd-setup".*?</form>', page, re.S).group(0)
    assert "<button" not in setup_form
    for seat in seats:
        state = table.state
        keep = state["players"][seat.number]["candidates"][:2]
        services.run_command(
            table, seat, Command("pd.setup.choose", {"fear_space": [3, 3], "keep": keep})
        )
        table.refresh_from_db()
    bar = bar_of(page_of(table, seats[0]))
    assert 'form="pd-place" id="pd-place-down">Place face down</button>' in bar
    assert prompt(bar) == "Turn 1: pick a card and a space, then Place face down."
    assert f'data-bar-prompt-key="{table.code}-place-1-1"' in bar


def test_a_greyed_undo_says_why_in_the_games_words_on_the_page(make_table):
    table, seats = make_table("personimo", players=2)
    bar = page_of(table, seats[0])
    assert re.search(r'<small class="undo-why" id="undo-why">market dealt</small>', bar)


def test_personal_demons_with_real_cards_has_ready_in_the_bar(make_table):
    """A physical table (rulebook "Summoning Phase", the Leader's cadence): the phone's one
    next step, Ready once the step is done at the table, is in the bar with its alert; once
    tapped the bar says who is not ready yet."""
    table, seats = make_table("personal_demons", players=2, options={"table": "physical"})
    bar = bar_of(page_of(table, seats[0]))
    assert '<input type="hidden" name="type" value="pd.phys.ready">' in bar
    assert prompt(bar) == "Place: tap Ready when it is done at the table."
    services.run_command(table, seats[0], Command("pd.phys.ready"))
    table.refresh_from_db()
    bar = bar_of(page_of(table, seats[0]))
    assert "pd.phys.ready" not in bar and prompt(bar) is None
    assert "Not ready yet: <strong>P2</strong>" in bar
