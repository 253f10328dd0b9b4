"""Guild service error codes that no other test provokes: each is raised
through the service a view, task or the missions app calls, and nothing is written."""

import pytest

from guilds import models, services
from tabletop.errors import NotFound, RuleViolation

from .factories import MercenaryCardFactory
from .test_city import hire, make_point

pytestmark = pytest.mark.django_db

MISSING = 987654


def test_transfer_to_an_unknown_guild_is_guild_not_found(guild):
    """6.2 "Exploring and conquering": a point goes only to a Guild that exists."""
    point = make_point()
    with pytest.raises(NotFound) as exc:
        services.control_point_transfer(point_id=point.pk, to_guild_id=MISSING, reason="won")
    assert exc.value.code == "guild_not_found"
    point.refresh_from_db()
    assert point.holder_id is None


def test_unknown_timers_are_not_found(guild):
    """6.2: settling or cancelling an expedition, an income period or an event that is not there."""
    with pytest.raises(NotFound) as exc:
        services.expedition_cancel(expedition_id=MISSING)
    assert exc.value.code == "expedition_not_found"
    with pytest.raises(NotFound) as exc:
        services.expedition_settle(expedition_id=MISSING)
    assert exc.value.code == "expedition_not_found"
    with pytest.raises(NotFound) as exc:
        services.income_settle(period_id=MISSING)
    assert exc.value.code == "income_not_found"
    with pytest.raises(NotFound) as exc:
        services.city_event_answer(guild=guild, event_id=MISSING, option_id=1)
    assert exc.value.code == "event_not_found"
    with pytest.raises(NotFound) as exc:
        services.city_event_settle(event_id=MISSING)
    assert exc.value.code == "event_not_found"


def test_deleting_another_masters_guest_guild_is_not_found(found_guild):
    """Section 4 guest Guilds: a Master deletes only their own (and none that is not there)."""
    a, b = found_guild("House A"), found_guild("House B", colour="blue")
    with pytest.raises(NotFound) as exc:
        services.guest_guild_delete(guild=a, guest_id=MISSING)
    assert exc.value.code == "guest_guild_not_found"
    guest = models.GuestGuild.objects.create(owner=b, name="Visitors", colour="green", roster=[])
    with pytest.raises(NotFound) as exc:
        services.guest_guild_delete(guild=a, guest_id=guest.pk)
    assert exc.value.code == "guest_guild_not_found"
    assert models.GuestGuild.objects.filter(pk=guest.pk).exists()


@pytest.mark.parametrize("roster", [[], "x", ["not an object"]])
def test_guest_roster_must_be_a_list_of_objects(guild, roster):
    """5.1.1: a guest Guild has 1 to 8 mercenaries, each an object."""
    with pytest.raises(RuleViolation) as exc:
        services.guest_guild_prepare(guild=guild, name="Visitors", colour="blue", roster=roster)
    assert exc.value.code == "bad_roster"
    assert not models.GuestGuild.objects.exists()


def test_unknown_ledger_reason_is_bad_reason(guild):
    with pytest.raises(RuleViolation) as exc:
        services.guild_balance_change(guild_id=guild.pk, reason="gift", feods=5)
    assert exc.value.code == "bad_reason"
    guild.refresh_from_db()
    assert not models.LedgerEntry.objects.filter(guild=guild, reason="gift").exists()


def test_mercenary_status_codes(guild, give):
    """6.4.1: an unknown status, or a negative healing cost, changes nothing."""
    card = MercenaryCardFactory()
    give(guild, card)
    merc = services.mercenary_enlist(guild=guild, card_id=card.pk)
    with pytest.raises(RuleViolation) as exc:
        services.mercenary_status_set(mercenary_id=merc.pk, status="asleep")
    assert exc.value.code == "bad_status"
    with pytest.raises(RuleViolation) as exc:
        services.mercenary_status_set(mercenary_id=merc.pk, status="injured", heal_feods=-1)
    assert exc.value.code == "bad_heal_feods"
    merc.refresh_from_db()
    assert merc.status == models.Mercenary.Status.ACTIVE


def test_mission_hold_codes(guild):
    """6.4 "connect their profiles": syncing a hold that was never bound, or negative feods."""
    with pytest.raises(NotFound) as exc:
        services.mission_hold_sync(
            guild_id=guild.pk, reference="mission:1", mercenary_ids=[], feods=0
        )
    assert exc.value.code == "hold_not_found"
    services.mission_hold_bind(guild_id=guild.pk, reference="mission:1", title="M", url="/m/1")
    with pytest.raises(RuleViolation) as exc:
        services.mission_hold_sync(
            guild_id=guild.pk, reference="mission:1", mercenary_ids=[], feods=-3
        )
    assert exc.value.code == "bad_feods"
    assert models.MissionHold.objects.get(guild=guild, reference="mission:1").feods == 0


def test_expedition_party_must_be_ids(guild):
    """6.2 "Exploring": the party is a list of mercenary ids."""
    point = make_point()
    with pytest.raises(RuleViolation) as exc:
        services.expedition_preview(guild=guild, point_id=point.pk, mercenary_ids="12")
    assert exc.value.code == "bad_mercenary"


def test_a_party_already_back_cannot_be_called_back(guild, give):
    """6.2 "Exploring": cancelling a party that has come back (here: cancelled once) is refused."""
    point = make_point()
    party = hire(guild, give, 1)
    exp = services.expedition_start(guild=guild, point_id=point.pk, mercenary_ids=[party[0].pk])
    services.expedition_cancel(expedition_id=exp.pk)
    with pytest.raises(RuleViolation) as exc:
        services.expedition_cancel(expedition_id=exp.pk)
    assert exc.value.code == "expedition_settled"
    exp.refresh_from_db()
    assert exp.outcome == "cancelled"
    assert models.CityNews.objects.filter(guild=guild, reference=f"expedition:{exp.pk}").count() == 1


def test_rows_of_the_guild_by_id_are_not_found_when_missing(guild):
    """6.2 (Guesthouse, pantheon, Arcane Library): dismissing a follower, removing a daemon or
    shelving an Arcane Code the Guild does not have is ``NotFound``, nothing changed."""
    with pytest.raises(NotFound) as exc:
        services.follower_dismiss(guild=guild, guest_id=MISSING)
    assert exc.value.code == "follower_not_found"
    with pytest.raises(NotFound) as exc:
        services.daemon_remove(guild=guild, entry_id=MISSING)
    assert exc.value.code == "daemon_not_found"
    with pytest.raises(NotFound) as exc:
        services.arcane_code_unassign(guild=guild, code_id=MISSING)
    assert exc.value.code == "arcane_code_not_found"
