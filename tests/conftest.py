"""Shared fixtures: collected static files, a seeded rng for table randomness and
``make_table``."""

from pathlib import Path

import pytest

from tabletop import services
from tabletop.rules import Command

# Every error code the tests provoke at an API endpoint must be listed in its OpenAPI entry.
pytest_plugins = ["tests.api_codes", "tests.kit"]


def _static_is_stale() -> bool:
    """True when STATIC_ROOT has no manifest or a source static file is newer than it."""
    from django.conf import settings
    from django.contrib.staticfiles import finders

    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if not manifest.exists():
        return True
    built = manifest.stat().st_mtime
    for finder in finders.get_finders():
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            if Path(storage.path(path)).stat().st_mtime > built:
                return True
    return False


def pytest_configure(config):
    """Every live block with declared inputs is rendered a second time in the whole context
    and must come out the same (``tabletop.blocks.CHECK_INPUTS``): a block that reads what it
    did not declare fails whichever test renders it."""
    from tabletop import blocks

    blocks.CHECK_INPUTS = True


def pytest_sessionstart(session):
    """Pages name static files by their hashed names (ManifestStaticFilesStorage), as served:
    collect them once when a source file changed (``make run`` collects in ``bin/run``). At
    the session's start, before collection: test modules import ``config.asgi``, whose
    ServeStatic indexes STATIC_ROOT once when it is built (on a fresh clone it would find it
    empty and answer 404 for every static file)."""
    if _static_is_stale():
        from django.core.management import call_command

        call_command("collectstatic", interactive=False, verbosity=0)


@pytest.fixture(autouse=True)
def _seeded_tables(settings):
    settings.TABLETOP_RNG_SEED = "tests"
    # The gate's throttles count per address, and every test client is 127.0.0.1: tests of
    # the throttles set their own rates (tests/tabletop/test_gate.py).
    settings.TABLETOP_CODE_GUESS_RATE = "100000/min"
    settings.TABLETOP_SEAT_JOIN_RATE = "100000/min"
    settings.TABLETOP_TABLE_CREATE_RATE = "100000/min"


@pytest.fixture
def make_table(db):
    """``make_table(ruleset_name, players=2, options=None, start=True) -> (table, seats)``:
    a table with seats named P1..Pn, started (through ``run_command``) unless ``start=False``."""

    def make(
        ruleset: str = "counter", players: int = 2, options: dict | None = None, start: bool = True
    ):
        table, host = services.table_create(ruleset=ruleset, host_name="P1", options=options)
        seats = [host] + [
            services.seat_join(table=table, name=f"P{n}") for n in range(2, players + 1)
        ]
        if start:
            services.run_command(table, host, Command("table.start"))
        table.refresh_from_db()
        return table, seats

    return make
