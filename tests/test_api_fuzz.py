"""Schemathesis over the OpenAPI schema: every operation, with a seat's
``X-Seat-Token`` and a logged-in Guild Master's session (and CSRF token), path parameters
pointed at real rows half of the time; no answer may be a 5xx. Bounded (``EXAMPLES`` per
operation) so CI stays fast; ``REQUESTS`` counts what was sent (README figure). A longer, fresh
attacker's run: ``API_FUZZ_EXAMPLES=200 API_FUZZ_RANDOM=1`` (docs/operations.md)."""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.middleware.csrf import get_token
from django.test import RequestFactory
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

#: Examples per operation (CI: 6); ``API_FUZZ_RANDOM=1``: new inputs each run instead of CI's fixed ones.
EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "6"))
DERANDOMIZE = os.environ.get("API_FUZZ_RANDOM", "") != "1"
REQUESTS: list[str] = []
# The tally below counts what this process sent: ``make test`` runs this file in a process of its
# own (Makefile test-unit).

app = get_wsgi_application()
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", app)


@pytest.fixture
def world(db, make_table):
    from django.contrib.sessions.backends.db import SessionStore
    from django.core import signals
    from django.db import close_old_connections

    # As Django's test client does: the WSGI handler must not close the test's connection.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)

    from tabletop.seats import seat_token
    from tests.missions.lifecycle_flow import build_guild

    table, seats = make_table(players=2)
    guild = build_guild("House Ash", "red", ("Rook",))
    session = SessionStore()
    session["_auth_user_id"] = str(guild.master.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = guild.master.get_session_auth_hash()
    session.create()
    request = RequestFactory().get("/")
    csrf = get_token(request)
    yield {
        "code": table.code,
        "pk": guild.mercenaries.first().pk,
        "headers": {"X-Seat-Token": seat_token(seats[0]), "X-CSRFToken": csrf},
        "cookies": {"sessionid": session.session_key, "csrftoken": request.META["CSRF_COOKIE"]},
    }
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.mark.django_db(transaction=False)
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=DERANDOMIZE,
    database=None,
)
def test_no_operation_answers_5xx(case, world):
    if len(REQUESTS) % 2 == 0:  # half the cases aim at rows that exist
        for name in ("code", "pk", "mission_id"):
            if case.path_parameters and name in case.path_parameters:
                case.path_parameters[name] = world["code"] if name == "code" else world["pk"]
    response = case.call(headers=world["headers"], cookies=world["cookies"])
    # The operation, then the method actually sent (schemathesis also probes other methods).
    REQUESTS.append(
        f"{case.operation.method.upper()} {case.operation.path} {case.method} {response.status_code}"
    )
    case.validate_response(response, checks=[not_a_server_error])


def test_the_fuzz_ran_every_operation_and_its_tally_is_kept():
    """Runs after the fuzz above (same module): it sent requests to every operation; the
    tally by status goes to ``test-artifacts/api-fuzz.txt``."""
    if not REQUESTS:
        pytest.skip("the fuzz did not run in this process (selected alone)")
    from collections import Counter
    from pathlib import Path

    operations = {" ".join(r.split(" ")[:2]) for r in REQUESTS}
    statuses = Counter(r.rsplit(" ", 1)[1] for r in REQUESTS)  # the status is last
    out = Path(__file__).resolve().parent.parent / "test-artifacts"
    out.mkdir(exist_ok=True)
    (out / "api-fuzz.txt").write_text(
        f"{len(REQUESTS)} requests, {len(operations)} operations; "
        f"by status: {dict(sorted(statuses.items()))}\n" + "\n".join(REQUESTS) + "\n"
    )
    assert not any(s.startswith("5") for s in statuses)
    assert len(operations) >= 40
