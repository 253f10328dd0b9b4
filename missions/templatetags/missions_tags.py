"""Small helpers for the mission page: links into the rules reference and token pips."""

from datetime import datetime

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from guilds import services as guild_services
from missions.models import Mission, MissionDefinition
from missions.services import guild_of

register = template.Library()


@register.simple_tag(takes_context=True)
def piece_card(context, p: dict) -> str:
    """``missions/_piece.html`` for the piece ``p`` (a piece of ``view.my_pieces`` or
    ``view.other_pieces``) in the live region's context.

    A card this phone cannot edit (``p.editable`` false: another Guild's character, or any
    card once the mission has ended) depends on the state and on two things of the view
    only: whether the piece is the viewer's (``p.mine``) and whether the viewer holds a seat
    (``view.me``: the possession forms). Its HTML is rendered once per state for each of those
    and shared by every view of the state the fan-out renders (``shared_html``, kept by
    ``tabletop.views.table_shared``): with four players each other Guild's cards are rendered
    once, not three times (issue 19 point 2: DemLoc's public table). An editable card is the
    seat's own (its forms name its fate points, its targets) and is rendered for its view."""
    template = context.template.engine.get_template("missions/_piece.html")
    cache = context.get("shared_html")
    key = None
    if cache is not None and not p.get("editable"):
        view = context.get("view") or {}
        key = ("missions/_piece.html", p.get("id"), bool(p.get("mine")),
               view.get("me") is not None)
        html = cache.get(key)
        if html is not None:
            return html
    with context.push(p=p):
        html = template.render(context)
    if key is not None:
        cache[key] = html
    return html


@register.simple_tag
def ref_link(ref: dict) -> str:
    """A feature's name linking to its rules reference entry (plain text for a unique one)."""
    if not ref.get("key"):
        return format_html('<span class="dl-feature">{}</span>', ref["text"])
    url = reverse("missions:reference") + "#" + ref["key"]
    return format_html('<a class="dl-feature" href="{}">{}</a>', url, ref["text"])


@register.simple_tag
def pips(count: int, total: int) -> str:
    """``count`` filled and ``total - count`` empty circles (broken tokens out of the limit)."""
    count, total = int(count or 0), int(total or 0)
    filled = format_html_join("", "{}", (("●",) for _ in range(count)))
    empty = format_html_join("", "{}", (("○",) for _ in range(max(0, total - count))))
    return format_html('<span aria-label="{} of {}">{}{}</span>', count, total, filled, empty)


@register.simple_tag
def mission_definitions():
    """The missions offered in the lobby (for the Continue form of a closed mission)."""
    return list(MissionDefinition.objects.filter(is_active=True))


@register.simple_tag
def next_mission_code(table) -> str:
    """The table code of the mission that continued this one (6.4.1), or ``""``."""
    nxt = Mission.objects.filter(previous__table=table).select_related("table").first()
    return nxt.table.code if nxt else ""


@register.filter
def iso_datetime(value):
    """An ISO 8601 string (as the setup stores ``taken_at``) as a datetime for ``|date``;
    ``None`` when empty or unreadable."""
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


@register.simple_tag
def guest_choices(table, seat) -> dict:
    """For the Guilds stage: the guest Guilds of the Master on this phone and the seats
    without an account and without a Guild yet, where a friend can play one (section 4).
    ``{"guests": [GuestGuild], "seats": [Seat]}``; empty lists for anyone else."""
    user = getattr(seat, "user", None)
    if seat is None or user is None:
        return {"guests": [], "seats": []}
    guild = guild_of(user)
    if guild is None:
        return {"guests": [], "seats": []}
    bound = set(((table.state or {}).get("setup") or {}).get("guilds", {}))
    seats = [s for s in table.seats.filter(user__isnull=True) if str(s.number) not in bound]
    return {"guests": list(guild_services.guest_guilds(guild)), "seats": seats}


@register.filter
def ranged(weapons) -> bool:
    """True when one of the weapons (a piece's ``weapon_refs``) has a range: the character can shoot (rulebook 7.2.2 Shooting sub-phase)."""
    return any(w.get("range") for w in weapons or [])
