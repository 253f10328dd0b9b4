"""The API's JSON answers written by orjson (``tabletop.api.json_answer``): the JSON
``JsonResponse`` wrote, read back as the same values (docs/architecture.md, "Interfaces and
errors"), and valid JSON where the standard library's was not (NaN)."""

import datetime as dt
import decimal
import json
import uuid

import pytest
from django.http import JsonResponse
from django.utils.translation import gettext_lazy

from tabletop.api import json_answer

pytestmark = pytest.mark.django_db

VALUES = [
    {"version": 3, "events": [{"version": 3, "type": "demloc.damage.assigned"}], "view": {}},
    {"when": dt.datetime(2026, 12, 5, 19, 0, 1, 123456, tzinfo=dt.UTC),
     "day": dt.date(2026, 12, 5), "at": dt.time(9, 30), "late": dt.timedelta(seconds=90)},
    {"price": decimal.Decimal("1.10"), "id": uuid.UUID(int=7), "label": gettext_lazy("Lobby")},
    {1: "a seat number as a key", "2": "a string key"},
    {"big": 2**70, "small": -(2**63)},
    [1, 2.5, "é", None, True, (3, 4)],
    "plain",
]


@pytest.mark.parametrize("value", VALUES)
def test_the_answer_reads_back_as_jsonresponses(value):
    ours, theirs = json_answer(value, status=201), JsonResponse(value, safe=False, status=201)
    assert ours.status_code == 201
    assert ours["Content-Type"] == "application/json"
    assert json.loads(ours.content) == json.loads(theirs.content)


def test_nan_and_infinities_come_out_as_null_valid_json():
    answer = json_answer({"odds": float("nan"), "up": float("inf"), "down": -float("inf")})
    assert json.loads(answer.content, parse_constant=pytest.fail) == {
        "odds": None, "up": None, "down": None}


def test_a_value_json_cannot_hold_raises_typeerror_as_jsonresponse_does():
    with pytest.raises(TypeError):
        json_answer({"seats": {1, 2}})


def test_a_demloc_command_answer_is_the_drf_views_answer(client):
    """A DemLoc tap through the hot path (seat token: ``json_answer``) and the seat's view
    read through the DRF view afterwards: the same view, values for values."""

    def post(url, body, token=None):
        headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
        return client.post(url, json.dumps(body), content_type="application/json", **headers)

    host = post("/api/tables/", {"ruleset": "demloc", "name": "Ann"}).json()
    code, token = host["code"], host["seat_token"]
    post(f"/api/tables/{code}/join", {"name": "Bob"})
    assert post(f"/api/tables/{code}/commands", {"type": "table.start"}, token).status_code == 200
    answer = post(f"/api/tables/{code}/commands",
                  {"type": "demloc.fate.gain", "data": {"amount": 1, "reason": "test"}}, token)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    read = client.get(f"/api/tables/{code}/view", HTTP_X_SEAT_TOKEN=token)
    assert read.status_code == 200
    assert answer.json()["view"] == read.json()["view"]
    assert answer.json()["version"] == read.json()["version"]
