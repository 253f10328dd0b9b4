"""A pytest plugin (``tests/conftest.py``): every error code the tests provoke at an API endpoint
must be listed in that endpoint's OpenAPI entry ("the codes each API endpoint
can return listed in the OpenAPI schema").

Every request the tests send through Django's test client (``APIClient`` included) to ``/api/``
is watched; a JSON answer ``{"code": ...}`` with a 4xx status is remembered with its method,
path and status. At the end of the run the schema is generated (drf-spectacular, as
``/api/schema/`` serves it) and each remembered ``(method, path, status, code)`` must appear as
`` `code` `` in the description of that operation's answer for that status: otherwise the run
fails and the missing codes are printed. Only what the tests provoke is checked (a partial run
checks less)."""

from __future__ import annotations

import json
import re

import pytest
from django.test.client import Client

SEEN: set[tuple[str, str, int, str]] = set()
_request = Client.request


def _watched(self, **request):
    response = _request(self, **request)
    path = request.get("PATH_INFO", "")
    status = getattr(response, "status_code", 0)
    if path.startswith("/api/") and 400 <= status < 500 and status != 429:
        try:
            body = json.loads(response.content)
        except (ValueError, UnicodeDecodeError):
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if isinstance(code, str):
            SEEN.add((request.get("REQUEST_METHOD", "GET").lower(), path, status, code))
    return response


Client.request = _watched  # type: ignore[method-assign]


def _operations():
    """``[(path regex, {method: operation})]`` of the schema the API serves."""
    from drf_spectacular.generators import SchemaGenerator  # noqa: PLC0415 - after django setup

    schema = SchemaGenerator().get_schema(request=None, public=True)
    out = []
    for template, item in schema["paths"].items():
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        out.append((re.compile(pattern + r"\Z"), item))
    return out


def unlisted(seen) -> list[str]:
    """``"METHOD path status code"`` for each seen answer its schema entry does not list."""
    operations = _operations()
    missing = []
    for method, path, status, code in sorted(seen):
        entry = next((item for rx, item in operations if rx.match(path)), None)
        if entry is None or method not in entry:
            continue  # no schema entry at all (the catch-all 404 of unknown /api/ paths)
        answer = entry[method].get("responses", {}).get(str(status), {})
        if f"`{code}`" not in answer.get("description", ""):
            missing.append(f"{method.upper()} {path} {status} {code}")
    return missing


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """Under pytest-xdist (``make test``): the controller gathers what each worker saw."""
    SEEN.update(tuple(seen) for seen in getattr(node, "workeroutput", {}).get("api_codes", ()))


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: the controller checks the whole run's codes
        workeroutput["api_codes"] = [list(seen) for seen in SEEN]
        return
    if not SEEN or exitstatus not in (0, 1):
        return
    missing = unlisted(SEEN)
    if missing:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = "\n  ".join(missing)
        message = f"API codes the tests provoked that the OpenAPI schema does not list:\n  {lines}"
        if reporter is not None:
            reporter.write_line(message, red=True)
        else:
            print(message)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
