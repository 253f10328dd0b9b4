"""Every command control a game's live region renders sends a payload the server accepts:
a scripted walk through each game that, phone after phone, submits every
distinct command form the page shows (filling its inputs the way a player would) and checks the
answer is never a 500 nor a refusal of the kit's own form parser ("not valid JSON", a malformed
command). A refusal by the game's rules is fine: the control was understood."""

import json
import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from tabletop.models import Table

pytestmark = pytest.mark.django_db

#: Codes that mean the page built a payload the server could not even read.
PARSER_CODES = {"bad_command", "too_large", "bad_idempotency_key"}  # tabletop.views' parser


class Forms(HTMLParser):
    """The ``<form data-command>`` of a page: ``[{"fields": [(name, value)], "label"}]``."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.current: dict | None = None
        self.select: str | None = None
        self.select_first = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and ("data-command" in a or "/command/" in (a.get("hx-post") or "")):
            fields = []
            if a.get("hx-vals"):
                fields = [(k, str(v)) for k, v in json.loads(a["hx-vals"]).items()]
            self.current = {"fields": fields, "label": "", "checks": {}, "buttons": []}
        elif self.current is None:
            return
        elif tag == "input":
            kind = (a.get("type") or "text").lower()
            name = a.get("name")
            if not name or "disabled" in a:
                return
            if kind in ("hidden", "text", "number", "range"):
                value = a.get("value")
                if value in (None, ""):
                    value = a.get("min") or ("1" if kind in ("number", "range") else "x")
                self.current["fields"].append((name, value))
            elif kind in ("checkbox", "radio"):
                # a player ticks the first box of each group (a radio group needs one)
                if name not in self.current["checks"]:
                    self.current["checks"][name] = True
                    self.current["fields"].append((name, a.get("value", "on")))
        elif tag == "select" and a.get("name"):
            self.select, self.select_first = a["name"], True
        elif tag == "option" and self.select and self.select_first:
            if a.get("value", "") != "" and "disabled" not in a:
                self.current["fields"].append((self.select, a["value"]))
                self.select_first = False
        elif tag == "button":
            if a.get("name"):
                if "disabled" not in a:
                    self.current["buttons"].append((a["name"], a.get("value", "")))
            elif "disabled" in a:
                self.current["disabled"] = True

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        if tag == "form" and self.current is not None:
            if self.current["buttons"]:  # one submission per named submit button
                for button in self.current["buttons"]:
                    self.forms.append({**self.current, "fields": [*self.current["fields"], button]})
            elif not self.current.get("disabled"):
                self.forms.append(self.current)
            self.current = None

    def handle_data(self, data):
        if self.current is not None and data.strip():
            self.current["label"] += data.strip() + " "


def _forms(html: str) -> list[dict]:
    parser = Forms()
    parser.feed(html)
    return parser.forms


def _page(phone: Client, code: str) -> str:
    """The table page as a player sees it with every sheet opened: a DemLoc card's forms are
    fetched when its sheet opens (``data-forms``, missions.views.piece_forms)."""
    page = phone.get(f"/t/{code}/").content.decode()
    sheets = []
    for url in dict.fromkeys(re.findall(r'data-forms="([^"]+)"', page)):
        response = phone.get(url)
        assert response.status_code == 200, url
        sheets.append(response.content.decode())
    return page + "".join(sheets)


def _open(ruleset: str, players: int, options: dict | None = None) -> tuple[Table, list[Client]]:
    host = Client()
    response = host.post("/tables/new/", {"ruleset": ruleset, "name": "P1", **(options or {})})
    assert response.status_code == 302, response.content[:500]
    table = Table.objects.latest("created_at")
    phones = [host]
    for n in range(2, players + 1):
        guest = Client()
        assert guest.post(f"/j/{table.code}/", {"name": f"P{n}"}).status_code == 302
        phones.append(guest)
    return table, phones


def _walk(table: Table, phones: list[Client], rounds: int) -> dict:
    """Submit every distinct control of every phone, ``rounds`` times over; returns counts."""
    seen: set = set()
    sent = refused = 0
    types: set = set()
    for _ in range(rounds):
        progressed = False
        for phone in phones:
            page = _page(phone, table.code)
            for form in _forms(page):
                key = (0, tuple(sorted(f for f in form["fields"] if f[0] != "idempotency_key")))
                if key in seen:
                    continue
                seen.add(key)
                progressed = True
                response = phone.post(f"/t/{table.code}/command/", dict_fields(form["fields"]))
                sent += 1
                types.add(dict(form["fields"]).get("type"))
                assert response.status_code != 500, form
                body = response.content.decode()
                match = re.search(r'data-code="([a-z_]+)"', body)
                code = match.group(1) if match else None
                assert code not in PARSER_CODES, (form, code, body[:300])
                refused += code is not None
        if not progressed:
            break
    return {
        "sent": sent,
        "refused": refused,
        "kinds": len({k[1] for k in seen}),
        "types": types,
    }


def dict_fields(fields):
    out: dict = {}
    for name, value in fields:
        out.setdefault(name, []).append(value)
    return out


@pytest.mark.parametrize(
    "ruleset, players",
    [("counter", 2), ("personimo", 2), ("realm", 2), ("personal_demons", 3), ("espionage", 3),
     ("demloc", 2)],
)
def test_every_rendered_control_sends_a_payload_the_server_reads(ruleset, players):
    table, phones = _open(ruleset, players)
    counts = _walk(table, phones, rounds=12)
    table.refresh_from_db()
    assert counts["sent"] > 3 and table.version > 1, counts


def test_demloc_sheets_send_abilities_every_code_and_daemon_assignment():
    """Point 3 (DemLoc rulebook 5.1.1, 5.1.5, 6.4.2, 7.2.3.2): the character sheet's
    ability buttons (paid from fate), the powers of every code and a daemon's code and dice
    are among the controls the walk submits."""
    table, phones = _open("demloc", 2)
    assert phones[0].post(f"/t/{table.code}/command/", {"type": "table.start"}).status_code == 200
    # Maud (the second phone's arcane mercenary) summons the Drowned hag, arcane 2.
    for data in (
        {"type": "demloc.mana.adjust", "d.piece": "s1-maud", "d.colour": "common", "d.delta": "1"},
        {"type": "demloc.mana.adjust", "d.piece": "s1-maud", "d.colour": "dark", "d.delta": "1"},
        {"type": "demloc.daemon.summon", "d.piece": "s1-maud", "d.level": "2", "d.hearts": "2"},
    ):
        response = phones[1].post(f"/t/{table.code}/command/", data)
        assert 'data-code="' not in response.content.decode(), data
    page = _page(phones[1], table.code)
    (assign,) = [f for f in _forms(page) if ("type", "demloc.daemon.assign") in f["fields"]]
    response = phones[1].post(f"/t/{table.code}/command/", dict_fields(assign["fields"]))
    assert 'data-code="' not in response.content.decode()
    table.refresh_from_db()
    assert table.state["pieces"]["d1"]["code"]["name"] == "Codex of Salted Ash"
    counts = _walk(table, phones, rounds=12)
    assert "demloc.ability.use" in counts["types"], counts
    # Maud has summoned: this phase her powers and a second summon are disabled buttons with
    # their reason (the page offers only what the rules take, 7.2), so the walk cannot send
    # them. On a table where she holds mana and has not acted, it sends both.
    table, phones = _open("demloc", 2)
    assert phones[0].post(f"/t/{table.code}/command/", {"type": "table.start"}).status_code == 200
    for colour in ("common", "dark"):
        data = {"type": "demloc.mana.adjust", "d.piece": "s1-maud", "d.colour": colour, "d.delta": "1"}
        response = phones[1].post(f"/t/{table.code}/command/", data)
        assert 'data-code="' not in response.content.decode(), data
    counts = _walk(table, phones[1:], rounds=1)
    assert {"demloc.power.use", "demloc.daemon.summon"} <= counts["types"], counts
