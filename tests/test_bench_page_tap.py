"""``bench/live.py --tap page``: a phone the API made taps through the page as a joined phone
does. ``/bench/seat-cookie`` (``bench.urls``) gives it the seat cookie and the CSRF token a
join by the page gives; its htmx tap (``post_page``'s form, with the CSRF check on) is
answered with its live region, from which it learns what its next tap reads
(``bench.live.learned``)."""

import pytest
from django.test import Client

from bench.live import demloc_tap, learned
from tabletop.live import seat_view
from tabletop.seats import seat_token

pytestmark = [pytest.mark.django_db, pytest.mark.urls("bench.urls")]


def test_a_phone_made_by_the_api_taps_through_the_page_with_its_cookie(make_table):
    table, seats = make_table("demloc", players=2)
    phone = Client(enforce_csrf_checks=True)
    given = phone.post("/bench/seat-cookie", HTTP_X_SEAT_TOKEN=seat_token(seats[0]))
    assert given.status_code == 200
    csrf = given.json()["csrf"]
    assert {"seats", "csrftoken"} <= set(given.cookies)
    view = seat_view(table, seats[0])
    body = demloc_tap(view, 0)  # damage on its first character
    form = {"type": body["type"], **{f"d.{k}": str(v) for k, v in body["data"].items()}}
    answer = phone.post(f"/t/{table.code}/command/", form, HTTP_X_CSRFTOKEN=csrf,
                        HTTP_HX_REQUEST="true")
    assert answer.status_code == 200, answer.content
    region = answer.content.decode()
    assert region.lstrip().startswith('<section id="live" ') and 'data-version="' in region[:400]
    known = learned(view, region)
    assert known["my_pieces"] == view["my_pieces"]
    assert known["pending"] is False
    assert known["my_turn"] == view["my_turn"] and known["phase"] == view["phase"]


def test_no_cookie_for_a_forged_token():
    assert Client().post("/bench/seat-cookie", HTTP_X_SEAT_TOKEN="forged").status_code == 404
