"""Guild pages (mobile, htmx). Thin: each POST calls one service; each page is one template
with a ``main`` partial that htmx swaps after an action (Django's template partials).

Every query starts from ``request.user.guild`` (docs/architecture.md "Guilds and timers"): another Guild's rows answer 404.
An action that breaks a rule re-renders the page with the message next to the form that was
used (the form's hidden ``at`` field), status 400, nothing changed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from tabletop.errors import TabletopError
from tabletop.names import name_key
from tabletop.rules import counted

from . import rules, services
from .models import (
    Building,
    Card,
    Expedition,
    Guild,
    GuildColour,
    GuildEvent,
    Mercenary,
    PantheonDaemon,
)
from .services import queries
from .services._common import building_level

PAGES = (
    "office",
    "friends",
    "gate",
    "dormitory",
    "armory",
    "library",
    "guesthouse",
    "pantheon",
    "buildings",
    "ledger",
)


ALREADY_DONE = "Done once: a second tap on the same button changes nothing."


def _guild(request: HttpRequest):
    return Guild.objects.filter(master=request.user).first()


def _base(guild) -> dict:
    return {
        "guild": guild,
        "levels": dict(guild.buildings.values_list("kind", "level")),
        "holds": services.mission_holds(guild),
    }


def city_badge(guild) -> int:
    """Returned expeditions not yet read plus city events waiting for an answer (6.2)."""
    returned = Expedition.objects.filter(
        guild=guild, settled_at__isnull=False, seen_at__isnull=True
    ).count()
    return returned + GuildEvent.objects.filter(guild=guild, settled_at__isnull=True).count()


def _office(guild) -> dict:
    mercenaries = list(queries.roster(guild))
    return {
        "tour": not guild.tour_seen,
        "mercenaries": mercenaries,
        "ready": sum(1 for m in mercenaries if services.mercenary_can_go_on_mission(m)),
        "ledger": guild.ledger.all()[:8],
        "city_badge": city_badge(guild),
        "name_max": rules.GUILD_NAME_MAX,
        # A Guild without a set redeemed: the City Gate is the next step (the founding
        # message says so), so it is the highlighted tile, not the Map.
        "first_step_gate": not queries.redeemed_sets(guild).exists(),
        # Parties out in the city (6.2): who, where, and when they are back.
        "parties": guild.expeditions.filter(settled_at__isnull=True)
        .select_related("point")
        .prefetch_related("mercenaries__card")
        .order_by("due_at"),
    }


def _gate(guild) -> dict:
    return {
        "redeemed": queries.redeemed_sets(guild),
        "database": {
            label: queries.guild_database(guild, kind) for kind, label in Card.Kind.choices
        },
    }


def _dormitory(guild) -> dict:
    mercenaries = list(queries.roster(guild))
    usage = queries.dormitory_usage(guild)
    return {
        "mercenaries": [(m, services.mercenary_can_go_on_mission(m)) for m in mercenaries],
        "usage": usage,
        # No free slot (5.1.1): no Enlist button (mercenary_enlist refuses with slots_full).
        "dormitory_full": usage.used_slots >= usage.limits.slots,
        "available": [e for e in queries.guild_database(guild, Card.Kind.MERCENARY) if e.left],
        # Enlist disabled with its reason beside it when the rules would refuse it (a level 2
        # mercenary for a Guild without the fame): card pk -> the refusal's message.
        "enlist_refused": {
            e.card.pk: r.message
            for e in queries.guild_database(guild, Card.Kind.MERCENARY)
            if e.left and (r := services.enlist_refusal(guild, e.card)) is not None
        },
        "fame_for_level": rules.FAME_FOR_LEVEL,
        "home_per_type": rules.HOME_AREA_PER_TYPE,
        "home_level_2": rules.HOME_AREA_LEVEL_2,
        "max_home": rules.MAX_HOME_AREAS,
    }


def _present(guild):
    return (
        guild.mercenaries.filter(status__in=[Mercenary.Status.ACTIVE, Mercenary.Status.INJURED])
        .select_related("card")
        .order_by("card__name")
    )


def _armory(guild) -> dict:
    weapons = list(guild.weapons.select_related("card", "mercenary__card").prefetch_related(
        "card__features"
    ))
    present = list(_present(guild))
    held: dict[int, list[rules.Held]] = {}
    for w in weapons:
        if w.mercenary_id is not None:
            held.setdefault(w.mercenary_id, []).append(rules.Held(w.slot, w.card.two_handed))
    return {
        "weapons": weapons,
        "capacity": rules.ARMORY_CAPACITY[building_level(guild, "armory")],
        "available": [e for e in queries.guild_database(guild, Card.Kind.WEAPON) if e.left],
        # Buy disabled with its reason beside it when weapon_buy would refuse it (a purse too
        # small, a full armory): card pk -> the refusal's message (as the Dormitory's Enlist).
        "buy_refused": {
            e.card.pk: r.message
            for e in queries.guild_database(guild, Card.Kind.WEAPON)
            if e.left and (r := services.buy_refusal(guild, e.card)) is not None
        },
        "present": present,
        # Equip's picker for each weapon in the armory: every present mercenary with why the
        # grip rule refuses the weapon to them now ("" when it does not), the first who can
        # take it picked (5.1.4).
        "equip_choices": {
            w.pk: {"choices": [(m, why[m.pk]) for m in present],
                   "nobody": all(why.values())}
            for w in weapons
            if w.mercenary_id is None
            and (why := rules.equip_refusals(held, [m.pk for m in present], w.card.two_handed))
        },
    }


def _library(guild) -> dict:
    codes = guild.codes.select_related("card__kabbalah", "mercenary__card").prefetch_related(
        "card__powers__effects", "card__pentacle_effects"
    )
    arcane = [m for m in _present(guild) if m.card.arcane_ability > 0]
    codes = list(codes)
    available = [e for e in queries.guild_database(guild, Card.Kind.ARCANE_CODE) if e.left]
    # Said at the Add and Assign controls before the feods are spent (found by a new user: a
    # codex whose summoning needs 3 mana was bought and assigned to a sorcerer holding at most 2,
    # and the library warned only after): the words the assignment says after
    # (``rules.summon_beyond_reach``, ``_code_assigned``).
    for code in codes:
        code.assign_options = [
            {"mercenary": m, "warning": _beyond(m, code.card)} for m in arcane
        ]
    available = [
        {
            "card": e.card,
            "left": e.left,
            # what none of the Guild's characters could pay: said for the one holding the
            # most mana
            "summon_warning": _beyond_every(arcane, e.card),
        }
        for e in available
    ]
    return {
        "codes": codes,
        "capacity": rules.LIBRARY_CAPACITY[building_level(guild, "library")],
        "available": available,
        "arcane": arcane,
    }


def _beyond(mercenary, card) -> str:
    """What ``mercenary`` could never pay of the Arcane Code ``card`` (its summoning, its
    powers: 5.1.1, 5.1.5), in words, or ""."""
    return _out_of_reach(mercenary.card.name, mercenary.card.arcane_ability, card)


def _out_of_reach(name: str, ability: int, card) -> str:
    powers = rules.powers_beyond_reach(name, ability, _powers(card))
    return " ".join(w for w in (
        rules.summon_beyond_reach(name, ability, card.summoning_white, card.summoning_black,
                                  powers_ok=not powers),
        powers,
    ) if w)


def _beyond_every(arcane, card) -> str:
    if not arcane:
        return ""
    most = max(arcane, key=lambda m: m.card.arcane_ability)
    words = _out_of_reach(most.card.name, most.card.arcane_ability, card)
    return f"None of your characters could pay all of it. {words}" if words else ""


def _powers(card) -> list[tuple[str, int, int]]:
    """An Arcane Code card's powers as ``(name, common, dark)`` mana (prefetched)."""
    return [(p.name, p.white_mana, p.black_mana) for p in card.powers.all()]


def _guesthouse(guild) -> dict:
    return {
        "guests": guild.guests.select_related("card"),
        "capacity": rules.GUESTHOUSE_CAPACITY[building_level(guild, "guesthouse")],
        "available": [
            e
            for e in queries.guild_database(guild, Card.Kind.FOLLOWER)
            if e.left and e.card.can_enlist_permanently
        ],
        "temporary": [
            e
            for e in queries.guild_database(guild, Card.Kind.FOLLOWER)
            if not e.card.can_enlist_permanently
        ],
    }


def _pantheon(guild) -> dict:
    grouped: dict[str, dict[int, list[PantheonDaemon]]] = {}
    for entry in guild.pantheon.select_related("card__kabbalah"):
        grouped.setdefault(entry.card.kabbalah.name, {}).setdefault(entry.card.level, []).append(
            entry
        )
    chosen = set(guild.pantheon.values_list("card_id", flat=True))
    return {
        "grouped": {k: sorted(v.items()) for k, v in sorted(grouped.items())},
        "capacity": rules.PANTHEON_CAPACITY[building_level(guild, "library")],
        "count": len(chosen),
        "available": [
            e for e in queries.guild_database(guild, Card.Kind.DAEMON) if e.card.pk not in chosen
        ],
    }


def effect_text(kind: str, level: int) -> str:
    """What a building level gives, in words: "6 slots · 3 per type · level 2: 3, ..."."""
    e = rules.building_effects(kind, level)
    if kind == "dormitory":
        per_level = ", ".join(f"level {lv}: {n}" for lv, n in e["per_level"].items())
        return f"{counted(e['slots'], 'slot')} · {e['per_type']} per type · {per_level}"
    if kind == "armory":
        return f"{counted(e['weapons'], 'weapon')}"
    if kind == "library":
        return f"{e['arcane_codes']} Arcane Codes · pantheon of {e['pantheon']} daemons"
    if kind == "guesthouse":
        return f"{e['followers']} permanent followers"
    return f"defense {e['defense']}"


def _buildings(guild) -> dict:
    rows = []
    for building in guild.buildings.all():
        top = building.level >= rules.MAX_BUILDING_LEVEL
        rows.append(
            {
                "building": building,
                "now": effect_text(building.kind, building.level),
                "next": None if top else effect_text(building.kind, building.level + 1),
                "cost": None if top else rules.upgrade_cost(building.kind, building.level),
            }
        )
    order = {k: i for i, k in enumerate(rules.BUILDING_KINDS)}
    return {"rows": sorted(rows, key=lambda r: order[r["building"].kind])}


def _ledger(guild) -> dict:
    return {"entries": guild.ledger.all()[:200]}


def _friends(guild) -> dict:
    """Guest Guilds (section 4) and the database cards a new one can take."""
    return {
        "guest_guilds": services.guest_guilds(guild),
        "mercenary_cards": [e for e in queries.guild_database(guild, Card.Kind.MERCENARY)],
        "weapon_cards": [e for e in queries.guild_database(guild, Card.Kind.WEAPON)],
        "colours": GuildColour.choices,
        "card_names": dict(Card.objects.filter(kind__in=["mercenary"]).values_list("pk", "name")),
    }


CONTEXT: dict[str, Callable] = {
    "friends": _friends,
    "office": _office,
    "gate": _gate,
    "dormitory": _dormitory,
    "armory": _armory,
    "library": _library,
    "guesthouse": _guesthouse,
    "pantheon": _pantheon,
    "buildings": _buildings,
    "ledger": _ledger,
}


def _render(request, page: str, guild, extra: dict | None = None, status: int = 200):
    context = {**_base(guild), **CONTEXT[page](guild), "page": page, **(extra or {})}
    template = f"guilds/{page}.html"
    if request.htmx:
        template += "#main"
    return render(request, template, context, status=status)


def _perform(
    request: HttpRequest,
    page: str,
    action: Callable,
    done: str | Callable = "",
    land: Callable | None = None,
    **kwargs,
):
    """Run one service for the user's Guild; on success redirect (or re-render the partial for
    htmx), on a broken rule re-render with the message at the form that was used.

    The landing rule of the Guild pages (docs/playing.md, "The Guild pages: where a tap
    lands"): the confirmation is shown at the row the tap made or changed (``land(result)``: the id of that
    row, e.g. ``"weapon-12"``; by default the row of the form that was used, its hidden ``at``
    field), and the page script (``guilds/guilds.js``) brings that row into view. A row the tap
    removed (dismiss, send away) has no place left: the confirmation is at the top. ``done`` is
    the confirmation's text, or a function of the service's result that gives it.

    A double tap changes nothing (``services.form_once``): the form's hidden ``once`` key runs
    the service once; the same form sent again answers the page as it is, with ``ALREADY_DONE``.
    """
    guild = _guild(request)
    if guild is None:
        return redirect("guilds:home")
    try:
        ran, result = services.form_once(
            guild=guild, key=request.POST.get("once", ""), action=action, **kwargs
        )
    except TabletopError as exc:
        guild.refresh_from_db()
        at = request.POST.get("at", "")
        response = _render(request, page, guild, {"error": exc, "error_at": at}, status=exc.status)
        if at and f'role="alert" data-code="{exc.code}"'.encode() not in response.content:
            # No control of the page says it (its row is gone: another tab bought the last copy
            # just before this tap): the refusal is said at the top of the page, where it
            # lands, not lost. ``at`` names a form's error place (``form_error``), not an id.
            response = _render(request, page, guild, {"error": exc}, status=exc.status)
        return response
    if ran:
        text = done(result) if callable(done) else done
        at = land(result) if land is not None else request.POST.get("at", "")
    else:  # the same form sent twice (a double tap): the first one did it, this one nothing
        text, at = ALREADY_DONE, ""
    if request.htmx:
        guild.refresh_from_db()
        return _render(request, page, guild, {"done": text, "done_at": at})
    if text:
        messages.success(request, text)
    url = reverse("guilds:home" if page == "office" else f"guilds:{page}")
    return redirect(f"{url}#{at}" if at else url)


def _page_view(page: str):
    @require_GET
    @login_required
    def view(request):
        guild = _guild(request)
        if guild is None:
            return redirect("guilds:home")
        return _render(request, page, guild)

    view.__name__ = page
    view.__doc__ = f"The {page} page of the user's Guild."
    return view


friends = _page_view("friends")
gate = _page_view("gate")
dormitory = _page_view("dormitory")
armory = _page_view("armory")
library = _page_view("library")
guesthouse = _page_view("guesthouse")
pantheon = _page_view("pantheon")
buildings = _page_view("buildings")
ledger = _page_view("ledger")


@require_GET
@login_required
def home(request):
    """The Master's office, or the founding form when the user has no Guild yet (6.2)."""
    guild = _guild(request)
    if guild is None:
        return render(request, "guilds/found.html", {"colours": GuildColour.choices})
    if request.GET.get("tour"):  # the Tour link opens it again
        return _render(request, "office", guild, {"tour": True})
    return _render(request, "office", guild)


@require_http_methods(["GET", "POST"])
@login_required
def found(request):
    """Found a Guild with an account card code (6.2, first access). GET shows the form (so a
    page reloaded after a refused code still works); a Master who has a Guild goes home."""
    if request.method == "GET":
        if _guild(request) is not None:
            return redirect("guilds:home")
        return render(request, "guilds/found.html", {"colours": GuildColour.choices})
    try:
        services.guild_create(
            master=request.user,
            account_code=request.POST.get("code", ""),
            name=request.POST.get("name", ""),
            colour=request.POST.get("colour", ""),
        )
    except TabletopError as exc:
        guild = _guild(request) if getattr(exc, "code", "") == "guild_exists" else None
        posted = name_key(request.POST.get("name", ""))
        if guild is not None and name_key(guild.name) == posted:
            return redirect(reverse("guilds:home"))  # a double tap: the first one founded it
        return render(
            request,
            "guilds/found.html",
            {"colours": GuildColour.choices, "error": exc, "form": request.POST},
            status=exc.status,
        )
    messages.success(request, "Your Guild is founded. Redeem your set codes at the City Gate.")
    return redirect(reverse("guilds:home"))  # its first visit: the office shows the tour (6.2)


@require_GET
@login_required
def roster(request):
    """The printable Guild box roster (5.8, 6.3)."""
    guild = _guild(request)
    if guild is None:
        return redirect("guilds:home")
    mercenaries = queries.roster(guild).prefetch_related("card__abilities")
    return render(
        request,
        "guilds/roster.html",
        {
            "guild": guild,
            "mercenaries": [(m, services.mercenary_can_go_on_mission(m)) for m in mercenaries],
            "guests": guild.guests.select_related("card"),
            "pantheon": guild.pantheon.select_related("card__kabbalah"),
            "armory": guild.weapons.filter(mercenary__isnull=True).select_related("card"),
            "shelf": guild.codes.filter(mercenary__isnull=True).select_related("card"),
            "buildings": guild.buildings.all(),
        },
    )


def _action(page: str):
    """An action view: POST runs it; GET (the address of a page re-rendered after a refused
    action, reloaded) goes back to ``page`` instead of a blank 405; a login is required."""

    def wrap(view):
        @functools.wraps(view)
        @require_http_methods(["GET", "POST"])
        @login_required
        def inner(request, *args, **kwargs):
            if request.method == "GET":
                return redirect("guilds:home" if page == "office" else f"guilds:{page}")
            return view(request, *args, **kwargs)

        return inner

    return wrap


# --- actions: one service each -------------------------------------------------------------------


def _row(prefix: str) -> Callable:
    """``land`` for an action whose result is a new row: ``"<prefix>-<its pk>"``."""
    return lambda result: f"{prefix}-{result.pk}"


def _gone(result) -> str:
    """``land`` for an action that removed its row: the confirmation stays at the top."""
    return ""


@_action("gate")
def redeem(request):
    return _perform(
        request,
        "gate",
        services.set_code_redeem,
        lambda code: f"{code.card_set.name}: its cards are in your database.",
        code=request.POST.get("code", ""),
    )


@_action("office")
def rename(request):
    """Rename the Guild (or change its colour) from the Master's office (a name the seats
    accept, ``guilds.rules.GUILD_NAME_MAX``)."""
    return _perform(
        request,
        "office",
        services.guild_update,
        "Guild renamed.",
        name=request.POST.get("name", ""),
        colour=request.POST.get("colour") or None,
    )


@_action("office")
def tour_seen(request):
    """The first-access tour (6.2) was finished or skipped: it does not open by itself again.
    Through htmx the tour's place is emptied (the page keeps the Tour link)."""
    guild = _guild(request)
    if guild is None:
        return redirect("guilds:home")
    services.guild_tour_seen(guild=guild)
    if request.htmx:
        return render(request, "guilds/_tour.html", {"tour": False})
    return redirect("guilds:home")


@_action("friends")
def friend_prepare(request):
    """Prepare a guest Guild for a friend without an account (section 4): the chosen mercenary
    cards, each with the weapon card chosen for it."""
    roster = [
        {"card": pk, "weapons": [w for w in [request.POST.get(f"weapon-{pk}")] if w]}
        for pk in request.POST.getlist("mercenary")
    ]
    return _perform(
        request,
        "friends",
        services.guest_guild_prepare,
        "Guest Guild ready: bring it at a mission for your friend's seat.",
        _row("friend"),
        name=request.POST.get("name", ""),
        colour=request.POST.get("colour", ""),
        roster=roster,
    )


@_action("friends")
def friend_delete(request, pk: int):
    return _perform(
        request, "friends", services.guest_guild_delete, "Guest Guild deleted.", _gone, guest_id=pk
    )


@_action("dormitory")
def enlist(request):
    return _perform(
        request,
        "dormitory",
        services.mercenary_enlist,
        lambda m: f"{m.card.name} enlisted.",
        _row("merc"),
        card_id=request.POST.get("card"),
    )


@_action("dormitory")
def dismiss(request, pk: int):
    return _perform(
        request,
        "dormitory",
        services.mercenary_dismiss,
        "Mercenary dismissed.",
        _gone,
        mercenary_id=pk,
    )


@_action("dormitory")
def heal(request, pk: int):
    return _perform(
        request,
        "dormitory",
        services.mercenary_heal,
        lambda m: f"{m.card.name} healed.",
        mercenary_id=pk,
    )


def _bought(weapon) -> str:
    """Buy's confirmation, at the bought weapon's row, says what the purse has left: the purse
    at the top of the page is out of view when the row is far down the armory (5.1.4)."""
    left = counted(weapon.guild.feods, "feod")
    return f"{weapon.card.name} bought: it is in the armory. {left} left."


@_action("armory")
def buy(request):
    return _perform(
        request,
        "armory",
        services.weapon_buy,
        _bought,
        _row("weapon"),
        card_id=request.POST.get("card"),
    )


def _equipped(weapon) -> str:
    space = "top" if weapon.slot == rules.PRIMARY else "lower"
    return f"{weapon.card.name} equipped: {weapon.mercenary.card.name}, {space} space."


@_action("armory")
def equip(request, pk: int):
    return _perform(
        request,
        "armory",
        services.weapon_equip,
        _equipped,
        weapon_id=pk,
        mercenary_id=request.POST.get("mercenary"),
        slot=request.POST.get("slot") or None,
    )


@_action("armory")
def unequip(request, pk: int):
    return _perform(
        request,
        "armory",
        services.weapon_unequip,
        lambda w: f"{w.card.name} is back in the armory.",
        weapon_id=pk,
    )


@_action("library")
def code_add(request):
    return _perform(
        request,
        "library",
        services.arcane_code_add,
        lambda c: f"{c.card.name} added to the library.",
        _row("code"),
        card_id=request.POST.get("card"),
    )


def _code_assigned(c) -> str:
    warning = _beyond(c.mercenary, c.card)
    return f"{c.card.name} assigned to {c.mercenary.card.name}." + (f" {warning}" if warning else "")


@_action("library")
def code_assign(request, pk: int):
    return _perform(
        request,
        "library",
        services.arcane_code_assign,
        _code_assigned,
        code_id=pk,
        mercenary_id=request.POST.get("mercenary"),
    )


@_action("library")
def code_unassign(request, pk: int):
    return _perform(
        request,
        "library",
        services.arcane_code_unassign,
        lambda c: f"{c.card.name} is back on the shelf.",
        code_id=pk,
    )


@_action("guesthouse")
def follower_enlist(request):
    return _perform(
        request,
        "guesthouse",
        services.follower_enlist,
        lambda g: f"{g.card.name} lodged.",
        _row("guest"),
        card_id=request.POST.get("card"),
    )


@_action("guesthouse")
def follower_dismiss(request, pk: int):
    return _perform(
        request,
        "guesthouse",
        services.follower_dismiss,
        "Follower sent away.",
        _gone,
        guest_id=pk,
    )


@_action("pantheon")
def daemon_add(request):
    return _perform(
        request,
        "pantheon",
        services.daemon_add,
        lambda d: f"{d.card.name} added to the pantheon.",
        _row("daemon"),
        card_id=request.POST.get("card"),
    )


@_action("pantheon")
def daemon_remove(request, pk: int):
    return _perform(
        request, "pantheon", services.daemon_remove, "Daemon removed.", _gone, entry_id=pk
    )


@_action("buildings")
def upgrade(request, kind: str):
    label = dict(Building.Kind.choices).get(kind, kind)
    return _perform(
        request, "buildings", services.building_upgrade, f"{label} upgraded.", kind=kind
    )
