"""The live template renders each seat's prompts from its own view only (no database)."""

from django.template.loader import render_to_string

from .deals import deal


def html(game, seat):
    """The seat's live region and its bottom bar's part (realm/_bar.html: End turn, Pass)."""
    context = {"view": game.view(seat), "command_url": "/c/"}
    return render_to_string("realm/live.html", context) + render_to_string(
        "realm/_bar.html", context
    )


def test_exorcise_prompt_only_on_the_left_players_phone():
    g = deal(
        [
            ["vessel-1", "7C", "2S", "3S", "4S"],
            ["5D", "8V", "9V", "10V", "2V"],
            ["5S", "ES", "EC", "3C", "4C"],
        ],
        active="d04",
    )
    g.send(
        0,
        "realm.demon.bind",
        {"target": "active", "cards": ["vessel-1", "7C"], "declare": {"vessel-1": {"suit": "C", "rank": "5"}}},
    )
    left, binder, third = html(g, 1), html(g, 0), html(g, 2)
    assert "Exorcise (5) with 5 of Daggers" in left and 'id="rl-pass"' in left
    # the Exorcise buttons stand in their own column, a gap between them (realm.css)
    column = left.index('<div class="rl-exorcise">')
    assert column < left.index("Exorcise (5) with") < left.index("</div>", column)
    assert "Exorcise" not in binder.replace("exorcism", "") and 'id="rl-pass"' not in binder
    assert "Ann binds the Active Demon" in third and "Exorcise (5)" not in third
    assert "(as 5 of Candles)" in third  # the Vessel's declaration is public


def test_eater_and_feed_prompts():
    g = deal([["5C", "7C", "2S", "3S", "4S"], ["ES", "EC", "8V", "9V", "2V"]], active="d04")
    g.send(0, "realm.demon.bind", dict(target="active", cards=["5C", "7C"]))
    assert "Play Eater of Skulls" in html(g, 1) and "Play Eater" not in html(g, 0)
    g.send(1, "realm.ritual.eater", dict(card="ES"))
    binder = html(g, 0)
    assert "Feed 2 of Skulls" in binder and "Give up the ritual" in binder
    assert "Feed 2 of Skulls" not in html(g, 1)


def test_glimpse_and_take_only_on_the_seers_phone():
    g = deal([["SD", "2S", "3S", "4S", "5S"], ["2V", "3V", "AV", "vessel-2", "KD"]])
    g.send(0, "realm.warden.seeker", dict(card="SD", opponent=1, suit="V"))
    seer, target = html(g, 0), html(g, 1)
    assert "Take Ace of Virgins" in seer and 'id="rl-glimpse"' in seer
    assert 'id="rl-glimpse"' not in target and "Take " not in target


def test_prelude_pages_for_secret_pacts_and_afflictions():
    g = deal(
        [["2S", "3S", "4S", "5S", "6S"], ["2V", "3V", "4V", "5V", "6V"]],
        pacts="secret",
        afflictions="on",
        affliction_drawer=1,
    )
    ann, bob = html(g, 0), html(g, 1)
    assert ann.count('name="type" value="realm.pact.choose"') == 7
    assert "Your two Affliction cards" in bob and "Give to Ann" in bob
    assert "Give to" not in ann
    g.send(0, "realm.pact.choose", dict(slot=3))
    assert "Your secret Pact" in html(g, 0) and "Your secret Pact" not in html(g, 1)


def test_cards_have_full_accessible_names_and_printed_suit_names():
    # Phones show no tooltips; a screen reader reads "8 of Daggers", not "8 †"
    g = deal([["8D", "ES", "vessel-1", "mimic-1", "AV"], ["2V", "3V", "4V", "5V", "6V"]], active="d04")
    page = html(g, 0)
    for name in ("8 of Daggers", "Eater of Skulls", "Vessel", "Mimic", "Ace of Virgins"):
        assert f'role="img" aria-label="{name}"' in page
    assert "<small>Daggers</small>" in page and "<small>Skulls</small>" in page
    assert "title=" not in page  # nothing is said only in a tooltip
    # demon corners (Mother Wick: C C 5 7) name their suit next to the symbol
    assert page.count('aria-label="Candles"><span aria-hidden="true">♨</span><small>Candles</small>') >= 2


def test_a_card_banned_by_a_curse_says_so_in_the_hand():
    # FAQ "Curse Combinations": the banned card is marked, not silently refused
    g = deal([["10V", "4V", "5V", "5C", "7C"], ["2D", "3D", "4D", "5D", "6D"]], active="d06")
    g.send(0, "realm.demon.bind", {"target": "active", "cards": ["10V", "4V"]})  # no Virgins
    g.send(1, "realm.ritual.pass")
    page = html(g, 0)
    assert 'aria-label="5 of Virgins (your curses forbid playing it)"' in page
    assert 'aria-label="5 of Candles"' in page
