"""Demo content: the Rise of Guilds box (DemLoc rulebook section 4) and the city of DemLoc (6.2).

The rulebook names the sets and the characters of the box but prints no factors, weapons or
codes: every number and every name not in section 4 is our invention, and every row is marked
``is_demo`` so the admin can tell it from real card data. The content is data beside this
module, one TOML file a part, its keys the fields of ``guilds.models`` (a key left out takes
the model's default): ``box.toml`` (the box's name, the kabbalahs), ``city.toml`` (the areas,
control points and random events), ``mercenaries.toml`` (the mercenary sets),
``followers.toml`` (the Followers Set: followers and daemons), ``equipment.toml`` (the
weapons and arcane codes).

``load_demo_content()`` is idempotent and never overwrites a row that exists (an admin's edit of
a demo card survives ``make run``); it only tops up unused codes to ``CODES_PER_SET``.
"""

from __future__ import annotations

import secrets
import tomllib
from pathlib import Path

from django.db import transaction

from .. import rules
from ..models import (
    AccountCode,
    ArcaneCodeCard,
    ArcaneEffect,
    ArcanePower,
    CardSet,
    CharacterAbility,
    CityArea,
    CityEvent,
    CityEventOption,
    ControlPoint,
    ControlPointBonus,
    DaemonCard,
    FollowerCard,
    Guild,
    Kabbalah,
    MercenaryCard,
    PentacleEffect,
    SetCard,
    SetCode,
    WeaponCard,
    WeaponFeature,
)

CODES_PER_SET = 3
HERE = Path(__file__).parent


def read(name: str) -> dict:
    """The TOML file ``name`` beside this module."""
    with (HERE / name).open("rb") as f:
        return tomllib.load(f)


def fields(entry: dict, *besides: str) -> dict:
    """``entry``'s model fields: its scalar keys but ``besides`` (sub-tables left out)."""
    return {k: v for k, v in entry.items() if k not in besides and not isinstance(v, (list, dict))}


def new_code(model) -> str:
    """A fresh random code ``XXXX-XXXX-XXXX`` unused by ``model`` (12 characters of a
    32-letter alphabet: 60 bits, not guessable)."""
    while True:
        raw = "".join(secrets.choice(rules.CODE_ALPHABET) for _ in range(12))
        code = rules.normalize_code(raw)
        if not model.objects.filter(code=code).exists():
            return code


def _set(entry: dict, box: str) -> CardSet:
    card_set, _ = CardSet.objects.get_or_create(
        name=entry["name"], defaults={**fields(entry, "name"), "box": box, "is_demo": True}
    )
    return card_set


def _put(card_set: CardSet, card, quantity: int = 1) -> None:
    SetCard.objects.get_or_create(card_set=card_set, card=card, defaults={"quantity": quantity})


def _card(model, entry: dict, *refs: str, **more):
    """``model``'s card named like ``entry`` (created from its fields and ``more`` if missing,
    ``refs`` being the keys ``more`` replaces): ``(card, created)``."""
    return model.objects.get_or_create(
        name=entry["name"],
        defaults={**fields(entry, "name", "quantity", *refs), **more, "is_demo": True},
    )


def _abilities(card, entry: dict) -> None:
    for ability in entry.get("ability", []):
        CharacterAbility.objects.create(card=card, **ability)


@transaction.atomic
def load_demo_content() -> list[CardSet]:
    """Create the demo catalog if missing and top up codes. Returns the demo sets."""
    box, city = read("box.toml"), read("city.toml")
    areas = {}
    for order, entry in enumerate(city["area"]):
        areas[entry["name"]], _ = CityArea.objects.get_or_create(
            name=entry["name"], defaults={**fields(entry, "name"), "order": order, "is_demo": True}
        )
    kabbalahs = {}
    for entry in box["kabbalah"]:
        kabbalahs[entry["name"]], _ = Kabbalah.objects.get_or_create(
            name=entry["name"], defaults={**fields(entry, "name"), "is_demo": True}
        )

    sets = []
    for set_entry in read("mercenaries.toml")["set"]:
        card_set = _set(set_entry, box["box"])
        sets.append(card_set)
        for entry in set_entry["mercenary"]:
            card, created = _card(MercenaryCard, entry, "area", area=areas[entry["area"]])
            if created:
                _abilities(card, entry)
            _put(card_set, card)

    data = read("followers.toml")
    followers = _set(data["set"], box["box"])
    sets.append(followers)
    for entry in data["follower"]:
        card, _ = _card(FollowerCard, entry)
        _put(followers, card, entry["quantity"])
    for entry in data["daemon"]:
        card, created = _card(DaemonCard, entry, "kabbalah", kabbalah=kabbalahs[entry["kabbalah"]])
        if created:
            _abilities(card, entry)
        _put(followers, card)

    data = read("equipment.toml")
    core = _set(data["set"], box["box"])
    sets.append(core)
    for entry in data["weapon"]:
        card, created = _card(WeaponCard, entry)
        if created:
            for feature in entry.get("feature", []):
                WeaponFeature.objects.create(weapon=card, **feature)
        _put(core, card, entry["quantity"])
    for entry in data["arcane_code"]:
        card, created = _card(
            ArcaneCodeCard, entry, "kabbalah", kabbalah=kabbalahs[entry["kabbalah"]]
        )
        if created:
            for effect in entry.get("pentacle_effect", []):
                PentacleEffect.objects.create(code=card, **effect)
            for position, power_entry in enumerate(entry.get("power", []), start=1):
                power = ArcanePower.objects.create(
                    code=card, position=position, **fields(power_entry)
                )
                for effect in power_entry.get("effect", []):
                    ArcaneEffect.objects.create(power=power, **effect)
        _put(core, card, entry["quantity"])

    for card_set in sets:
        unused = SetCode.objects.filter(card_set=card_set, redeemed_by__isnull=True).count()
        for _ in range(CODES_PER_SET - unused):
            SetCode.objects.create(card_set=card_set, code=new_code(SetCode))
        if card_set.kind == CardSet.Kind.BASIC_GUILD:
            free = AccountCode.objects.filter(card_set=card_set, guild__isnull=True).count()
            for _ in range(CODES_PER_SET - free):
                AccountCode.objects.create(card_set=card_set, code=new_code(AccountCode))
    load_demo_city(areas, city)
    return sets


def load_demo_city(areas: dict[str, CityArea], city: dict | None = None) -> None:
    """The demo control points (two or three per area) and random events (6.2) of
    ``city.toml``. Idempotent: existing rows are kept as they are."""
    city = city or read("city.toml")
    for order, entry in enumerate(city["control_point"]):
        point, created = ControlPoint.objects.get_or_create(
            name=entry["name"],
            defaults={
                **fields(entry, "name", "area"),
                "area": areas[entry["area"]],
                "order": order,
                "is_demo": True,
            },
        )
        if created:
            for bonus in entry.get("bonus", []):
                ControlPointBonus.objects.create(point=point, **bonus)
    for entry in city["event"]:
        event, created = CityEvent.objects.get_or_create(
            title=entry["title"], defaults={**fields(entry, "title"), "is_demo": True}
        )
        if created:
            for order, option in enumerate(entry.get("option", [])):
                CityEventOption.objects.create(event=event, order=order, **option)


def unused_codes(card_set: CardSet) -> tuple[list[str], list[str]]:
    """``(set codes, account codes)`` of ``card_set`` nobody has used yet."""
    codes = list(
        SetCode.objects.filter(card_set=card_set, redeemed_by__isnull=True).values_list(
            "code", flat=True
        )
    )
    used_accounts = Guild.objects.values_list("account_code_id", flat=True)
    accounts = list(
        AccountCode.objects.filter(card_set=card_set)
        .exclude(pk__in=used_accounts)
        .values_list("code", flat=True)
    )
    return codes, accounts
