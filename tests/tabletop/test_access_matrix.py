"""The access matrix (docs/architecture.md "The event-sourced table": a table's code is its gate).

Two tables, a mission table, two users with a Guild each. Every table address is tried

- with what a stranger could have instead of the table's code: its sequential id, a wrong code
  (404, the same as a table that does not exist), and
- for everything that needs a seat, with the table's right code but another table's seat, a
  forged seat token, no token, and another logged-in user (404 ``not_seated``),

and every Guild endpoint and page that takes an id is tried by the other Guild's master with
this Guild's ids (404). ``CELLS`` is the matrix's size; it is asserted, so the README's figure
stays true. Watching (the table page, its live region, the join page and QR, the report by
code) is open to whoever has the code, by design, so those appear only in the wrong-address
rows.
"""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from guilds import models as gm
from missions import services as mission_services
from tabletop import services
from tabletop.models import Event, Seat, Table
from tabletop.rules import Command
from tabletop.seats import COOKIE, cookie_name, cookie_value, seat_token
from tests.missions.lifecycle_flow import build_guild

pytestmark = pytest.mark.django_db

# (method, address with {code} or {mission}, needs a seat?)
TABLE_ADDRESSES = [
    ("get", "/t/{code}/", False),
    ("get", "/t/{code}/live/", False),
    ("get", "/t/{code}/qr.svg", False),
    ("get", "/j/{code}/", False),
    ("post", "/t/{code}/command/", True),
    ("post", "/t/{code}/options/", True),
    ("get", "/t/{code}/log/", True),
    ("get", "/t/{code}/seat-qr.svg", True),
    ("get", "/t/{code}/seats/", True),
    ("post", "/t/{code}/seats/", True),
    ("post", "/missions/t/{code}/bind/", True),
    ("post", "/missions/t/{code}/close/", True),
    ("post", "/missions/t/{code}/continue/", True),
    ("get", "/missions/report/{code}/", False),
    ("get", "/missions/report/{code}.json", False),
]
API_ADDRESSES = [
    ("post", "/api/tables/{code}/join", False),
    ("post", "/api/tables/{code}/commands", True),
    ("get", "/api/tables/{code}/view", True),
    ("get", "/api/tables/{code}/events", True),
]
MISSION_API = [
    ("post", "/missions/api/missions/{mission}/bind"),
    ("post", "/missions/api/missions/{mission}/close"),
    ("post", "/missions/api/missions/{mission}/continue"),
    ("get", "/missions/api/missions/{mission}/report"),
]
GUILD_API = [
    ("post", "/api/guild/mercenaries/{merc}/dismiss", None),
    ("post", "/api/guild/mercenaries/{merc}/heal", None),
    ("post", "/api/guild/weapons/{weapon}/equip", {"mercenary_id": "{merc}"}),
    ("post", "/api/guild/weapons/{weapon}/unequip", None),
]
GUILD_PAGES = [
    ("post", "/guild/dormitory/{merc}/dismiss/"),
    ("post", "/guild/dormitory/{merc}/heal/"),
    ("post", "/guild/armory/{weapon}/equip/"),
    ("post", "/guild/armory/{weapon}/unequip/"),
]
IDENTITIES = ("another_tables_seat", "forged_token", "no_token", "another_user")
WRONG_ADDRESSES = ("sequential_id", "wrong_code")
CELLS = (
    len(TABLE_ADDRESSES + API_ADDRESSES) * len(WRONG_ADDRESSES)
    + sum(1 for *_, seated in TABLE_ADDRESSES + API_ADDRESSES if seated) * len(IDENTITIES)
    + len(MISSION_API) * (len(IDENTITIES) + 1)  # + a mission id that does not exist
    + len(GUILD_API + GUILD_PAGES)
)


@pytest.fixture
def demo_missions(db):
    from missions.demo import load_demo_missions

    return {d.kind: d for d in load_demo_missions()}


@pytest.fixture
def world(demo_missions):
    ann = build_guild("House Ash", "red", ("Rook",))
    bob = build_guild("House Birch", "blue", ("Wren",))
    mission, host = mission_services.mission_open(
        host=ann.master, definition_id=demo_missions["objective"].pk, mode="standard"
    )
    services.seat_join(table=mission.table, name="Guest")
    other, other_host = services.table_create(ruleset="counter", host_name="Zed")
    return {
        "ann": ann,
        "bob": bob,
        "mission": mission,
        "table": mission.table,
        "host": host,
        "other_seat": other_host,
        "other_table": other,
    }


def _client(kind: str, world, api: bool):
    client = APIClient() if api else Client()
    table, host = world["table"], world["host"]
    if kind == "another_tables_seat":
        if api:
            client.credentials(HTTP_X_SEAT_TOKEN=seat_token(world["other_seat"]))
        else:
            client.cookies[COOKIE] = cookie_value(world["other_seat"])
            # and the other seat's token where this table's legacy cookie would be
            client.cookies[cookie_name(table.pk)] = seat_token(world["other_seat"])
    elif kind == "forged_token":
        forged = seat_token(host)[:-3] + "xyz"
        if api:
            client.credentials(HTTP_X_SEAT_TOKEN=forged)
        else:
            client.cookies[COOKIE] = cookie_value(host)[:-3] + "xyz"
            client.cookies[cookie_name(table.pk)] = forged
    elif kind == "another_user":
        client.force_login(world["bob"].master)
    return client


def _stored():
    return (
        Event.objects.count(),
        Seat.objects.count(),
        Table.objects.count(),
        sorted(Seat.objects.values_list("pk", "nonce", "number", "user_id")),
        sorted(Table.objects.values_list("pk", "options", "version", "status")),
        sorted(gm.Mercenary.objects.values_list("pk", "guild_id", "status")),
        sorted(gm.ArmoryWeapon.objects.values_list("pk", "guild_id", "mercenary_id")),
    )


def _call(client, method, url, body=None):
    if method == "get":
        return client.get(url)
    if isinstance(client, APIClient):
        return client.post(url, body or {"type": "counter.add", "name": "X"}, format="json")
    return client.post(url, body or {"type": "counter.add", "n": "1", "action": "remove"})


def test_every_table_and_guild_address_is_404_without_the_code_or_a_seat(world):
    table, mission = world["table"], world["mission"]
    before = _stored()
    cells, leaks = 0, []

    def expect_404(response, cell):
        nonlocal cells
        cells += 1
        if response.status_code != 404:
            leaks.append((cell, response.status_code))

    for addresses, api in ((TABLE_ADDRESSES, False), (API_ADDRESSES, True)):
        for method, template, seated in addresses:
            for wrong in WRONG_ADDRESSES:
                client = Client() if not api else APIClient()
                code = str(table.pk) if wrong == "sequential_id" else "QQQQQQ"
                url = template.format(code=code)
                expect_404(_call(client, method, url), (wrong, method, url))
            if not seated:
                continue
            for kind in IDENTITIES:
                url = template.format(code=table.code)
                expect_404(_call(_client(kind, world, api), method, url), (kind, method, url))
    for method, template in MISSION_API:
        for kind in IDENTITIES:
            url = template.format(mission=mission.pk)
            expect_404(_call(_client(kind, world, True), method, url), (kind, method, url))
        url = template.format(mission=mission.pk + 1000)
        expect_404(_call(_client("another_user", world, True), method, url), ("none", url))
    ann, bob = world["ann"], world["bob"]
    merc = ann.mercenaries.first()
    weapon = gm.ArmoryWeapon.objects.filter(guild=ann).first()
    ids = {"merc": merc.pk, "weapon": weapon.pk}
    for kind, routes in (("api", GUILD_API), ("page", GUILD_PAGES)):
        for _method, template, *rest in routes:
            client = APIClient() if kind == "api" else Client()
            client.force_login(bob.master)
            body = rest[0] if rest else None
            if body:
                body = {k: int(v.format(**ids)) for k, v in body.items()}
            url = template.format(**ids)
            if kind == "api":
                response = client.post(url, body or {}, format="json")
            else:
                response = client.post(url, body or {})
            expect_404(response, ("another_guild", url))
    assert leaks == []
    assert cells == CELLS == 114
    assert _stored() == before  # nothing was written by any refused call


def test_the_right_seat_passes_where_the_matrix_refuses(world, client):
    """The matrix is not vacuous: the table's own players reach the same addresses."""
    table, host = world["table"], world["host"]
    client.force_login(world["ann"].master)
    assert client.get(f"/t/{table.code}/log/").status_code == 200
    assert client.get(f"/t/{table.code}/seat-qr.svg").status_code == 200
    assert client.get(f"/t/{table.code}/seats/").status_code == 200
    api = APIClient()
    api.credentials(HTTP_X_SEAT_TOKEN=seat_token(host))
    assert api.get(f"/api/tables/{table.code}/view").status_code == 200
    assert api.get(f"/missions/api/missions/{world['mission'].pk}/report").status_code == 200
    guest = APIClient()
    guest.credentials(HTTP_X_SEAT_TOKEN=seat_token(world["table"].seats.get(number=1)))
    response = guest.post(
        f"/api/tables/{table.code}/commands", {"type": "table.start"}, format="json"
    )
    assert response.status_code == 403 and response.json()["code"] == "host_only"
    services.run_command(table, host, Command("table.start"))
