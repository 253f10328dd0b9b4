"""A stray shot on every phone (DemLoc rulebook 5.6 "Out-of-control card", 7.2.2.2 "a stray
bullet"). Found by a new user: the direction read "towards you, on your left" on both phones
(the card is oriented towards the shooting player: "you" was whoever read it), and the
shooter's phone said the stray shot twice, the newest line under the turn bar then the notice."""

import re

from django.urls import reverse

from missions.rules.possession import OUT_OF_CONTROL_DIRECTIONS
from missions.rules.shooting import stray_text
from tabletop import services
from tabletop.rules import Command
from tabletop.seats import cookie_name, seat_token

SAID = "If a character stands there"


def test_a_stray_shot_square_is_worded_by_the_shooting_player_5_6():
    """Every d10 result but 5 names a square next to the target, from the shooting player's
    side of the board (5.6: the card's marker towards "his position"), never "you"."""
    from missions.rules.possession import STRAY_DIRECTIONS

    assert set(STRAY_DIRECTIONS) == set(OUT_OF_CONTROL_DIRECTIONS)
    for result, words in OUT_OF_CONTROL_DIRECTIONS.items():
        text = stray_text({"rolls": [result], "result": result, "direction": words})
        assert not re.search(r"\byour?\b", text), text
        assert f"-> {words.split(' (')[0]} " in text  # the same square
        assert "shooting player" in text, text
    near_left = stray_text({"rolls": [1], "result": 1, "direction": OUT_OF_CONTROL_DIRECTIONS[1]})
    assert "near left (towards the shooting player, on their left)" in near_left
    five = stray_text({"rolls": [5], "result": 5, "direction": None})
    assert "no effect: the shot is lost (5)" in five


def test_the_shooters_phone_says_a_stray_shot_once_and_both_phones_alike_5_6(client, make_table):
    """Korr's test die fails (a 6): the shot strays. Above the mission log, each phone says
    the stray shot once (the notice, in full; the newest line under the turn bar gives way to
    it), with the same words on both phones."""
    table, (ann, bob) = make_table("demloc", players=2)
    services.run_command(
        table,
        ann,
        Command(
            "demloc.shot.propose",
            {"shooter": "s0-korr", "target": "s1-bram", "test_roll": 6, "dice": [3, 3, 3]},
        ),
    )
    table.refresh_from_db()
    notice = table.state["notice"]
    assert notice["kind"] == "stray"
    # the table's d10 is random: 4, 5 and 6 never said "you" (the wording of every result is
    # checked above, without a table)
    shown = {}
    for who, seat in (("ann", ann), ("bob", bob)):
        client.cookies[cookie_name(table.pk)] = seat_token(seat)
        html = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
        above_log = html.split('id="dl-log"')[0]
        assert above_log.count(SAID) == 1, (who, re.findall(r'id="dl-(?:status|notice)"', above_log))
        shown[who] = re.search(r'id="dl-notice"[^>]*>(.*?)</p>', html, re.S).group(1)
        assert "towards you" not in html and "away from you" not in html, who
    assert shown["ann"] == shown["bob"]
