"""A phone's tap (``POST /api/tables/<code>/commands`` with ``X-Seat-Token``) is answered by
``tabletop.middleware.SeatTapMiddleware`` without the session, CSRF, user and message
middleware, with the same answer and headers as through the whole chain
(docs/architecture.md "Interfaces and errors")."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.middleware import SessionMiddleware
from django.test import Client, override_settings

TAP = "tabletop.middleware.SeatTapMiddleware"


def post(client, url, body, token=None):
    headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
    return client.post(url, json.dumps(body), content_type="application/json", **headers)


def started_table(client):
    host = post(client, "/api/tables/", {"ruleset": "counter", "name": "Ann"}).json()
    post(Client(), f"/api/tables/{host['code']}/join", {"name": "Ben"})
    post(client, f"/api/tables/{host['code']}/commands", {"type": "table.start"},
         host["seat_token"])
    return host


@pytest.fixture
def sessions_built(monkeypatch):
    """How many requests the session middleware saw (Django's class, counted)."""
    seen = []
    original = SessionMiddleware.process_request

    def counted(self, request):
        seen.append(request.path)
        return original(self, request)

    monkeypatch.setattr(SessionMiddleware, "process_request", counted)
    return seen


@pytest.mark.django_db
def test_a_tap_by_token_builds_no_session(sessions_built):
    """A logged-in phone's tap by its token: served before the session middleware (which
    still sees a tap it cannot serve: a token of no seat)."""
    client = Client()
    client.force_login(User.objects.create_user("ann", password="pw-123456789"))
    host = started_table(client)
    sessions_built.clear()
    answer = post(client, f"/api/tables/{host['code']}/commands",
                  {"type": "counter.add", "data": {"amount": 2}}, host["seat_token"])
    assert answer.status_code == 200 and answer.json()["view"]["total"] == 2
    assert sessions_built == []
    refused = post(client, f"/api/tables/{host['code']}/commands",
                   {"type": "counter.add", "data": {"amount": 2}}, "not-a-token")
    assert refused.status_code == 404 and refused.json()["code"] == "not_seated"
    assert len(sessions_built) == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        {"type": "counter.add", "data": {"amount": 2}},
        {"type": "counter.add", "data": {"amount": 99}},  # a broken rule
        {"type": "", "data": None},  # field errors
        {"type": "counter.add", "data": {"amount": 2}, "expected_version": 0},  # stale
    ],
)
def test_a_tap_answers_as_through_the_whole_chain(body):
    """The same status, JSON and headers with the middleware as without it (the tables are
    equal: the same versions and command ids are not needed, only their presence)."""
    answers = []
    for chain in (settings.MIDDLEWARE, [m for m in settings.MIDDLEWARE if m != TAP]):
        with override_settings(MIDDLEWARE=chain):
            client = Client()
            host = started_table(client)
            response = post(client, f"/api/tables/{host['code']}/commands", body,
                            host["seat_token"])
        answer = response.json()
        if isinstance(answer, dict):
            answer.pop("command_id", None)
            (answer.get("view") or {}).pop("my_secret", None)  # dealt at random per table
        headers = {k: v for k, v in response.headers.items() if k != "Content-Length"}
        answers.append((response.status_code, answer, headers,
                        "Content-Length" in response.headers))
    assert TAP in settings.MIDDLEWARE
    assert answers[0] == answers[1], answers
