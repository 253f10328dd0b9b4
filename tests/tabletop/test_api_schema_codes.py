"""The codes each API endpoint can return, in its OpenAPI entry (docs/architecture.md "Interfaces and errors").
The plugin ``tests/api_codes.py`` checks every code the suite provokes at an endpoint; these
tests check the lists themselves."""

import pytest
from drf_spectacular.generators import SchemaGenerator

from tabletop.openapi import game_codes
from tabletop.registry import all_rulesets
from tests.api_codes import unlisted

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def test_a_table_command_lists_the_codes_of_each_game_by_name(schema):
    """A command answers the kit's codes and those of the table's game, listed per game."""
    answers = schema["paths"]["/api/tables/{code}/commands"]["post"]["responses"]
    text = answers["400"]["description"]
    assert "`unknown_command`" in text and "`bad_number`" in text
    codes = game_codes()
    assert set(codes) == {r.title for r in all_rulesets()}
    for title, game in codes.items():
        own = sorted(c for c in game if f"`{c}`" not in text.split(" also: ")[0])
        assert own, title
    assert "DemLoc mission also:" in text and "`not_your_fight`" in text  # 7.2.1
    assert "Personal Demons also:" in text and "`deck_empty`" in text
    assert "`no_guild`" not in text  # a guild code, not a table command's


def test_a_demloc_command_lists_the_guild_hold_refusals_of_its_signal(schema):
    """A DemLoc preparation command also runs the Guild's hold (``command_applied`` inside its
    transaction): its refusals are the command's answers and are listed."""
    demloc = next(v for k, v in game_codes().items() if k.startswith("DemLoc"))
    assert {"on_mission", "feods_reserved", "not_enough_feods"} <= demloc
    answers = schema["paths"]["/api/tables/{code}/commands"]["post"]["responses"]
    listed = " ".join(a["description"] for a in answers.values())
    assert "`on_mission`" in listed and "`feods_reserved`" in listed


def test_the_hold_codes_a_demloc_command_declares_are_those_the_hold_services_raise():
    """``guilds.services.HOLD_CODES`` (declared in ``guilds.codes``, read by the schema through
    ``missions.codes.COMMAND_CODES``) against the source of the hold services and what they
    call: a code raised there and not declared fails."""
    from pathlib import Path

    import guilds.services as guild_services
    from tests.codes_scan import codes_raised_in

    folder = Path(guild_services.__file__).parent
    raised = set(codes_raised_in(folder / "holds.py", folder / "reserves.py"))
    raised |= {"guild_not_found"}  # lock_guild (_common), which every hold service calls
    assert raised == set(guild_services.HOLD_CODES)


def test_other_endpoints_list_their_own_codes(schema):
    """Joining lists what a join can answer, not every command code; the guild API lists the
    guild services' codes with the mission hold's."""
    join = schema["paths"]["/api/tables/{code}/join"]["post"]["responses"]
    assert "`table_full`" in join["400"]["description"]
    assert "`unknown_command`" not in join["400"]["description"]
    guild = schema["paths"]["/api/guild/mercenaries/{id}/dismiss"]["post"]["responses"]
    assert "`on_mission`" in guild["400"]["description"]
    assert "`mercenary_not_found`" in guild["404"]["description"]


def test_the_check_reports_a_provoked_code_the_schema_does_not_list():
    """The suite-wide check fails on a code an endpoint's entry does not list."""
    seen = {
        ("post", "/api/tables/ABCDEF/join", 400, "table_full"),
        ("post", "/api/tables/ABCDEF/join", 400, "no_such_code_anywhere"),
    }
    assert unlisted(seen) == ["POST /api/tables/ABCDEF/join 400 no_such_code_anywhere"]
