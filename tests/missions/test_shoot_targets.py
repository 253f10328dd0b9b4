"""The Shoot form's target list: the opponents first, the shooter's own characters last after
a separator saying when they are a target (rulebook 7.2.2.2: a failed ranged test strays, and
"the direction shows the position of any new target (which could be another enemy character or
even an allied character)"). Found by two new users: "Haldra the Wall (yours)" at the end of a
plain list, an easy mis-pick on a phone's select."""

import re
from html import unescape

from django.template.loader import render_to_string

from missions.rules.view import view

from .demloc_sim import new_sim


def groups(html: str) -> list[tuple[str, list[str]]]:
    """The Shoot form's target select: each optgroup's label and its options' values, in order;
    an option outside any group makes a group of its own labelled ""."""
    select = re.search(r'<select name="d\.target">(.*?)</select>', html, re.S).group(1)
    found = []
    for label, inner, loose in re.findall(r'<optgroup label="([^"]*)">(.*?)</optgroup>|(<option[^>]*>)', select, re.S):
        found.append((unescape(label), re.findall(r'<option value="([^"]+)"', inner or loose)))
    return found


def test_the_shot_targets_are_the_opponents_then_my_own_after_a_separator_7_2_2_2():
    t = new_sim()
    v = view(t.state, 0)
    korr = next(p for p in v["my_pieces"] if p["id"] == "s0-korr")
    html = render_to_string(
        "missions/_piece_forms.html",
        {"p": korr, "view": v, "command_url": "/c/", "table": {"code": "ABC"}},
    )
    found = groups(html)
    theirs = [p["id"] for p in v["other_pieces"] if p["status"] == "in_play"]
    mine = [p["id"] for p in v["my_pieces"] if p["status"] == "in_play" and p["id"] != "s0-korr"]
    assert theirs and mine
    assert found == [("Opponents", theirs),
                     ("Yours: only where a stray shot lands (7.2.2.2)", mine)], found
