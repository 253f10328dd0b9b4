"""The Players panel (DemLoc rulebook 6.4.2, the app screen: every player sees the whole table)
names each Guild on one line, cut, unless that cut could not tell it from another Guild of the
table: then the whole name, on two lines (``missions.rules.view.names_alike``). Two Guilds
with 60-letter names told apart by their first letters keep one line each, so the page at the
start of a mission stays within two screens of a 360x740 phone."""

from missions.rules.view import NAME_LINE_LETTERS, names_alike, view

from .demloc_sim import new_sim

A60 = "Ann's Ravens of the Northern Marshes and the Black Quay Gates"[:60]
B60 = "Ben's Wolves of the Southern Hills and the Old Salt Road Inn."[:60]
ALIKE = "The Very Long-Named Guild of Midnight Lanterns 4"


def test_names_told_apart_by_their_first_letters_keep_one_line():
    assert names_alike([A60, B60]) == [False, False]
    assert names_alike(["Ann", "Bob", "Cid"]) == [False, False, False]


def test_names_alike_in_their_first_letters_are_whole_the_others_not():
    assert names_alike([ALIKE, ALIKE[:-1] + "5", "Bob's Ravens"]) == [True, True, False]
    # Case and spaces at the ends do not tell two names apart.
    assert names_alike(["  the very long-named X", ALIKE]) == [True, True]
    # A difference within the letters one line shows is enough.
    head = "x" * (NAME_LINE_LETTERS - 1)
    assert names_alike([head + "a tail", head + "b tail"]) == [False, False]
    assert names_alike([head + "a tail", head + "a tale"]) == [True, True]


def test_the_view_says_which_players_names_are_whole():
    t = new_sim((A60, B60))
    players = view(t.state, 0, forms=False)["players"]
    assert [p["name_whole"] for p in players] == [False, False]
    t = new_sim((ALIKE, ALIKE[:-1] + "5"))
    players = view(t.state, 0, forms=False)["players"]
    assert [p["name_whole"] for p in players] == [True, True]
