"""What the live path keeps per process, and in how many bytes (docs/performance.md "DemLoc at an evening's scale", sitting
of 2026-12-07 05:57: memory per connected DemLoc phone).

- every HTML string the live path keeps (a character card, a public block, a block rendered
  from its inputs, a region) is 1 byte a character: CPython stores a string with any
  character above U+00FF ("○", "−", "↶", an emoji in a name) in 2 or 4 bytes a character,
  so those are written as numeric character references (``tabletop.blocks.narrow``), which a
  browser reads as the same characters;
- a live region is kept only for the one second render that asks for it (the acting phone's
  answer and the fan-out of its command), not for every view rendered.
"""

import sys
from html import unescape

import pytest

from missions import jinja as missions_jinja
from tabletop import blocks, consumers, services
from tabletop import live as live_reads
from tabletop.fanout import render_views
from tabletop.live import live_context, render_region
from tabletop.rules import Command
from tabletop.seats import seat_from_token, seat_token

BASE_URL = "http://127.0.0.1"


def one_byte(text: str) -> bool:
    """Whether CPython keeps ``text`` in 1 byte a character (every character below U+0100)."""
    return not text or max(map(ord, text)) < 0x100


def test_narrow_writes_what_is_above_latin_1_as_references_and_leaves_the_rest():
    assert blocks.narrow("bleeding 0 \u2192 1 \u25cb\u25cb \U0001f409") == \
        "bleeding 0 &#8594; 1 &#9675;&#9675; &#128009;"
    plain = "<p>Jos\u00e9 \u00d7 2</p>"
    assert blocks.narrow(plain) is plain  # latin-1: 1 byte a character already
    kept = blocks.Kept.of("\n<div id=\"piece-a\">\u2212</div>\n")
    assert kept == '<div id="piece-a">&#8722;</div>' and kept.bid == "piece-a"
    assert blocks.narrow(kept) is kept and kept.whole() == '\n<div id="piece-a">&#8722;</div>\n'


@pytest.mark.django_db
def test_every_kept_demloc_string_is_one_byte_a_character_and_reads_the_same(make_table):
    """A DemLoc card shows its pips as "○" and its token buttons as "−" (rulebook 6.4.2: the
    app shows the counters the players keep): the region, every card kept, every public block
    and every block kept by its inputs are 1 byte a character (``sys.getsizeof`` about their
    length), and the page as a browser reads it still says "○" and "−"."""
    table, seats = make_table("demloc", players=4)
    piece = live_reads.seat_view(table, seats[1])["my_pieces"][0]["id"]
    services.run_command(table, seats[1], Command(
        "demloc.tokens.adjust", {"piece": piece, "token": "bleeding", "delta": 1}))
    blocks.forget_public_blocks()
    missions_jinja.forget_cards()
    live_reads.forget_views()
    table.refresh_from_db()
    region = render_region(live_context(None, table, seats[1], base_url=BASE_URL))
    shown = unescape(region)
    assert "\u25cb" in shown and "\u2212" in shown  # the pips and the minus buttons
    assert one_byte(region), sorted({c for c in region if ord(c) > 0xFF})
    assert sys.getsizeof(region) < len(region) + 200
    cards = [c for kept in missions_jinja._CARDS.values() for c in kept.now.values()]
    assert cards and all(one_byte(c) for c in cards)
    public = [h for _, (_, kept) in blocks._PUBLIC.items() for h in kept.values()
              if isinstance(h, str)]
    assert public and all(one_byte(h) for h in public)
    inputs = [h for kept in blocks._INPUTS.values() for _, h in kept.values()]
    assert inputs and all(one_byte(h) for h in inputs)
    assert all(one_byte(html) for _, html, _ in region.blocks)


@pytest.mark.django_db
@pytest.mark.parametrize("answer_first", [True, False])
def test_only_the_acting_seats_region_is_kept_and_its_answer_and_fan_out_share_it(
        make_table, answer_first):
    """The acting phone's answer and the fan-out of its command send that seat one render,
    whichever is rendered first; no other view's region is kept (each is about 65 KB and no
    second render asks for it), and the one kept is let go once it served."""
    table, seats = make_table("demloc", players=4)
    live_reads.forget_views()
    actor = seats[2]
    piece = live_reads.seat_view(table, actor)["my_pieces"][0]["id"]
    services.run_command(table, actor, Command(
        "demloc.tokens.adjust", {"piece": piece, "token": "bleeding", "delta": 1}))
    table.refresh_from_db()
    views = {(s.pk,): (s, BASE_URL) for s in seats}
    views[("w",)] = (None, BASE_URL)

    def answer():
        return render_region(live_context(None, table, actor, base_url=BASE_URL, seats=seats),
                             reuse=True)

    if answer_first:
        mine = answer()
        assert len(live_reads._REGIONS) == 1
        _, frames, _, _ = render_views(table.pk, views, seats, reuse=True, acting=actor.number)
    else:
        _, frames, _, _ = render_views(table.pk, views, seats, reuse=True, acting=actor.number)
        assert len(live_reads._REGIONS) == 1  # the acting seat's, for its answer
        mine = answer()
    assert frames[(actor.pk,)] is mine
    assert len(live_reads._REGIONS) == 0
    # a phone connecting (no reuse) keeps nothing either
    render_views(table.pk, views, seats)
    assert len(live_reads._REGIONS) == 0


@pytest.mark.django_db
def test_a_phones_socket_keeps_its_seat_without_the_row_a_command_reads_first(make_table):
    """A socket keeps its seat for as long as the phone is connected; the seat found by its
    token comes with the table's row a command would read first (``Table.first_read``: the
    state's JSON text, about 20 KB at a DemLoc table), which a socket never uses."""
    table, seats = make_table("demloc", players=2)
    token = seat_token(seats[1])
    scope = {"type": "websocket", "path": f"/ws/tables/{table.code}/", "client": ("127.0.0.1", 5),
             "headers": [(b"x-seat-token", token.encode()), (b"host", b"127.0.0.1")]}
    assert seat_from_token(token).table.first_read  # what the API's command path is given
    found_table, seat = consumers._find_seat(table.code, None, {}, scope)
    assert found_table.pk == table.pk and seat.pk == seats[1].pk
    assert seat.table.first_read is None
