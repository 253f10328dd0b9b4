"""The helpers a DemLoc card is written with (``missions.templatetags.missions_tags``: ``cmd``,
``pips``, ``ref_link``) write what Django's own escaping and formatting wrote, written at once
(a card's render halved: docs/performance.md "DemLoc at an evening's scale"), and a card's
fields are looked up as Django's engine does, its piece a ``SeatPiece`` (DemLoc rulebook
6.4.2, the app screen's character sheets)."""

import pytest
from django.template.defaultfilters import force_escape
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy
from jinja2 import Undefined

from missions.rules.view import SeatPiece
from missions.templatetags import missions_tags
from tabletop.jinja import environment

VALUES = ["plain", "a <b> & \"c\" 'd'", "", 0, 3, -2, 1.5, True, mark_safe("<i>&amp;</i>"),
          SafeString("x&y"), gettext_lazy("Close"), "\u2212 \u25cb \u00e9"]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_a_command_value_is_escaped_as_force_escape_escapes_it(value):
    assert missions_tags._force(value) == str(force_escape(value))


def test_a_missing_value_is_empty():
    assert missions_tags._force(Undefined()) == ""


def django_pips(count, total):
    """``pips`` as it was written with Django's helpers."""
    count, total = int(count or 0), int(total or 0)
    filled = format_html_join("", "{}", (("●",) for _ in range(count)))
    empty = format_html_join("", "{}", (("○",) for _ in range(max(0, total - count))))
    return format_html('<span aria-label="{} of {}">{}{}</span>', count, total, filled, empty)


@pytest.mark.parametrize("count, total", [(0, 0), (0, 3), (2, 3), (3, 3), (4, 3), (-1, 2),
                                          (None, 4), ("2", "5")])
def test_pips_write_what_django_s_helpers_wrote(count, total):
    got = missions_tags.pips(count, total)
    assert got == django_pips(count, total) and isinstance(got, SafeString)


def test_a_feature_links_to_its_reference_entry():
    assert missions_tags.ref_link({"text": "CARE 1", "key": "arcane-care"}) == format_html(
        '<a class="dl-feature" href="{}">{}</a>', reverse("missions:reference") + "#arcane-care",
        "CARE 1")
    assert missions_tags.ref_link({"text": "<x>", "key": None}) == \
        '<span class="dl-feature">&lt;x&gt;</span>'


def test_a_seat_piece_s_fields_are_looked_up_as_a_dict_s():
    """Django's engine looks a dict's key up first; the live region's Jinja2 environment does
    for a ``SeatPiece`` as for a dict: a field named as a dict's method is the field."""
    env = environment()
    template = env.from_string("{{ p.id }} {{ p.items }} {{ p.missing }}|")
    piece = SeatPiece({"id": "s0-korr", "items": "relic"})
    assert template.render(p=piece) == template.render(p=dict(piece)) == "s0-korr relic |"
