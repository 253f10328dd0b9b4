"""DemLoc's live region in Jinja2 (tabletop/jinja.py, missions/jinja2/; docs/architecture.md,
"The live region") writes the very bytes of its Django templates: through random missions
whose players choose among the commands their pages offer (DemLoc 6.4.2), with the table
options that change what the region shows, every seat's region and a watcher's, rendered
from nothing kept by each engine, are equal, blocks and markers included; and the Django
templates' blocks still read only what they declare (``CHECK_INPUTS``, on in the tests)."""

import pytest

from missions.templatetags import missions_tags
from tabletop import blocks
from tabletop import live as live_reads
from tabletop.live import live_context, render_live
from tests.missions.random_missions import walk

BASE_URL = "http://127.0.0.1"


def region(table, seat, seats, jinja: bool) -> str:
    """The live region of ``seat`` (None: a watcher) rendered from nothing kept."""
    blocks.forget_public_blocks()
    missions_tags.forget_cards()
    live_reads.forget_views()
    old = live_reads.JINJA
    live_reads.JINJA = jinja
    try:
        return render_live(live_context(None, table, seat, base_url=BASE_URL, seats=seats))
    finally:
        live_reads.JINJA = old


@pytest.mark.django_db
@pytest.mark.parametrize("seed, players, options", [
    (21, 2, {"turn_limit": "3"}),
    (22, 3, {"turn_limit": "3", "control": "anyone"}),  # every card editable by every seat
    (23, 2, {"turn_limit": "3", "free_possessed": "penalty", "hand_test": "penalty"}),
    (24, 4, {}),
])
def test_the_jinja2_region_is_the_django_region_byte_for_byte(make_table, seed, players,
                                                              options):
    table, seats = make_table("demloc", players=players, options=options)
    compared = 0
    for step, now in walk(table, seats, seed, 60):
        rows = list(now.seats.order_by("number"))
        for seat in [*rows, None]:
            django = region(now, seat, rows, jinja=False)
            jinja = region(now, seat, rows, jinja=True)
            assert jinja == django, (step, now.version, seat and seat.number,
                                     _first_difference(django, jinja))
            compared += 1
    assert compared >= 20


def _first_difference(a: str, b: str) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
              min(len(a), len(b)))
    return f"at {at}:\nDjango: {a[max(0, at - 200):at + 200]!r}\nJinja2: {b[max(0, at - 200):at + 200]!r}"


@pytest.mark.parametrize("reason, words", [
    ("objective_control", "the objective was held long enough · Ann"),
    ("elimination", "total elimination · Ann"),
    ("turn_limit", "the last turn is over · Ann"),
])
def test_the_mission_over_line_says_how_in_words_6_4_2(reason, words):
    """Found by a referee's check: a mission won on the control counter (6.4.2) was headed
    "Mission over: objectivecontrol", the ending's internal name; each ending is in words."""
    from django.template import engines

    view = {"ended": {"reason": reason, "seat": 0}, "players": [{"seat": 0, "name": "Ann"}],
            "me": 0, "prompt": None}
    html = engines["jinja2"].env.get_template("missions/live/dl-turn.html").render(
        view=view, table={"code": "ABCDEF"})
    assert f"<strong>Mission over</strong>: {words}</p>" in html
