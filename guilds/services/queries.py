"""Reads of a Guild for pages, the API and other apps (no writes, no locks)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Case, Count, Prefetch, Sum, When

from .. import rules
from ..models import (
    ArcaneCodeCard,
    ArmoryWeapon,
    Card,
    DaemonCard,
    FollowerCard,
    Guild,
    LibraryCode,
    Mercenary,
    MercenaryCard,
    SetCard,
    SetCode,
    WeaponCard,
)
from ._common import home_areas_of, limits_of
from .holds import mercenary_can_go_on_mission


@dataclass(frozen=True)
class DatabaseEntry:
    """One card of a Guild's database: ``copies`` redeemed, ``used`` (enlisted, bought, added)."""

    card: Card
    copies: int
    used: int

    @property
    def left(self) -> int:
        return max(self.copies - self.used, 0)


#: ``Card.Kind`` -> (its card model, the Guild's related name of what uses it, the relations
#: its database page shows).
KIND_MODELS: dict[str, tuple[type[Card], str, tuple[str, ...]]] = {
    Card.Kind.MERCENARY: (MercenaryCard, "mercenaries", ("area",)),
    Card.Kind.WEAPON: (WeaponCard, "weapons", ()),
    Card.Kind.ARCANE_CODE: (ArcaneCodeCard, "codes", ("kabbalah",)),
    Card.Kind.FOLLOWER: (FollowerCard, "guests", ()),
    Card.Kind.DAEMON: (DaemonCard, "pantheon", ("kabbalah",)),
}


def guild_database(guild: Guild, kind: str) -> list[DatabaseEntry]:
    """The cards of ``kind`` (a ``Card.Kind``) in the Guild's database (6.2 item 1), by name."""
    model, related, shown = KIND_MODELS[kind]
    copies = dict(
        SetCard.objects.filter(card__kind=kind, card_set__codes__redeemed_by=guild)
        .values_list("card_id")
        .annotate(n=Sum("quantity"))
    )
    used = Counter(getattr(guild, related).values_list("card_id", flat=True))
    cards = model.objects.filter(pk__in=copies).order_by("name")
    if shown:  # (select_related() with no names would follow every relation)
        cards = cards.select_related(*shown)
    return [DatabaseEntry(card=c, copies=copies[c.pk], used=used[c.pk]) for c in cards]


def redeemed_sets(guild: Guild):
    """The set codes the Guild redeemed, newest first, with their set."""
    return (
        SetCode.objects.filter(redeemed_by=guild)
        .select_related("card_set")
        .order_by("-redeemed_at")
    )


@dataclass(frozen=True)
class DormitoryUsage:
    """Limits and how much of each is used by living mercenaries (5.1.1)."""

    limits: rules.DormitoryLimits
    used_slots: int
    per_type: dict[str, int]
    per_level: dict[int, int]
    home_areas: list[str] = field(default_factory=list)


def dormitory_usage(guild: Guild) -> DormitoryUsage:
    living = guild.mercenaries.exclude(status=Mercenary.Status.DEAD)
    per_type = dict(living.values_list("card__type").annotate(n=Count("id")))
    per_level = dict(living.values_list("card__level").annotate(n=Count("id")))
    return DormitoryUsage(
        limits=limits_of(guild),
        used_slots=living.count(),
        per_type={t: per_type.get(t, 0) for t in rules.MERCENARY_TYPES},
        per_level={lv: per_level.get(lv, 0) for lv in rules.MERCENARY_LEVELS},
        home_areas=home_areas_of(guild),
    )


def roster(guild: Guild):
    """Mercenaries with their weapons (top first) and codes, for the roster (5.8, 6.3)."""
    return (
        guild.mercenaries.select_related("card__area", "hold")
        .prefetch_related(
            # "primary" sorts before "secondary": the top weapon first.
            Prefetch(
                "weapons",
                queryset=ArmoryWeapon.objects.select_related("card")
                .prefetch_related("card__features")
                .order_by("slot"),
            ),
            Prefetch("codes", queryset=LibraryCode.objects.select_related("card__kabbalah")),
        )
        .order_by(Case(When(status=Mercenary.Status.DEAD, then=1), default=0), "card__name")
    )


def _character(card) -> dict:
    return {
        "card_id": card.pk,
        "name": card.name,
        "level": card.level,
        "armor": card.armor,
        "impact_resistance": card.impact_resistance,
        "hit_factor": card.hit_factor,
        "movement": card.movement,
        "hand_to_hand": [card.hand_to_hand_dice, card.hand_to_hand_modifier],
        "ranged": [card.ranged_dice, card.ranged_modifier],
        "arcane_ability": card.arcane_ability,
        "abilities": [
            {
                "activation": a.activation,
                "fate_cost": a.fate_cost,
                "standard": a.standard,
                "x": a.x,
                "name": a.name,
                "text": a.text,
            }
            for a in card.abilities.all()
        ],
    }


def _fixed_weapons(card) -> dict:
    """A follower's or daemon's printed weapons as ``[name, type, damage, features,
    melee_damage, range]`` (the last two None unless ranged, 5.1.2, 5.1.4), and its arcane
    reference code (``"codes"``: ``[code]`` or ``[]``; followers only, 5.1.2, 6.4.1)."""
    code = getattr(card, "arcane_code", None)
    return {
        "primary_weapon": [
            card.primary_weapon,
            card.primary_weapon_type,
            card.primary_damage,
            card.primary_features,
            card.primary_melee_damage,
            card.primary_range,
        ],
        "secondary_weapon": [
            card.secondary_weapon,
            card.secondary_weapon_type,
            card.secondary_damage,
            card.secondary_features,
            card.secondary_melee_damage,
            card.secondary_range,
        ],
        "codes": [code_data(code)] if code is not None else [],
    }


def follower_data(card) -> dict:
    """A follower card as a mission snapshot entry: its factors, every ability with its
    activation and fate-point cost, its fixed weapons (shooting and brawl damage, range) and
    its arcane reference code (5.1.2, 6.4.1; the shape ``missions.rules.guildcards``
    reads)."""
    return {**_character(card), **_fixed_weapons(card)}


def weapon_data(card: WeaponCard) -> dict:
    return {
        "card_id": card.pk,
        "name": card.name,
        "type": card.type,
        "characteristic": card.characteristic,
        "grip": card.grip,
        "damage": card.damage,
        "melee_damage": card.melee_damage,
        "range": card.range,
        "features": [
            {"standard": f.standard, "x": f.x, "text": f.text} for f in card.features.all()
        ],
    }


def code_data(card: ArcaneCodeCard) -> dict:
    return {
        "card_id": card.pk,
        "name": card.name,
        "kabbalah": card.kabbalah.name,
        "summoning": {"white": card.summoning_white, "black": card.summoning_black},
        "pentacle": {
            "name": card.pentacle_name,
            "effects": [
                {"standard": e.standard, "x": e.x, "text": e.text}
                for e in card.pentacle_effects.all()
            ],
        },
        "powers": [
            {
                "position": p.position,
                "name": p.name,
                "range": p.range,
                "white": p.white_mana,
                "black": p.black_mana,
                "effects": [
                    {"standard": e.standard, "x": e.x, "text": e.text} for e in p.effects.all()
                ],
            }
            for p in card.powers.all()
        ],
    }


def guild_snapshot(guild: Guild) -> dict:
    """A JSON-able copy of what a mission needs from the Guild, as it is now (docs/architecture.md: a
    mission's opening events carry the characters' factors, weapons and the pantheon, so a later
    edit of a card cannot change a past game).

    ``{"guild": {id, name, colour, fame, feods}, "mercenaries": [{id, status, ready, type,
    area, favourite_weapon, ...factors, weapons: [{slot, ...}], codes: [...]}],
    "guests": [follower...], "pantheon": [daemon...]}``.
    """
    mercenaries = []
    for m in roster(guild).prefetch_related("card__abilities"):
        card = m.card
        readiness = mercenary_can_go_on_mission(m)
        mercenaries.append(
            {
                "id": m.pk,
                "status": m.status,
                "ready": readiness.ok,
                "not_ready_code": readiness.code,
                "type": card.type,
                "area": card.area.name,
                "favourite_weapon": card.favourite_weapon,
                **_character(card),
                "weapons": [
                    {"id": w.pk, "slot": w.slot, **weapon_data(w.card)} for w in m.weapons.all()
                ],
                "codes": [{"id": c.pk, **code_data(c.card)} for c in m.codes.all()],
            }
        )
    guests = [
        {
            "id": g.pk,
            **_character(g.card),
            **_fixed_weapons(g.card),
        }
        for g in guild.guests.select_related("card").prefetch_related("card__abilities")
    ]
    pantheon = [
        {
            "id": p.pk,
            "kabbalah": p.card.kabbalah.name,
            **_character(p.card),
            **_fixed_weapons(p.card),
        }
        for p in guild.pantheon.select_related("card__kabbalah").prefetch_related("card__abilities")
    ]
    return {
        "guild": {
            "id": guild.pk,
            "name": guild.name,
            "colour": guild.colour,
            "fame": guild.fame,
            "feods": guild.feods,
        },
        "mercenaries": mercenaries,
        "guests": guests,
        "pantheon": pantheon,
    }
