"""The thumb bar's "<Step>: waiting for A · B" line (6.4.1, the preparation steps): a name cut
by an ellipsis at 360 px leaves a blank before what follows it, so a comma glued to the name
read "The Lanter… , Bob's Ravens." (found by a new user). Names are parted by a space and a
middle dot, which reads right after a blank, and no full stop follows the last (its title
says the sentence)."""

from django.template.loader import render_to_string

LONG = "The Lantern-Bearers of the Drowned Bell Quarter"


def test_the_names_are_parted_by_a_dot_after_a_space_and_none_follows_the_last():
    html = render_to_string(
        "missions/_waiting_for.html",
        {"s": {"stage_label": "Guilds", "waiting": [LONG, "Bob's Ravens"]}},
    )
    assert '<span class="dl-nm">' + LONG + "</span><span>&nbsp;·</span>" in html
    assert "</span>,</span>" not in html and "<span>,</span>" not in html
    assert html.rstrip().endswith('<span class="dl-nm">Bob&#x27;s Ravens</span></span>'), html
