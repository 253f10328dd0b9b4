"""DemLoc's live region in Jinja2: the globals its templates (``missions/jinja2/``) use.

The same markup as the Django templates of ``missions/templates/`` (``live.html``,
``_piece.html``, ``_bar.html``, ``_mission.html``), rendered two to three times faster
(``tabletop.jinja``; docs/architecture.md, "The live region"). ``_cmd.html`` and
``_tokens.html``, included a dozen times by every card, are functions here (``cmd``,
``tokens``) writing the same bytes. tests/missions/test_jinja_live.py renders random
playouts with both engines and compares every region.
"""

from __future__ import annotations

from collections import namedtuple
from itertools import groupby

from django.urls import get_script_prefix, get_urlconf
from django.utils.safestring import SafeString
from jinja2 import Environment, Undefined, pass_context

from missions.templatetags import missions_tags
from missions.templatetags.missions_tags import (
    _forms_url,
    has_forms,
    lazy_card_key,
    pips,
    public_card,
    ref_link,
)
from tabletop.jinja import finalize

#: ``lazy_card_key``'s name of the card rendered by the Jinja2 template (kept apart from the
#: Django template's cards in ``missions_tags._CARDS``).
CARD = "missions/_piece.html#lazy#jinja2"


def _force(value) -> str:
    """``|force_escape``."""
    return "" if isinstance(value, Undefined) else finalize(str(value))


def cmd(url="", type="", label="", confirm="", piece="", token="", delta="", amount="",  # noqa: A002
        mode="", step="", state="", colour="", extra="", css="", aria="",
        disabled="") -> SafeString:
    """``{% include "missions/_cmd.html" with ... only %}``: a one-tap command's form."""
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


def tokens(url="", type="", label="", value="", can="", at_zero="", piece="", token="",  # noqa: A002
           colour="", max="", minus="", plus="") -> SafeString:  # noqa: A002
    """``{% include "missions/_tokens.html" with ... only %}``: a token counter with its − and
    + (when ``can``)."""
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


@pass_context
def piece_card(context, p: dict) -> str:
    """``{% piece_card p %}`` in the live region (``missions_tags.piece_card``): the card
    without its sheet's forms, kept per process by ``lazy_card_key`` and rendered from the
    piece, its forms URL and the command URL alone."""
    table = context.get("table")
    command_url = context.get("command_url")
    forms_url = ""
    if table is not None and has_forms(context.get("view") or {}, p):
        forms_url = _forms_url(table.code, p["id"], get_urlconf(), get_script_prefix())
    key = lazy_card_key(p, forms_url, command_url, CARD)
    cards = missions_tags._CARDS
    with missions_tags._CARDS_LOCK:
        html = cards.get(key)
        if html is not None:
            cards.move_to_end(key)
            missions_tags.card_hits += 1
            return SafeString(html)
    html = context.environment.get_template("missions/_piece.html").render(
        p=p, lazy_forms=True, forms_url=forms_url, command_url=command_url)
    with missions_tags._CARDS_LOCK:
        missions_tags.card_renders += 1
        cards[key] = html
        while len(cards) > missions_tags.CARDS_KEPT:
            cards.popitem(last=False)
    return SafeString(html)


def extend(env: Environment) -> None:
    """Add DemLoc's globals and filters to the live region's environment."""
    env.globals.update(cmd=cmd, tokens=tokens, regroup=regroup, piece_card=piece_card,
                       pips=pips, ref_link=ref_link)
    env.filters.update(public_card=public_card)
