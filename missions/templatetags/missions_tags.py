"""Small helpers for the mission page: links into the rules reference and token pips."""

import hashlib
import json
import marshal
import threading
from collections import OrderedDict
from datetime import datetime
from functools import lru_cache

from django import template
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import format_html, format_html_join

from guilds import services as guild_services
from missions.models import Mission, MissionDefinition
from missions.services import guild_of

register = template.Library()


#: What ``missions/_piece.html`` (and the includes it passes its context to) reads of the view
#: besides the piece: the state-wide fields, and these fields of each piece in the lists it
#: offers as targets (``view.pieces``, ``view.other_pieces``, ``view.my_pieces``).
_CARD_VIEW_FIELDS = ("ended", "me", "options", "pending", "phase", "turn")
#: ... and of an editable card (its forms offer the viewer's fate points).
_EDITABLE_VIEW_FIELDS = ("my_fate",)
_CARD_TARGET_FIELDS = ("id", "name", "player", "status", "armor", "possessed",
                       "arcane_effects_live")
_CARDS: OrderedDict[bytes, str] = OrderedDict()
_CARDS_LOCK = threading.Lock()
#: Cards kept per process (about 4-8 KB of HTML each: a few MB).
CARDS_KEPT = 1024
#: Cards rendered / found rendered by ``piece_card`` in this process (tests, bench).
card_renders = 0
card_hits = 0


def card_key(context, p: dict) -> bytes:
    """What the HTML of piece ``p``'s card depends on, hashed: the piece as the view shows it to
    this phone (whether it is editable, its targets: all its own fields), the command URL and
    what the card reads of the view (``_CARD_VIEW_FIELDS``, the mission's kind, the target
    lists' ``_CARD_TARGET_FIELDS``, and ``_EDITABLE_VIEW_FIELDS`` for an editable card). tests/missions/test_card_cache.py renders random missions
    with and without the cache and compares every frame."""
    view = context.get("view") or {}
    editable = bool(p.get("editable"))
    parts = [p, _view_key(view, context.get("command_url"), editable)]
    text = json.dumps(parts, sort_keys=True, default=repr, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=20).digest()


_VIEW_KEYS: OrderedDict[int, tuple] = OrderedDict()


def _view_key(view: dict, command_url, editable: bool) -> str:
    """The part of ``card_key`` that is the same for every card of one view (the view fields,
    the target lists), hashed once per view and kept for the last few views (the view itself
    is kept with it, so its ``id`` is not reused meanwhile)."""
    with _CARDS_LOCK:
        kept = _VIEW_KEYS.get(id(view))
        if kept is not None and kept[0] is view and kept[1] == command_url:
            return kept[2 + editable]
    mission = view.get("mission") or {}
    common = [
        "missions/_piece.html", command_url,
        [view.get(k) for k in _CARD_VIEW_FIELDS], mission.get("kind"),
        [[[t.get(k) for k in _CARD_TARGET_FIELDS] for t in view.get(name) or ()]
         for name in ("pieces", "other_pieces", "my_pieces")],
    ]
    keys = []
    for with_editable in (False, True):
        text = json.dumps(common + [[view.get(k) for k in _EDITABLE_VIEW_FIELDS]
                                    if with_editable else None],
                          sort_keys=True, default=repr, separators=(",", ":"))
        keys.append(hashlib.blake2b(text.encode(), digest_size=20).hexdigest())
    with _CARDS_LOCK:
        _VIEW_KEYS[id(view)] = (view, command_url, *keys)
        while len(_VIEW_KEYS) > 16:
            _VIEW_KEYS.popitem(last=False)
    return keys[editable]


#: The fields of a piece (``missions.rules.view``) that only its sheet's forms read
#: (``missions/_piece_acts.html``, ``_piece_end.html``): a live region's card, whose forms
#: are loaded when its sheet is opened, does not depend on them.
FORM_FIELDS = frozenset({
    "ability_refs", "arcane_dice_left", "assign_codes", "backstack", "brawl_dice",
    "brawl_targets", "can_strike", "daemon_levels", "defend_power", "free_best_roll",
    "fury_paid", "max_daemon_level", "power_refs", "scenery_best_roll", "shoot_dice", "summon",
    "summons",
})


def has_forms(view: dict, p: dict) -> bool:
    """Whether piece ``p``'s sheet has anything ``missions/_piece_forms.html`` shows to this
    phone: its abilities (anyone), its actions, effects or a defend test (a phone that controls
    it), possession by a card effect (any seated phone, while it is in play)."""
    in_play = p.get("status") == "in_play"
    return bool(
        p.get("abilities")
        or (p.get("editable") and (in_play or p.get("defend_power")))
        or (view.get("me") is not None and in_play and not view.get("ended"))
    )


def lazy_card_key(p: dict, forms_url: str, command_url,
                  template: str = "missions/_piece.html#lazy") -> bytes:
    """What the HTML of piece ``p``'s card without its forms depends on, hashed: the piece's
    fields but ``FORM_FIELDS``, whether it has forms (``forms_url``, "" when none) and the
    command URL. Nothing of the view: a fate point or another piece's change leaves it as it
    was (tests/missions/test_card_cache.py). The bytes hashed are the values themselves, in
    the piece's key order (the same piece in another order is a miss, never a wrong hit)."""
    card = p if FORM_FIELDS.isdisjoint(p) else {k: v for k, v in p.items() if k not in FORM_FIELDS}
    parts = [template, card, forms_url, command_url]
    try:  # marshal (version 2: no back-references) is ~7x faster than JSON for this
        data = marshal.dumps(parts, 2)
    except ValueError:  # a value marshal does not take
        data = json.dumps(parts, sort_keys=True, default=repr, separators=(",", ":")).encode()
    return hashlib.blake2b(data, digest_size=20).digest()


@lru_cache(maxsize=4096)
def _forms_url(code: str, piece: str, urlconf, prefix: str) -> str:
    """The URL of a piece's sheet forms (``missions.views.piece_forms``), reversed once per
    table, piece, URLconf and script prefix in this process (every card of every view asked
    for it again: ~0.1 ms a card)."""
    return reverse("missions:piece_forms", args=[code, piece], urlconf=urlconf)


@register.simple_tag(takes_context=True)
def piece_card(context, p: dict) -> str:
    """``missions/_piece.html`` for the piece ``p`` (a piece of ``view.my_pieces`` or
    ``view.other_pieces``) in the live region's context.

    A card's HTML depends on the piece and on a few things of the view only (``card_key``), so
    the process keeps the last ``CARDS_KEPT`` cards rendered and renders a card only when
    something it shows changed: a command changes one or two pieces, and the other cards of
    every view, this state's and the next ones', are the HTML already rendered (DemLoc's
    view cost 8 ms, four fifths of it its cards). Another Guild's card, which no
    phone can edit, is one entry for every view that shows it.

    In the live region (a context with ``live_blocks``) the card leaves its sheet's forms out:
    it has empty slots and the URL the page fetches them from when the sheet is opened
    (``missions.views.piece_forms``; frontend/app.js), so it depends on the piece alone
    (``lazy_card_key``). Elsewhere the forms are in the card."""
    global card_renders, card_hits
    lazy = context.get("live_blocks") is not None
    forms_url = ""
    if lazy:
        table = context.get("table")
        if has_forms(context.get("view") or {}, p) and table is not None:
            forms_url = _forms_url(table.code, p["id"], get_urlconf(), get_script_prefix())
        key = lazy_card_key(p, forms_url, context.get("command_url"))
    else:
        key = card_key(context, p)
    with _CARDS_LOCK:
        html = _CARDS.get(key)
        if html is not None:
            _CARDS.move_to_end(key)
            card_hits += 1
            return html
    template = context.template.engine.get_template("missions/_piece.html")
    with context.push(p=p, lazy_forms=lazy, forms_url=forms_url):
        html = template.render(context)
    with _CARDS_LOCK:
        card_renders += 1
        _CARDS[key] = html
        while len(_CARDS) > CARDS_KEPT:
            _CARDS.popitem(last=False)
    return html


def forget_cards() -> None:
    """Empty this process's card cache (tests: a render from scratch)."""
    with _CARDS_LOCK:
        _CARDS.clear()


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
