"""Pushes never block answers (docs/architecture.md "The event-sourced table"): with the
channel layer's Redis frozen (SIGSTOP: connections accepted, nothing answered), a table
command still answers at once and is committed; the push is late or lost, which the phones
repair (tests/e2e/test_table_recovery.py)."""

import json
import time

import pytest

from tabletop.models import Event
from tests.faults import private_redis  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db(transaction=True)


def post(client, url, body, token=None):
    headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
    return client.post(url, json.dumps(body), content_type="application/json", **headers)


def test_a_command_answers_promptly_while_the_channel_layers_redis_is_frozen(
    client,
    settings,
    private_redis,  # noqa: F811
):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": private_redis.url, "socket_timeout": None}]},
        }
    }
    host = post(client, "/api/tables/", {"ruleset": "counter", "name": "Ann"}).json()
    table_id, token = host["code"], host["seat_token"]
    post(client, f"/api/tables/{table_id}/join", {"name": "Ben"})
    assert (
        post(client, f"/api/tables/{table_id}/commands", {"type": "table.start"}, token).status_code
        == 200
    )

    private_redis.freeze()
    try:
        started = time.monotonic()
        response = post(
            client,
            f"/api/tables/{table_id}/commands",
            {"type": "counter.add", "data": {"amount": 1}},
            token,
        )
        elapsed = time.monotonic() - started
    finally:
        private_redis.thaw()
    assert response.status_code == 200, response.content
    assert Event.objects.filter(table__code=table_id, type="counter.added").count() == 1
    # Frozen Redis never answers; before the bound this call never returned. The margin is
    # wide (a loaded CI machine), the point is "bounded by the push timeout, not by Redis".
    assert elapsed < 5.0
