"""DemLoc's live region in Jinja2: the globals its templates (``missions/jinja2/``) use.

DemLoc's live region past the lobby (``live.html``, ``_piece.html``, ``_bar.html``,
``_mission.html``) is Jinja2's alone (``tabletop.jinja``; docs/architecture.md, "The live
region"); what it shows rarely stays Django's and is included (``django_include``: the
preparation ``_setup.html``, an ended mission's ``_mission_ended.html`` and the bar's
``_bar_stages.html``). A one-tap command (``cmd``, written a dozen times by every card) and a token counter
(``tokens``) are functions; ``cmd`` is also the Django tag ``{% cmd %}`` of a sheet's forms,
which the page fetches (``missions.views.piece_forms``: Django's ``_piece_forms.html``).

The cards (``piece_card``) are kept per process and table: a card's HTML depends on the piece
alone (``lazy_card_key``), so a command re-renders only the cards it changed
(tests/missions/test_card_cache.py).
"""

from __future__ import annotations

import json
import marshal
import re
import threading
from collections import OrderedDict, namedtuple
from functools import lru_cache
from hashlib import blake2b
from itertools import groupby

from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.safestring import SafeString
from jinja2 import Environment, pass_context

from missions.rules.view import SeatPiece
from missions.templatetags.missions_tags import arrows, cmd, pips, public_card, ref_link
from tabletop import blocks
from tabletop.jinja import finalize, public_block


class TableCards:
    """The cards kept for one table (``piece_card``): those its newest state rendered
    (``now``, at ``version``) and those of the state before that it has not shown yet
    (``before``), where the next state finds the cards its command did not change (each
    moved to ``now`` when found)."""

    __slots__ = ("version", "now", "before")

    def __init__(self, version: int) -> None:
        self.version, self.now, self.before = version, {}, {}


_CARDS: OrderedDict[int, TableCards] = OrderedDict()
_CARDS_LOCK = threading.Lock()
#: Tables whose cards a process keeps (least recently rendered dropped first; an evening's
#: 100 tables and more). A four-player table's newest state shows about 24 cards (each piece
#: as its owner sees it and as the others do), about 7 KB of HTML each (1 byte a character:
#: ``tabletop.blocks.narrow``) under a 16-byte digest; a command changes one or two. One list
#: of the newest cards of every table (``CARDS_KEPT``, 1,024 then 4,096) had to hold every
#: table's to hit at all: 4,096 were about 70 MB a process when full.
CARD_TABLES_KEPT = 256
#: Cards rendered / found rendered by ``piece_card`` in this process (tests, bench).
card_renders = 0
card_hits = 0
#: Card keys worked out (``card_digest``: the marshal of what a card shows) in this process.
card_keys = 0


def tokens(url="", type="", label="", value="", can="", at_zero="", piece="", token="",  # noqa: A002
           colour="", max="", minus="", plus="") -> SafeString:  # noqa: A002
    """A card's token counter (``missions/_piece.html``): its label, value (of ``max``) and
    − and + (when ``can``; − disabled by ``at_zero``), each a ``cmd``."""
    out = ['<div class="dl-counter" data-token="', finalize(token),
           '">\n  <span class="dl-counter-label">', finalize(label), "</span>\n  "]
    if can:
        out.append(cmd(url=url, type=type, piece=piece, token=token, colour=colour, delta=-1,
                       label="\u2212", aria=minus, css="dl-pm", disabled=at_zero))
    out += ['\n  <span class="dl-counter-value">', finalize(value)]
    if max:
        out += ['<span class="muted">/', finalize(max), "</span>"]
    out.append("</span>\n  ")
    if can:
        out.append(cmd(url=url, type=type, piece=piece, token=token, colour=colour, delta=1,
                       label="+", aria=plus, css="dl-pm"))
    out.append("\n</div>\n")
    return SafeString("".join(out))


Grouped = namedtuple("Grouped", ["grouper", "list"])


def regroup(items, field: str) -> list:
    """``{% regroup items by field as groups %}``: consecutive items with the same ``field``."""
    return [Grouped(k, list(g)) for k, g in groupby(items or (), key=lambda x: x.get(field))]


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


def lazy_card_key(p: dict, forms_url: str, command_url) -> bytes:
    """What the HTML of piece ``p``'s card without its forms depends on: the piece's fields
    but ``FORM_FIELDS``, whether it has forms (``forms_url``, "" when none) and the command
    URL, serialised exactly (``marshal``, version 2: no back-references; JSON for a value
    marshal does not take). Nothing of the view: a fate point or another piece's change
    leaves it as it was (tests/missions/test_card_cache.py). The key is those bytes
    themselves, in the piece's key order (the same piece in another order is a miss, never a
    wrong hit), about 4 KB a card: ``piece_card`` keeps a card under their 128-bit BLAKE2b
    digest (6 us a card, against the key's 4 KB held for as long as the card is kept: at
    100 tables a process, about 10 MB)."""
    card = p if type(p) is dict and FORM_FIELDS.isdisjoint(p) else \
        {k: v for k, v in p.items() if k not in FORM_FIELDS}  # a plain dict (marshal's)
    parts = [card, forms_url, command_url]
    try:  # marshal (version 2: no back-references) is ~7x faster than JSON for this
        return b"m" + marshal.dumps(parts, 2)
    except ValueError:  # a value marshal does not take
        return b"j" + json.dumps(parts, sort_keys=True, default=repr,
                                 separators=(",", ":")).encode()


def card_digest(p: dict) -> bytes:
    """The 128-bit BLAKE2b digest of ``lazy_card_key(p, "", None)``: what piece ``p``'s card
    shows but its forms URL and command URL (kept under it with those two beside it; the
    key's 4 KB were more than half of what a kept card held besides its HTML). Worked out
    once for a ``missions.rules.view.SeatPiece`` shown alike, in every view of this state
    and the next ones while the piece's common view is kept (its ``card_key``): an
    unchanged card of a new state costs an attribute read, where the key
    of each of the 43 cards a command shows cost more than the rest of the cards' renders
    (docs/performance.md "DemLoc at an evening's scale")."""
    global card_keys
    digest = p.kept_card_key() if type(p) is SeatPiece else None
    if digest is None:
        card_keys += 1
        digest = blake2b(lazy_card_key(p, "", None), digest_size=16).digest()
        if type(p) is SeatPiece:
            p.keep_card_key(digest)
    return digest


@lru_cache(maxsize=4096)
def _forms_url(code: str, piece: str, urlconf, prefix: str) -> str:
    """The URL of a piece's sheet forms (``missions.views.piece_forms``), reversed once per
    table, piece, URLconf and script prefix in this process (every card of every view asked
    for it again: ~0.1 ms a card)."""
    return reverse("missions:piece_forms", args=[code, piece], urlconf=urlconf)


@pass_context
def piece_card(context, p: dict) -> str:
    """``missions/_piece.html`` for the piece ``p`` (a piece of ``view.my_pieces`` or
    ``view.other_pieces``) in the live region: the card without its sheet's forms (empty
    slots and the URL the page fetches them from when the sheet is opened,
    ``missions.views.piece_forms``; frontend/app.js), rendered from the piece, its forms URL
    and the command URL alone.

    The process keeps each table's cards under a digest of ``lazy_card_key`` (``TableCards``: those of
    its newest state and of the state before, for ``CARD_TABLES_KEPT`` tables) and renders a
    card only when something it shows changed: a command changes one or two pieces, and the
    other cards of every view, this state's and the next ones', are the HTML already
    rendered. Another Guild's card, which no phone can edit, is one entry for every view that
    shows it. Kept by table, not in one list of the newest cards of every table: a process
    serving more tables than that list held (1,024 cards: 32 tables of four) found none of a
    table's cards left at its next command (docs/performance.md "DemLoc at an evening's scale", sitting of 2026-12-07
    05:57). Outside a table (no ``table`` in the context) nothing is kept."""
    global card_renders, card_hits
    table = context.get("table")
    command_url = context.get("command_url")
    forms_url = ""
    if table is not None and has_forms(context.get("view") or {}, p):
        # the URLconf and prefix the region's context read once (``tabletop.live.table_shared``)
        url_env = context.get("url_env") or (get_urlconf(), get_script_prefix())
        forms_url = _forms_url(table.code, p["id"], *url_env)
    key = (card_digest(p), forms_url, command_url)
    pk = getattr(table, "pk", None)
    version = getattr(table, "version", 0)
    cards = None
    if pk is not None:
        with _CARDS_LOCK:
            cards = _CARDS.get(pk)
            if cards is None:
                cards = _CARDS[pk] = TableCards(version)
                while len(_CARDS) > CARD_TABLES_KEPT:
                    _CARDS.popitem(last=False)
            else:
                _CARDS.move_to_end(pk)
                if version > cards.version:  # a newer state: the newest one's are the before
                    cards.before, cards.now, cards.version = cards.now, {}, version
            html = cards.now.get(key)
            if html is None and version == cards.version:
                # carried over to this state (not held twice, with its 4 KB key)
                html = cards.before.pop(key, None)
                if html is not None:
                    cards.now[key] = html
            elif html is None:  # an older state's render: found, never kept
                html = cards.before.get(key)
            if html is not None:
                card_hits += 1
                return html
    html = blocks.Kept.of(context.environment.get_template("missions/_piece.html").render(
        p=p, lazy_forms=True, forms_url=forms_url, command_url=command_url))
    with _CARDS_LOCK:
        card_renders += 1
        if cards is not None and version == cards.version:  # an older state's: not kept
            cards.now[key] = html
    return html


@pass_context
def piece_block(context, p: dict) -> str:
    """``{{ piece_block(p) }}``: piece ``p``'s card as a block of the live region, what
    ``{% call public_block("piece-", p.id, public=p|public_card) %}{{ piece_card(p) }}{% endcall %}``
    writes, without a ``{% call %}``'s macro made for every card of every view (a public
    card found rendered at this state costs a dict look-up: ``tabletop.blocks.render_public``)."""
    return public_block(context, "piece-", p["id"], public=public_card(p),
                        caller=lambda: piece_card(context, p))


def forget_cards() -> None:
    """Empty this process's card cache (tests: a render from scratch)."""
    with _CARDS_LOCK:
        _CARDS.clear()


_CHANGE = re.compile(r"(?<![\w.])(-?\d+) (->|→) (-?\d+)(?![\w])")


def undone(text: str) -> str:
    """What an Undo did to a log line (docs/playing.md "Playing at a table", step 4): each
    count the line changed, "bleeding 0 -> 1", reads the way the Undo took it, "bleeding 1 ->
    0"; a line with no such count is returned as it is (the page strikes it through)."""
    return _CHANGE.sub(lambda m: f"{m.group(3)} {m.group(2)} {m.group(1)}", text)


def extend(env: Environment) -> None:
    """Add DemLoc's globals and filters to the live region's environment."""
    env.globals.update(cmd=cmd, tokens=tokens, regroup=regroup, piece_card=piece_card,
                       piece_block=piece_block,
                       pips=pips, ref_link=ref_link)
    env.filters.update(public_card=public_card, undone=undone, arrows=arrows)
