"""Small helpers for the mission page: links into the rules reference and token pips."""

import html as _html
import re
from datetime import datetime
from functools import lru_cache

from django import template
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from jinja2 import Undefined

from guilds import services as guild_services
from missions.models import Mission, MissionDefinition
from missions.services import guild_of
from tabletop.jinja import finalize

register = template.Library()


def _force(value) -> str:
    """``|force_escape`` (Jinja2's missing value: empty): Django's ``escape`` of the value's
    text, ``html.escape(str(value))``, without the filter's ``stringfilter`` and lazy-argument
    wrappers (each ``cmd`` writes several: they were a fifth of a DemLoc card's render)."""
    return "" if isinstance(value, Undefined) else _html.escape(str(value))


@register.simple_tag
def cmd(url="", type="", label="", confirm="", piece="", token="", delta="", amount="",  # noqa: A002
        mode="", step="", state="", colour="", extra="", css="", aria="",
        disabled="") -> SafeString:
    """``{% cmd url=command_url type="demloc.piece.escape" piece=p.id label="..." %}`` (and
    ``cmd(...)`` in the Jinja2 live region, ``missions.jinja``): a one-tap command's form, a
    button posting ``type`` with the given ``d.<field>`` values (``extra``: the whole data as
    JSON); ``confirm``: the two-tap confirmation's words; ``css``: the button's classes.
    Every value escaped as Django's ``force_escape`` would."""
    out = ['<form hx-post="', finalize(url), '" data-command class="inline"']
    if confirm:
        out += [' data-two-step="', _force(confirm), '"']
    out += ['>\n<input type="hidden" name="type" value="', _force(type), '">']
    for name, found in (("d.piece", piece), ("d.token", token), ("d.delta", delta),
                        ("d.amount", amount), ("d.mode", mode), ("d.step", step),
                        ("d.state", state), ("d.colour", colour), ("data", extra)):
        if found:
            out += ['<input type="hidden" name="', name, '" value="', _force(found), '">']
    out += ['\n<button class="btn ', finalize(css or ""), '" ']
    if aria:
        out += ['aria-label="', _force(aria), '"']
    if disabled:
        out.append(" disabled")
    out += [">", finalize(label), "</button>\n</form>\n"]
    return SafeString("".join(out))


@register.simple_tag
def ref_link(ref: dict) -> str:
    """A feature's name linking to its rules reference entry (plain text for a unique one)."""
    if not ref.get("key"):
        return format_html('<span class="dl-feature">{}</span>', ref["text"])
    url = _reference_url(get_urlconf(), get_script_prefix()) + "#" + ref["key"]
    return format_html('<a class="dl-feature" href="{}">{}</a>', url, ref["text"])


@lru_cache(maxsize=16)
def _reference_url(urlconf, prefix: str) -> str:
    """The rules reference's URL for a URLconf and script prefix, reversed once (a card
    links its features to it)."""
    return reverse("missions:reference", urlconf=urlconf)


@register.simple_tag
def pips(count: int, total: int) -> str:
    """``count`` filled and ``total - count`` empty circles (broken tokens out of the limit)."""
    count, total = int(count or 0), int(total or 0)
    # what format_html and format_html_join of each circle wrote, written at once
    return SafeString(f'<span aria-label="{count} of {total}">{"●" * count}'
                      f'{"○" * max(0, total - count)}</span>')


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
def get_key(mapping, key):
    """``mapping[key]``, or "" (a power's ``no_effect`` reason for one target)."""
    return (mapping or {}).get(key, "")


@register.filter
def in_play_but(pieces, piece_id) -> list:
    """The characters of ``pieces`` still in play but ``piece_id``: a shooter's own characters,
    its targets only where a stray shot lands (rulebook 7.2.2.2, the Shoot form's last group)."""
    return [t for t in pieces or [] if t.get("status") == "in_play" and t.get("id") != piece_id]


@register.filter
def ranged(weapons) -> bool:
    """True when one of the weapons (a piece's ``weapon_refs``) has a range: the character can shoot (rulebook 7.2.2 Shooting sub-phase)."""
    return any(w.get("range") for w in weapons or [])


@register.filter
def public_card(p: dict) -> bool:
    """Whether piece ``p``'s card is the same on every phone but its owner's (a public block
    of the live region, ``tabletop.blocks``): not the viewer's own and nothing on it the viewer
    may change (a table where anyone controls every piece shows each seat its controls)."""
    return not (p.get("mine") or p.get("editable") or p.get("counters_editable"))


@register.filter
def amounts(g: dict) -> str:
    """A Guild's result in words, zero amounts left out ("+2 fame, +3 feods"; "-2 fame";
    nothing at all: "no fame, feods or blood stones"), never "+0 feods"."""
    words = (("fame", "fame", "fame"), ("feods", "feod", "feods"),
             ("blood_stones", "blood stone", "blood stones"))
    parts = []
    for key, one, many in words:
        n = int((g or {}).get(key) or 0)
        if n:
            parts.append(f"{n:+d} {one if abs(n) == 1 else many}")
    return ", ".join(parts) or "no fame, feods or blood stones"


_ARROW = re.compile(r"(?<=\S) -> (?=\S)|(?<=\S) ->$")


@register.filter
def arrows(text: str) -> str:
    """A line the player reads with its arrows drawn, "armor damage 0 → 1", "Stray shot!
    Out-of-control d10 1 → north": the rules and the log keep ASCII "->" (what the API and the
    whole-log page give), the page shows "→" (docs/playing.md "A live table"); anything else
    is returned as it is. ``{{ line|arrows }}`` in the Django templates and the live region's
    Jinja2 (``missions.jinja``)."""
    return _ARROW.sub(lambda m: m.group(0).replace("->", "→"), text) if isinstance(text, str) else text
