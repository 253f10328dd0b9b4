"""Founding a Guild and its ledger (DemLoc rulebook 6.2 first access, section 3)."""

import pytest

from guilds import models, rules, services
from guilds.demo import new_code
from tabletop.errors import NotFound, RuleViolation

from .conftest import money
from .factories import CardSetFactory, UserFactory

pytestmark = pytest.mark.django_db


def account_code() -> str:
    return models.AccountCode.objects.create(
        card_set=CardSetFactory(), code=new_code(models.AccountCode)
    ).code


def test_a_guild_master_founds_a_guild_with_an_account_card():
    # 6.2: "Create an account and use your code card to create your first Guild."
    user = UserFactory()
    code = account_code()
    guild = services.guild_create(
        master=user,
        account_code=code.lower().replace("-", " "),
        name="  House   Vesper ",
        colour="blue",
    )
    assert guild.name == "House Vesper" and guild.colour == "blue" and user.guild == guild
    assert guild.feods == rules.STARTING_BALANCES["feods"] and guild.fame == 0
    assert sorted(guild.buildings.values_list("kind", "level")) == sorted(
        (k, 1) for k in rules.BUILDING_KINDS
    )
    assert list(guild.ledger.values_list("currency", "amount", "reason")) == [
        ("feods", rules.STARTING_BALANCES["feods"], "founded")
    ]


@pytest.mark.parametrize(
    ("code", "name", "colour", "expected"),
    [
        ("ZZZZ-ZZZZ-ZZZZ", "House Vesper", "red", "code_unknown"),
        (None, "X", "red", "bad_name"),
        (None, "House Vesper", "purple", "bad_colour"),
    ],
)
def test_bad_founding_input_is_refused_and_nothing_is_created(code, name, colour, expected):
    with pytest.raises(RuleViolation) as exc:
        services.guild_create(
            master=UserFactory(), account_code=code or account_code(), name=name, colour=colour
        )
    assert exc.value.code == expected
    assert not models.Guild.objects.exists() and not models.LedgerEntry.objects.exists()


def test_an_account_card_founds_one_guild_only(guild):
    with pytest.raises(RuleViolation) as exc:
        services.guild_create(
            master=UserFactory(), account_code=guild.account_code.code, name="Other", colour="red"
        )
    assert exc.value.code == "code_used"


def test_one_guild_per_master_and_unique_names(guild):
    with pytest.raises(RuleViolation) as exc:
        services.guild_create(
            master=guild.master, account_code=account_code(), name="Second", colour="red"
        )
    assert exc.value.code == "guild_exists"
    with pytest.raises(RuleViolation) as exc:
        services.guild_create(
            master=UserFactory(), account_code=account_code(), name="HOUSE VESPER", colour="red"
        )
    assert exc.value.code == "name_taken"


def test_every_balance_change_is_a_ledger_row_and_the_balance_is_their_sum(guild):
    services.guild_balance_change(
        guild_id=guild.pk, reason="mission", fame=12, feods=30, blood_stones=2, note="Won the relic"
    )
    services.guild_balance_change(guild_id=guild.pk, reason="mission", fame=-4, feods=-10)
    guild.refresh_from_db()
    assert (guild.fame, guild.feods, guild.blood_stones) == (8, 170, 2)
    for cached, total in services.guild_ledger_audit(guild=guild).values():
        assert cached == total
    last = guild.ledger.filter(currency="feods").first()
    assert (last.amount, last.balance_after, last.reason) == (-10, 170, "mission")


def test_a_balance_change_that_would_overdraw_changes_nothing(guild):
    with pytest.raises(RuleViolation) as exc:
        services.guild_balance_change(guild_id=guild.pk, reason="mission", fame=5, feods=-151)
    assert exc.value.code == "not_enough_feods"
    guild.refresh_from_db()
    assert (guild.fame, guild.feods, guild.ledger.count()) == (0, 150, 1)


def test_fame_may_fall_below_zero(guild):
    # 7.2.3: an escaped possessed character "will penalize the Guild in fame points".
    money(guild, feods=150, fame=0)
    services.guild_balance_change(guild_id=guild.pk, reason="mission", fame=-3)
    guild.refresh_from_db()
    assert guild.fame == -3


def test_balance_change_of_an_unknown_guild_is_not_found(db):
    with pytest.raises(NotFound):
        services.guild_balance_change(guild_id=999999, reason="mission", feods=1)


def test_rename_and_recolour(guild, found_guild):
    services.guild_update(guild=guild, name="House Corvo", colour="green")
    guild.refresh_from_db()
    assert (guild.name, guild.colour) == ("House Corvo", "green")
    other = found_guild(name="Other House")
    with pytest.raises(RuleViolation) as exc:
        services.guild_update(guild=other, name="house corvo")
    assert exc.value.code == "name_taken"


def test_a_set_code_typed_as_an_account_code_says_where_it_goes():
    """Found by a new user: a set code typed to found a Guild only said the account code did
    not exist; it now says what it is and where it goes (the City Gate)."""
    card_set = CardSetFactory(kind=models.CardSet.Kind.EQUIPMENT)
    code = models.SetCode.objects.create(card_set=card_set, code=new_code(models.SetCode))
    with pytest.raises(RuleViolation) as exc:
        services.guild_create(master=UserFactory(), account_code=code.code.lower(),
                              name="House Vesper", colour="red")
    assert exc.value.code == "code_unknown" and "City Gate" in str(exc.value.message)
    assert not models.Guild.objects.exists()
