"""The fan-out renders each card nobody at a phone can edit once per state and shares it among
the views (``missions.jinja.piece_card``: DemLoc's public table): every view
rendered with the others is the very HTML it is when rendered alone, through random missions
of four players choosing among the commands their pages offer (DemLoc 6.4.2)."""


import pytest

from tabletop.fanout import render_views
from tests.missions.random_missions import walk

pytestmark = pytest.mark.django_db(transaction=True)  # committed rows, as the fan-out reads them

BASE_URL = "http://127.0.0.1"


def renders(table_id, seats):
    """``(together, alone)``: each view's frame rendered with all the views of the state (the
    fan-out), and rendered on its own."""
    views = {("watching",): (None, BASE_URL), **{(s.pk,): (s, BASE_URL) for s in seats}}
    _, together, _, _ = render_views(table_id, views, list(seats))
    alone = {k: render_views(table_id, {k: v}, list(seats))[1][k] for k, v in views.items()}
    return together, alone


@pytest.mark.parametrize("seed, options", [
    (1, {"turn_limit": "3"}),
    (2, {"turn_limit": "3", "control": "anyone"}),  # every card is editable by every seat
])
def test_shared_cards_leave_every_view_as_it_is_alone(make_table, seed, options):
    table, seats = make_table("demloc", players=4, options=options)
    checked = 0
    for step, now in walk(table, seats, seed, 40):
        if step % 4 == 0:
            together, alone = renders(now.pk, seats)
            assert together == alone, step
            checked += 1
    assert checked >= 5
    # what is shared: the cards of the other Guilds, once for all seats (not editable)
    shared_cards = sum(html.count('class="card dl-piece') for html in alone.values())
    assert shared_cards > 0
