"""Mission service error codes no other test provokes, through the services
the lobby pages and the API call (DemLoc rulebook 6.4, 6.4.1)."""

import pytest
from django.contrib.auth.models import AnonymousUser

from missions import services
from missions.models import Mission
from tabletop.errors import NotAllowed, NotFound, RuleViolation
from tests.guilds.factories import UserFactory

from .lifecycle_flow import achieve, closed_training_mission, cmd, open_table, prepare

pytestmark = pytest.mark.django_db


def test_opening_a_mission_6_4_needs_a_logged_in_master_a_mission_and_a_mode(
    make_guild, demo_missions
):
    """6.4: a Guild Master logs in, chooses a mission, then training or standard."""
    objective = demo_missions["objective"].pk
    with pytest.raises(NotAllowed) as exc:
        services.mission_open(host=AnonymousUser(), definition_id=objective, mode="standard")
    assert exc.value.code == "login_required"
    a = make_guild("House Ash", "red", ("Rook",))
    with pytest.raises(NotFound) as exc:
        services.mission_open(host=a.master, definition_id=987654, mode="standard")
    assert exc.value.code == "mission_not_found"
    with pytest.raises(RuleViolation) as exc:
        services.mission_open(host=a.master, definition_id=objective, mode="ranked")
    assert exc.value.code == "bad_mode"
    assert not Mission.objects.exists()


def test_continuing_6_4_1_is_for_the_players_of_a_known_mission(make_guild, demo_missions):
    """6.4.1: the players of a closed mission may face a new one; nobody else."""
    with pytest.raises(NotFound) as exc:
        services.mission_continue(
            mission_id=987654, user=UserFactory(), definition_id=1, mode="training"
        )
    assert exc.value.code == "mission_not_found"
    a, b, mission, table, (sa, sb) = closed_training_mission(make_guild, demo_missions)
    with pytest.raises(NotAllowed) as exc:
        services.mission_continue(
            mission_id=mission.pk,
            user=UserFactory(),
            definition_id=demo_missions["relic"].pk,
            mode="training",
        )
    assert exc.value.code == "not_a_player"
    assert not Mission.objects.filter(previous=mission).exists()


def test_an_ended_mission_takes_no_more_play_until_it_is_closed(make_guild, demo_missions):
    """6.4.1 "Resolution": once a mission from the lobby has ended, play commands are refused
    (``mission_over``) while its resolution waits to be closed; the kit's ``game_over`` comes
    only with the close."""
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    achieve(table, sb)
    table.refresh_from_db()
    assert table.state["ended"] is not None and table.state["closed"] is None
    version = table.version
    with pytest.raises(RuleViolation) as exc:
        cmd(table, sa, "mana.adjust", colour="common", delta=1)
    assert exc.value.code == "mission_over"
    table.refresh_from_db()
    assert table.version == version
