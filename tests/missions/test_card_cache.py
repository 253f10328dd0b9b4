"""DemLoc's cards are kept across versions (``missions.jinja.piece_card``):
every frame the fan-out renders with the cards kept from the earlier states is the very HTML it
is when rendered from scratch, through random missions whose players choose among the commands
their pages offer (DemLoc 6.4.2), with the table options that change what a card shows."""


import pytest

from missions import jinja as missions_jinja
from missions.rules import view as view_module
from tabletop import blocks, services
from tabletop import live as live_reads
from tabletop.fanout import render_views
from tabletop.rules import Command
from tests.missions.random_missions import walk

pytestmark = pytest.mark.django_db(transaction=True)  # committed rows, as the fan-out reads them

BASE_URL = "http://127.0.0.1"


def frames(table_id, seats):
    views = {("watching",): (None, BASE_URL), **{(s.pk,): (s, BASE_URL) for s in seats}}
    return render_views(table_id, views, list(seats))[1]


@pytest.mark.parametrize("seed, players, options", [
    (11, 2, {"turn_limit": "3"}),
    (12, 3, {"turn_limit": "3", "control": "anyone"}),  # every card editable by every seat
    (13, 2, {"turn_limit": "3", "free_possessed": "penalty", "hand_test": "penalty"}),
    (14, 4, {}),
])
def test_kept_cards_leave_every_frame_as_rendered_from_scratch(make_table, seed, players,
                                                               options):
    table, seats = make_table("demloc", players=players, options=options)
    missions_jinja.forget_cards()
    compared = 0
    hits_before = missions_jinja.card_hits
    for step, now in walk(table, seats, seed, 70):
        kept = frames(now.pk, seats)  # with the cards of the states before
        missions_jinja.forget_cards()
        live_reads.forget_views()  # the regions and views rendered again, not kept
        fresh = frames(now.pk, seats)  # also what the next state finds kept
        assert kept == fresh, (step, now.version)
        compared += 1
    assert compared >= 10
    assert missions_jinja.card_hits > hits_before  # cards were reused: the test compared them


def card_html(regions) -> set:
    return {html for region in regions.values() for bid, html, _ in region.blocks
            if bid.startswith("piece-")}


def bleed(table, seat, delta=1):
    piece = live_reads.seat_view(table, seat)["my_pieces"][0]["id"]
    services.run_command(table, seat, Command(
        "demloc.tokens.adjust", {"piece": piece, "token": "bleeding", "delta": delta}))


def test_the_cache_is_bounded(make_table):
    """Cards are kept for ``CARD_TABLES_KEPT`` tables (the least recently rendered let go),
    and for each table only those its newest state shows and those of the state before."""
    first, first_seats = make_table("demloc", players=2)
    table, seats = make_table("demloc", players=2)
    missions_jinja.forget_cards()
    old = missions_jinja.CARD_TABLES_KEPT
    missions_jinja.CARD_TABLES_KEPT = 1
    try:
        frames(first.pk, first_seats)
        shown = card_html(frames(table.pk, seats))
        assert list(missions_jinja._CARDS) == [table.pk]
        kept = missions_jinja._CARDS[table.pk]
        assert set(kept.now.values()) == shown and not kept.before
        bleed(table, seats[0])
        table.refresh_from_db()
        now = card_html(frames(table.pk, seats))
        assert kept.version == table.version
        # the cards the command left as they were moved on, the bled one's old ones stayed
        assert set(kept.now.values()) == now and set(kept.before.values()) == shown - now
        assert 0 < len(kept.before) <= 3
    finally:
        missions_jinja.CARD_TABLES_KEPT = old
        missions_jinja.forget_cards()


def test_a_table_finds_its_unchanged_cards_whatever_other_tables_were_rendered(make_table):
    """A process serving many tables renders, at a table's next command, only the cards the
    command changed: it kept them by table. Found by the evening benchmark (docs/performance.md "DemLoc at an evening's scale",
    sitting of 2026-12-07 05:57): the newest 1,024 cards of any table held 32 four-player
    tables' worth, so with more tables every card of every view was rendered again at every
    command."""
    tables = [make_table("demloc", players=4) for _ in range(34)]
    missions_jinja.forget_cards()
    for table, seats in tables:  # every phone of every table connects
        frames(table.pk, seats)
    table, seats = tables[0]
    bleed(table, seats[1])
    renders, hits = missions_jinja.card_renders, missions_jinja.card_hits
    frames(table.pk, seats)
    # the bled piece's card: as its owner, the other seats and a watcher see it
    assert missions_jinja.card_renders - renders <= 3
    assert missions_jinja.card_hits - hits >= 30


def test_a_card_key_is_its_values_exactly(make_table):
    """Two cards share a key only when their values are the same (the key is their exact
    serialisation, no digest that two cards could share): a number and its float, a flag and
    its number, the same fields in another order are other keys; the same piece, its key."""
    table, seats = make_table("demloc", players=2)
    piece = live_reads.seat_view(table, seats[0], live=True)["my_pieces"][0]
    key = missions_jinja.lazy_card_key
    assert key(piece, "", "/c") == key(dict(piece), "", "/c")
    assert key({**piece, "hits": 1}, "", "/c") != key({**piece, "hits": 1.0}, "", "/c")
    assert key({**piece, "x": True}, "", "/c") != key({**piece, "x": 1}, "", "/c")
    assert key({"x": 1, **piece}, "", "/c") != key({**piece, "x": 1}, "", "/c")
    assert key(piece, "/f", "/c") != key(piece, "", "/c")
    assert missions_jinja.marshal.loads(key(piece, "", "/c")[1:])[0]["id"] == piece["id"]


def test_a_state_reads_the_url_configuration_once(make_table, monkeypatch):
    """The cards' forms URLs are reversed for the URLconf and script prefix the region's
    context read once for the state (``tabletop.live.table_shared``): no card reads them again
    (each read is a context-local look-up, two for every card of every view)."""
    table, seats = make_table("demloc", players=2)
    reads = []

    def counted():
        reads.append(1)
        return None

    monkeypatch.setattr(missions_jinja, "get_urlconf", counted)
    missions_jinja.forget_cards()
    live_reads.forget_views()
    html = frames(table.pk, seats)
    assert any(f"/t/{table.code}/sheet/" in h for h in html.values())  # cards with forms
    assert reads == []


def test_a_kept_card_is_one_string_in_every_frame_that_shows_it(make_table):
    """The element of a card found kept is the very string the card's first frame holds
    (``tabletop.blocks.Kept``: cut once), in every view and in the next states' frames: a
    process keeps each card's HTML once, not once per frame kept (``render_region``) and per
    table state's public blocks. Frames as rendered from scratch: the test above."""
    table, seats = make_table("demloc", players=2)
    missions_jinja.forget_cards()
    live_reads.forget_views()
    first = frames(table.pk, seats)
    cards = {}
    for frame in first.values():
        for bid, html, _ in frame.blocks:
            if bid.startswith("piece-"):
                cards.setdefault((bid, html), []).append(html)
    shared = [found for found in cards.values() if len(found) > 1]
    assert shared  # a card every view shows alike (another Guild's)
    assert all(all(h is found[0] for h in found) for found in shared)
    kept = {id(h) for found in cards.values() for h in found}
    live_reads.forget_views()  # the regions and public blocks rendered again: only the
    blocks.forget_public_blocks()  # cards are kept
    again = frames(table.pk, seats)
    for frame in again.values():
        for bid, html, _ in frame.blocks:
            if bid.startswith("piece-"):
                assert id(html) in kept, bid


def test_an_unchanged_card_of_a_new_state_is_found_by_a_key_kept_with_its_piece(make_table):
    """After a command that changed one piece, the fan-out of the new state (a new state
    object, read from the row) works out the key of that piece's cards only: every other
    piece of each view comes with its card's key (``SeatPiece.card_key``), worked out at the
    state before for its common view shown alike (``missions.rules.view._seat_piece``), so
    its card is found by a dict look-up, where the key of each of the cards of a command was
    the largest part of rendering them (docs/performance.md "DemLoc at an evening's
    scale")."""
    table, seats = make_table("demloc", players=4)
    missions_jinja.forget_cards()
    live_reads.forget_views()
    view_module.forget_commons()  # (another table's pieces may be these very ones)
    frames(table.pk, seats)  # every phone connects
    bled = live_reads.seat_view(table, seats[1], live=True)["my_pieces"][0]["id"]
    bleed(table, seats[1])
    table.refresh_from_db()
    after = live_reads.seat_view(table, seats[0], live=True)["pieces"]
    assert [getattr(p, "card_key", None) is not None for p in after] == \
        [p["id"] != bled for p in after]
    keys, renders, hits = (missions_jinja.card_keys, missions_jinja.card_renders,
                           missions_jinja.card_hits)
    frames(table.pk, seats)
    # the bled piece's card as its owner sees it and as every other phone does
    assert missions_jinja.card_keys - keys == 2
    assert 0 < missions_jinja.card_renders - renders <= 3  # the bled piece's cards alone
    assert missions_jinja.card_hits - hits >= 30
