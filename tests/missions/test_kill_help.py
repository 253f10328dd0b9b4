"""What the page says "Count a kill" is for (6.4.2 kill counter; 8.1, 8.2 a death by poison),
as the table's options ``kills`` and ``poison_kills`` count: the line under the button in
each seat's live region."""

import re

import pytest

from tabletop import services
from tabletop.live import live_context, render_region, seat_view
from tabletop.rules import Command

pytestmark = pytest.mark.django_db


def help_line(table, seat) -> str:
    html = render_region(live_context(None, table, seat, base_url="http://127.0.0.1"))
    found = re.search(r'<p class="small muted" id="dl-kill-help">(.*?)</p>', html, re.S)
    assert found, "no Count a kill help in the region"
    return " ".join(found.group(1).split())


@pytest.mark.parametrize("options, words, not_words", [
    ({}, ["deaths by the poison they gave", "a death by poison put on by hand"],
     ["a poison death,"]),
    ({"poison_kills": "hand"}, ["a bleeding death, a poison death,"],
     ["the poison they gave"]),
    ({"kills": "hand"}, ["This table enters every kill by hand"], ["poison"]),
])
def test_the_count_a_kill_help_says_what_the_app_counts(make_table, options, words, not_words):
    table, seats = make_table("demloc", players=2, options=options)
    line = help_line(table, seats[0])
    for w in words:
        assert w in line, line
    for w in not_words:
        assert w not in line, line


def test_a_card_killed_by_poison_says_so_6_4_2(make_table):
    """Found by a new user: a character killed by poison showed "killed" and no broken heart
    (0 of 3), with nothing saying why. Its badge says "killed by poison" (its tokens above its
    hit factor, 6.4.2)."""
    table, seats = make_table("demloc", players=2)
    mine = seat_view(table, seats[1])["my_pieces"][0]
    services.run_command(table, seats[1], Command("demloc.tokens.adjust", {
        "piece": mine["id"], "token": "poison", "delta": mine["hit"] + 1}))
    table.refresh_from_db()
    html = render_region(live_context(None, table, seats[0], base_url="http://127.0.0.1"))
    card = html.split(f'id="piece-{mine["id"]}"')[1].split("</summary>")[0]
    assert re.search(r'<span class="badge danger dl-status">killed by poison</span>', card), card
