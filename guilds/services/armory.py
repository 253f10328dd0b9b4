"""The Armory: buy weapons with feods, equip and unequip them (DemLoc rulebook 5.1.4, 6.2)."""

from __future__ import annotations

from django.db import transaction

from tabletop.errors import RuleViolation
from tabletop.rules import counted

from .. import city_rules, rules
from ..models import ArmoryWeapon, Guild, LedgerEntry, WeaponCard
from ._common import (
    building_level,
    get_card,
    get_owned,
    lock_guild,
    post,
    require_balances,
    require_copy,
)
from .city import armory_discount
from .dormitory import require_present
from .holds import require_free
from .reserves import require_spendable


@transaction.atomic
def weapon_buy(*, guild: Guild, card_id: int) -> ArmoryWeapon:
    """Buy a weapon card of the Guild's database into its armory for ``price_feods`` feods
    (5.1.4: "players have to use the feods of their Guild"), less the armory discount of the
    control points the Guild holds (``city_rules.armory_price``, 6.2 bonuses). One ledger row.

    The Guild row is locked first, so two buys at once are serialized and can never take the
    feods below 0 (the balance column also has a CHECK constraint). Raises
    ``NotFound("card_not_found")``, ``RuleViolation`` ``not_in_database``, ``no_copy_left``,
    ``armory_full`` (``rules.ARMORY_CAPACITY``), ``not_enough_feods``.
    """
    guild = lock_guild(guild)
    card = get_card(WeaponCard, card_id)
    require_copy(guild, card, guild.weapons.filter(card=card).count())
    refusal = buy_refusal(guild, card)
    if refusal is not None:
        raise refusal
    price = city_rules.armory_price(card.price_feods, armory_discount(guild))
    post(guild, "feods", -price, LedgerEntry.Reason.WEAPON_BOUGHT, card.name)
    return ArmoryWeapon.objects.create(guild=guild, card=card, price_paid=price)


def buy_refusal(guild: Guild, card: WeaponCard) -> RuleViolation | None:
    """Why Buy of ``card`` would be refused now by the armory's room and the purse (5.1.4:
    ``armory_full``, ``not_enough_feods``, ``feods_reserved`` of 6.4), or None. One check for
    both: ``weapon_buy`` raises it, and the Armory disables that Buy with this reason beside
    it, word for word (a read when called by the page: nothing locked)."""
    capacity = rules.ARMORY_CAPACITY[building_level(guild, "armory")]
    if guild.weapons.count() >= capacity:
        return RuleViolation(
            "armory_full", f"The armory holds {counted(capacity, 'weapon')}. Upgrade it to hold more."
        )
    price = city_rules.armory_price(card.price_feods, armory_discount(guild))
    try:
        require_balances(guild, feods=price)
        require_spendable(guild, price)
    except RuleViolation as refusal:  # OnMission (feods_reserved) is one too
        return refusal
    return None


@transaction.atomic
def weapon_equip(
    *, guild: Guild, weapon_id: int, mercenary_id: int, slot: str | None = None
) -> ArmoryWeapon:
    """Give an armory weapon to a mercenary of the same Guild (5.1.4, 6.2 item 3).

    ``slot``: "primary" (top), "secondary" (lower) or None for the first free space, top first.
    Grip rule in ``guilds.rules.choose_slot``. Raises ``NotFound`` ``weapon_not_found`` /
    ``mercenary_not_found`` (also for another Guild's), ``RuleViolation``
    ``weapon_equipped_elsewhere``, ``weapon_already_equipped``, ``mercenary_dead``,
    ``mercenary_absent`` and the grip codes (``two_handed_needs_top``, ``slot_occupied``...).
    """
    guild = lock_guild(guild)
    weapon = get_owned(guild.weapons.all(), weapon_id, "weapon_not_found")
    mercenary = get_owned(guild.mercenaries.all(), mercenary_id, "mercenary_not_found")
    if weapon.mercenary_id == mercenary.pk:
        raise RuleViolation(
            "weapon_already_equipped", f"{mercenary.card.name} already holds this weapon."
        )
    if weapon.mercenary_id is not None:
        raise RuleViolation(
            "weapon_equipped_elsewhere",
            f"{weapon.card.name} is held by {weapon.mercenary.card.name}: unequip it first.",
        )
    require_present(mercenary, "re-equipped")
    held = [
        rules.Held(slot=w.slot, two_handed=w.card.two_handed)
        for w in mercenary.weapons.select_related("card")
    ]
    weapon.slot = rules.choose_slot(held, weapon.card.two_handed, slot or None)
    weapon.mercenary = mercenary
    weapon.save(update_fields=["mercenary", "slot"])
    return weapon


@transaction.atomic
def weapon_unequip(*, guild: Guild, weapon_id: int) -> ArmoryWeapon:
    """Put a weapon back in the armory. If the top weapon leaves, the lower one moves up (the
    primary is always the top one, 5.1.4).

    Raises ``NotFound("weapon_not_found")``, ``RuleViolation`` ``weapon_not_equipped``,
    ``mercenary_absent`` (a weapon cannot be taken from someone away from the Guild).
    """
    guild = lock_guild(guild)
    weapon = get_owned(guild.weapons.all(), weapon_id, "weapon_not_found")
    mercenary = weapon.mercenary
    if mercenary is None:
        raise RuleViolation("weapon_not_equipped", f"{weapon.card.name} is in the armory.")
    require_free(mercenary, "unequipped")
    if mercenary.is_away:
        raise RuleViolation("mercenary_absent", f"{mercenary.card.name} is away from the Guild.")
    was_primary = weapon.slot == rules.PRIMARY
    weapon.mercenary = None
    weapon.slot = ""
    weapon.save(update_fields=["mercenary", "slot"])
    if was_primary:
        mercenary.weapons.filter(slot=rules.SECONDARY).update(slot=rules.PRIMARY)
    return weapon
