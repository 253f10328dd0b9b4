"""Small template helpers for the Guild pages."""

import secrets

from django import template
from django.utils.html import format_html

register = template.Library()


@register.inclusion_tag("guilds/_error.html", takes_context=True)
def form_error(context, *parts):
    """The error of the last action if it came from the form whose hidden ``at`` field is
    ``"-".join(parts)``: ``{% form_error "buy" card.pk %}``."""
    at = "-".join(str(p) for p in parts)
    error = context.get("error")
    return {"error": error if error is not None and context.get("error_at") == at else None}


@register.inclusion_tag("guilds/_done.html", takes_context=True)
def form_done(context, *parts):
    """The confirmation of the last action if it landed on the row ``"-".join(parts)`` (the
    view's ``done_at``: the row the action made or changed, ``guilds.views._perform``), marked
    ``data-landed`` for the page script to bring into view: ``{% form_done "weapon" w.pk %}``."""
    at = "-".join(str(p) for p in parts)
    done = context.get("done")
    return {"done": done if done and context.get("done_at") == at else ""}


@register.filter
def get(mapping, key):
    """``mapping|get:key`` for dicts in templates."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.simple_tag
def fmt_bonus(value):
    """``+1`` / ``-1`` / empty for 0, for hand-to-hand and ranged modifiers."""
    return f"{value:+d}" if value else ""


@register.simple_tag
def once():
    """The hidden one-time key of a Guild form (``guilds.services.once``): a fresh random key
    each time the form is drawn, so a second tap on the same form changes nothing."""
    return format_html('<input type="hidden" name="once" value="{}">', secrets.token_urlsafe(18))
