"""Guest Guilds: a pre-assembled Guild for a friend without an account (DemLoc rulebook 4: the
second Basic Guild Set of the box kept whole "to generate pre-assembled guild combinations
(using the app) to share the game even with people who do not have DemLoc").

A Guild Master prepares one from the cards of their own database that their Guild does not use
(each physical card is in one place: the copies left after the Guild's own dormitory, armory,
library and pantheon). At a mission the Master brings it for the friend's seat (a seat without
an account); the mission writes nothing into it or into the Master's Guild (no fame, feods,
deaths or control points), only the two statistics ``played`` and ``won``. At the table it is
a Guild with a negative id (``table_id``), so it can never be taken for a real Guild.
"""

from __future__ import annotations

from collections import Counter

from django.db import transaction

from tabletop.errors import NotFound, RuleViolation
from tabletop.names import first_clash

from .. import rules
from ..ids import parse_id
from ..models import (
    ArcaneCodeCard,
    DaemonCard,
    GuestGuild,
    Guild,
    GuildColour,
    MercenaryCard,
    WeaponCard,
)
from ._common import building_level, database_copies, lock_guild
from .guild import clean_guild_name
from .queries import _character, _fixed_weapons, code_data, weapon_data

MAX_GUEST_MERCENARIES = 8
GUEST_FEODS = rules.STARTING_BALANCES["feods"]  # its purse at the table, never charged


def table_id(guest: GuestGuild) -> int:
    """The id a guest Guild has at a mission table: ``-pk`` (real Guilds are positive)."""
    return -guest.pk


def is_guest_id(guild_id) -> bool:
    """Whether a Guild id seen at a table is a guest Guild's (negative)."""
    return isinstance(guild_id, int) and guild_id < 0


def _card(model, pk, what: str):
    number = parse_id(pk)
    card = model.objects.filter(pk=number).first() if number is not None else None
    if card is None:
        raise NotFound("card_not_found", f"No such {what} card.")
    return card


def _require_copies(guild: Guild, card, wanted: int, used_by_guild: int) -> None:
    copies = database_copies(guild, card)
    if copies == 0:
        raise RuleViolation("not_in_database", f"{card.name} is not in your database.")
    if used_by_guild + wanted > copies:
        raise RuleViolation(
            "no_copy_left",
            f"{card.name}: {copies} in your database, {used_by_guild} used by your Guild; "
            f"the guest Guild cannot have {wanted} more.",
        )


@transaction.atomic
def guest_guild_prepare(
    *,
    guild: Guild,
    name: str,
    colour: str,
    roster: list[dict],
    pantheon: list[int] | None = None,
) -> GuestGuild:
    """Prepare a guest Guild from the Master's database (section 4, 5.1.1-5.1.5).

    ``roster``: 1..8 ``{"card": mercenary card id, "weapons": [1 or 2 weapon card ids],
    "codes": [arcane code card ids]}``; ``pantheon``: daemon card ids. Checks: every card is in
    the database with a copy left beyond what the Guild itself uses; no two mercenaries of one
    name (5.1.1 uniqueness); each mercenary holds at least one weapon (5.1.4) in the two spaces
    (a two-handed weapon alone, ``rules.choose_slot``) and at most as many codes as its arcane
    ability (``rules.check_code_assign``); the pantheon within the library's capacity.

    Raises ``NotFound("card_not_found")``, ``RuleViolation`` ``bad_name``, ``name_taken``,
    ``bad_colour``, ``bad_roster``, ``duplicate_mercenary``, ``no_weapon``,
    ``not_in_database``, ``no_copy_left``, the grip and code codes of ``guilds.rules``,
    ``pantheon_full``. Nothing is written when one is raised.
    """
    guild = lock_guild(guild)
    name = clean_guild_name(name)
    mine = GuestGuild.objects.filter(owner=guild).values_list("name", flat=True)
    if first_clash(name, mine) is not None:
        raise RuleViolation("name_taken", "You already have a guest Guild of that name.")
    if colour not in GuildColour.values:
        raise RuleViolation("bad_colour", "Choose red, blue, yellow or green.")
    if not isinstance(roster, list) or not 1 <= len(roster) <= MAX_GUEST_MERCENARIES:
        raise RuleViolation(
            "bad_roster", f"A guest Guild has 1 to {MAX_GUEST_MERCENARIES} mercenaries."
        )
    uses: Counter = Counter()
    cards: dict[int, object] = {}
    clean = []
    names = set()
    for entry in roster:
        if not isinstance(entry, dict):
            raise RuleViolation("bad_roster", "Each mercenary is an object.")
        merc = _card(MercenaryCard, entry.get("card"), "mercenary")
        if merc.name in names:
            raise RuleViolation(
                "duplicate_mercenary", f"{merc.name} twice: two mercenaries of one name (5.1.1)."
            )
        names.add(merc.name)
        weapons = [_card(WeaponCard, w, "weapon") for w in entry.get("weapons") or []]
        if not weapons:
            raise RuleViolation("no_weapon", f"{merc.name} needs a weapon (5.1.4).")
        held: list[rules.Held] = []
        for w in weapons:
            slot = rules.choose_slot(held, w.two_handed, None)
            held.append(rules.Held(slot=slot, two_handed=w.two_handed))
        codes = [_card(ArcaneCodeCard, c, "arcane code") for c in entry.get("codes") or []]
        for i in range(len(codes)):
            rules.check_code_assign(merc.arcane_ability, i)
        for card in (merc, *weapons, *codes):
            uses[card.pk] += 1
            cards[card.pk] = card
        clean.append(
            {
                "card": merc.pk,
                "weapons": [w.pk for w in weapons],
                "codes": [c.pk for c in codes],
            }
        )
    daemons = [_card(DaemonCard, d, "daemon") for d in (pantheon or [])]
    if len({d.pk for d in daemons}) != len(daemons):
        raise RuleViolation("bad_roster", "A daemon is in the pantheon at most once (5.1.3).")
    capacity = rules.PANTHEON_CAPACITY[building_level(guild, "library")]
    if len(daemons) > capacity:
        raise RuleViolation("pantheon_full", f"A pantheon holds {capacity} daemons.")
    for d in daemons:
        if database_copies(guild, d) == 0:
            raise RuleViolation("not_in_database", f"{d.name} is not in your database.")
    used_by_guild = Counter(guild.mercenaries.values_list("card_id", flat=True))
    used_by_guild.update(guild.weapons.values_list("card_id", flat=True))
    used_by_guild.update(guild.codes.values_list("card_id", flat=True))
    for pk, n in uses.items():
        _require_copies(guild, cards[pk], n, used_by_guild[pk])
    return GuestGuild.objects.create(
        owner=guild, name=name, colour=colour, roster=clean, pantheon=[d.pk for d in daemons]
    )


@transaction.atomic
def guest_guild_delete(*, guild: Guild, guest_id: int) -> None:
    """Delete one of the Master's guest Guilds. Raises ``NotFound("guest_guild_not_found")``."""
    guild = lock_guild(guild)
    number = parse_id(guest_id)
    guest = GuestGuild.objects.filter(owner=guild, pk=number).first() if number else None
    if guest is None:
        raise NotFound("guest_guild_not_found", "No such guest Guild.")
    guest.delete()


def guest_guilds(guild: Guild):
    """The Master's guest Guilds, by name."""
    return GuestGuild.objects.filter(owner=guild).order_by("name")


def guest_guild_of(*, guild: Guild, guest_id) -> GuestGuild:
    """One of ``guild``'s guest Guilds by id, or ``NotFound("guest_guild_not_found")``."""
    number = parse_id(guest_id)
    guest = GuestGuild.objects.filter(owner=guild, pk=number).first() if number else None
    if guest is None:
        raise NotFound("guest_guild_not_found", "No such guest Guild.")
    return guest


def guest_guild_snapshot(guest: GuestGuild) -> dict:
    """The guest Guild in the shape of ``guild_snapshot`` (what a mission needs), its id
    negative (``table_id``), every mercenary ready, its purse ``GUEST_FEODS`` feods and 0 fame;
    cards as they are now in the catalog. Mercenary, weapon and code ids are negative too (no
    real row). ``database_followers`` of the owner are added by the caller."""
    merc_cards = (
        MercenaryCard.objects.select_related("area")
        .prefetch_related("abilities")
        .in_bulk([e["card"] for e in guest.roster])
    )
    weapon_ids = [w for e in guest.roster for w in e["weapons"]]
    code_ids = [c for e in guest.roster for c in e["codes"]]
    weapons = WeaponCard.objects.prefetch_related("features").in_bulk(weapon_ids)
    codes = ArcaneCodeCard.objects.select_related("kabbalah").in_bulk(code_ids)
    mercenaries = []
    serial = 0
    for i, entry in enumerate(guest.roster, start=1):
        card = merc_cards.get(entry["card"])
        if card is None:
            continue
        held: list[rules.Held] = []
        out_weapons = []
        for w in entry["weapons"]:
            if w not in weapons:
                continue
            slot = rules.choose_slot(held, weapons[w].two_handed, None)
            held.append(rules.Held(slot=slot, two_handed=weapons[w].two_handed))
            serial += 1
            out_weapons.append({"id": -serial, "slot": slot, **weapon_data(weapons[w])})
        mercenaries.append(
            {
                "id": -i,
                "status": "active",
                "ready": bool(out_weapons),
                "not_ready_code": "" if out_weapons else "no_weapon",
                "type": card.type,
                "area": card.area.name,
                "favourite_weapon": card.favourite_weapon,
                **_character(card),
                "weapons": out_weapons,
                "codes": [
                    {"id": -(100 * i + n), **code_data(codes[c])}
                    for n, c in enumerate(entry["codes"], start=1)
                    if c in codes
                ],
            }
        )
    pantheon = [
        {"id": -d.pk, "kabbalah": d.kabbalah.name, **_character(d), **_fixed_weapons(d)}
        for d in DaemonCard.objects.select_related("kabbalah")
        .prefetch_related("abilities")
        .filter(pk__in=guest.pantheon)
    ]
    return {
        "guild": {
            "id": table_id(guest),
            "name": guest.name,
            "colour": guest.colour,
            "fame": 0,
            "feods": GUEST_FEODS,
            "guest": True,
            "owner": guest.owner.name,
        },
        "mercenaries": mercenaries,
        "guests": [],
        "pantheon": pantheon,
    }


@transaction.atomic
def guest_guild_played(*, guest_table_id: int, won: bool) -> None:
    """After a standard or training mission: the guest Guild played once (and won). The only
    thing a mission writes about a guest Guild (6.4 "the statistics of each Guild"). A guest
    Guild deleted meanwhile is skipped."""
    guest = GuestGuild.objects.select_for_update().filter(pk=-guest_table_id).first()
    if guest is None:
        return
    guest.played += 1
    guest.won += 1 if won else 0
    guest.save(update_fields=["played", "won"])
