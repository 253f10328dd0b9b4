"""The error vocabulary (docs/architecture.md, "Interfaces and errors"): each app declares in its
own ``codes.py`` every code its source raises, with one class (one HTTP status), and no code it
never raises; ``tabletop.error_codes.catalogue()`` gathers them; every code is asserted by some
test; and the code lists the API schema reads from the ``codes.py`` files (``COMMAND_CODES``,
``API_CODES``) are what their sources raise. The raised codes are read from the source by
``tests/codes_scan.py`` (the first argument of ``RuleViolation``/``NotAllowed``/``NotFound``/
``Conflict``, the code of ``require``, and every ``code=`` keyword), so a new code cannot slip
past its app's declaration."""

import inspect
import re
from pathlib import Path

import pytest
from django.apps import apps

from tabletop.error_codes import catalogue, codes_of
from tabletop.errors import TabletopError
from tabletop.registry import all_rulesets, content_provider
from tests.codes_scan import codes_raised_in

ROOT = Path(__file__).resolve().parents[2]


def project_files() -> list[Path]:
    """Every Python file of the project's code: everything but tests, benchmarks, the venv."""
    return sorted(
        f
        for p in ROOT.iterdir()
        if not p.name.startswith(".") and p.name not in ("tests", "bench")
        for f in ([p] if p.suffix == ".py" else p.rglob("*.py") if p.is_dir() else [])
    )


def app_of(path: Path):
    """The app a file belongs to: the innermost installed app whose folder holds it, or None."""
    holders = [c for c in apps.get_app_configs() if path.is_relative_to(Path(c.path))]
    return max(holders, key=lambda c: len(c.path), default=None)


@pytest.fixture(scope="module")
def raised() -> dict:
    """``{app config or None: {code: {(class name, "file:line")}}}`` for the whole project."""
    by_app: dict = {}
    for path in project_files():
        by_app.setdefault(app_of(path), []).append(path)
    return {config: codes_raised_in(*files) for config, files in by_app.items()}


def declared(config) -> dict:
    module = codes_of(config) if config is not None else None
    return dict(getattr(module, "CODES", {}))


def test_every_code_an_app_raises_is_declared_in_its_codes_py_with_one_class(raised):
    outside = sorted(raised.get(None, {}))
    assert not outside, f"codes raised outside every app (raise them in an app): {outside}"
    for config, found in raised.items():
        if config is None:
            continue
        codes = declared(config)
        missing = sorted(set(found) - set(codes))
        assert not missing, f"add these codes to {config.name}.codes: {missing}"
        wrong = {
            code: sorted(uses)
            for code, uses in found.items()
            if {cls for cls, _ in uses} != {codes[code][0].__name__}
        }
        assert not wrong, f"one class (one HTTP status) per code: {wrong}"


def test_every_declared_code_is_raised_by_its_app(raised):
    for config in apps.get_app_configs():
        stale = sorted(set(declared(config)) - set(raised.get(config, {})))
        assert not stale, f"{config.name}.codes declares codes it never raises: {stale}"


def test_the_catalogue_is_every_apps_codes_one_class_each():
    gathered = catalogue()
    apps_codes = [declared(c) for c in apps.get_app_configs()]
    assert set(gathered) == {code for codes in apps_codes for code in codes}
    for codes in apps_codes:
        for code, (cls, _message) in codes.items():
            assert gathered[code][0] is cls, code
    assert {"stale_version", "bad_input", "on_mission", "deck_empty"} <= set(gathered)


def test_catalogue_entries_are_well_formed():
    for code, (cls, message) in catalogue().items():
        assert re.fullmatch(r"[a-z][a-z0-9_]*", code), code
        assert issubclass(cls, TabletopError) and message, code


def test_every_raised_code_is_asserted_by_a_test(raised):
    tests = "\n".join(
        p.read_text() for p in (ROOT / "tests").rglob("*.py") if p.name != Path(__file__).name
    )
    codes = {c for found in raised.values() for c in found}
    untested = {c for c in codes if not re.search(rf"[\"']{re.escape(c)}[\"']", tests)}
    assert untested == set(), f"codes asserted by no test (write one): {sorted(untested)}"


def _where(obj) -> Path:
    """The folder of the package ``obj`` is defined in (its module's file for a module)."""
    path = Path(inspect.getfile(obj))
    return path.parent if path.name == "__init__.py" else path


def test_a_games_command_codes_are_what_its_rules_and_content_raise():
    """``COMMAND_CODES`` (a table command's answers in the schema, ``tabletop.openapi.
    game_codes``): the codes raised in the ruleset's package and its content provider's module;
    DemLoc's also the Guild hold's refusals, which ``missions.services.on_command_applied``
    raises inside the command's transaction."""
    from guilds.services import HOLD_CODES

    for ruleset in all_rulesets():
        paths = [_where(type(ruleset))]
        provider = content_provider(ruleset.name)
        if provider is not None:
            paths.append(_where(provider))
        want = set(codes_raised_in(*paths)) | (set(HOLD_CODES) if ruleset.name == "demloc" else set())
        module = codes_of(apps.get_containing_app_config(type(ruleset).__module__))
        assert set(module.COMMAND_CODES) == want, ruleset.name


def test_the_mission_and_guild_api_codes_are_what_their_sources_raise():
    """``API_CODES`` (one list for each API in the schema): what the endpoints' modules and the
    services they call raise."""
    from guilds import codes as guild_codes
    from missions import codes as mission_codes

    m, g = ROOT / "missions", ROOT / "guilds"
    assert set(mission_codes.API_CODES) == set(
        codes_raised_in(m / "services.py", m / "report.py", m / "api.py")
    )
    assert set(mission_codes.RULES) == set(codes_raised_in(m / "rules"))
    assert set(guild_codes.API_CODES) == set(
        codes_raised_in(g / "services", g / "api.py", g / "city_api.py")
    )


def test_a_games_codes_name_no_other_game():
    """A message in one game's ``codes.py`` never names another game: a message copied from
    another game's declaration would tell its players the other game's rule (the catalogue
    keeps the first app's message of a code several apps declare)."""
    games = {
        r.title: apps.get_containing_app_config(type(r).__module__)
        for r in all_rulesets()
        if r.name != "counter"
    }
    wrong = [
        (config.name, code, message)
        for config in set(games.values())
        for code, (_cls, message) in declared(config).items()
        for title, other in games.items()
        if other is not config and title in message
    ]
    assert not wrong, f"messages naming another game: {wrong}"
