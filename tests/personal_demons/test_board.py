"""The summoning circle without a game: sigils, placement rules, requirements, seal scoring
(Personal Demons rulebook "Forming Seals", "Placement Rules", "Requirements", "Scoring")."""

from collections import Counter

import pytest

from tabletop.errors import RuleViolation
from tabletop.personal_demons.rules import board as B
from tabletop.personal_demons.rules.content import build_catalog, default_geometry, demo_cards

GEO = default_geometry()


def card(cid, sigils=("blue",) * 4, value=1, size="regular", deck="round1", **extra):
    return {
        "id": cid,
        "name": cid,
        "deck": deck,
        "size": size,
        "types": ["Imp"],
        "value": value,
        "sigils": list(sigils),
        "requirements": [],
        **extra,
    }


def put(board, c, spaces, *, face_up=True, half=None, fear=False):
    pid = f"p{board['next']}"
    board["next"] += 1
    board["placements"].append(
        {
            "pid": pid,
            "card": c["id"],
            "size": c["size"],
            "spaces": spaces,
            "half": half,
            "face_up": face_up,
            "fear": fear,
        }
    )
    return pid


# -- sigils (rulebook "Forming Seals") ------------------------------------------------------
@pytest.mark.parametrize(
    ("quarters", "expected"),
    [
        (["blue"] * 4, "blue"),
        (["red", "purple", "red", "purple"], "red"),
        (["yellow", "purple", "purple", "purple"], "yellow"),
        (["purple"] * 4, "purple"),  # completely wild: the player chooses
        (["blue", "red", "blue", "blue"], None),  # more than one colour: invalid
        (["blue", "red", "purple", "purple"], None),  # purple does not save two colours
        (["blue", "blue", "blue", None], None),  # a missing quarter
        ([None] * 4, None),
    ],
)
def test_sigil_validity(quarters, expected):
    assert B.sigil_colour(quarters) == expected


def test_four_cards_meeting_at_a_point_form_a_sigil_of_their_corners():
    cards = {
        "a": card("a", ["red", "red", "red", "blue"]),  # br meets the point
        "b": card("b", ["red", "red", "purple", "red"]),  # bl
        "c": card("c", ["red", "blue", "red", "red"]),  # tr
        "d": card("d", ["blue", "red", "red", "red"]),  # tl
    }
    board = B.empty_board()
    put(board, cards["a"], [[1, 1]])
    put(board, cards["b"], [[1, 2]])
    put(board, cards["c"], [[2, 1]])
    put(board, cards["d"], [[2, 2]])
    colours, pids = B.sigil_at(board, cards, GEO, [2, 2])
    assert colours == ["blue", "purple", "blue", "blue"]
    assert B.formable_seals(board, cards, GEO) == [((2, 2), "blue")]
    assert pids == ["p1", "p2", "p3", "p4"]


def test_face_down_card_has_no_sigil_quarter():
    cards = {x: card(x) for x in "abcd"}
    board = B.empty_board()
    put(board, cards["a"], [[1, 1]])
    put(board, cards["b"], [[1, 2]])
    put(board, cards["c"], [[2, 1]])
    put(board, cards["d"], [[2, 2]], face_up=False)
    assert B.formable_seals(board, cards, GEO) == []


def test_built_in_wild_corner_completes_a_sigil_with_three_cards():
    """Default geometry: the inner corner of each corner space is printed wild."""
    cards = {x: card(x, ["yellow"] * 4) for x in "abc"}
    board = B.empty_board()
    put(board, cards["a"], [[0, 1]])
    put(board, cards["b"], [[1, 0]])
    put(board, cards["c"], [[1, 1]])
    assert B.formable_seals(board, cards, GEO) == [((1, 1), "yellow")]
    # a card over the printed corner hides it: now its own corner counts
    cards["d"] = card("d", ["red"] * 4)
    put(board, cards["d"], [[0, 0]])
    assert B.formable_seals(board, cards, GEO) == []


def test_hefty_card_gives_sigils_only_at_its_four_corners():
    cards = {"h": card("h", ["red"] * 4, size="hefty", deck="hefty", shape=[1, 2])}
    cards.update({x: card(x, ["red"] * 4) for x in "abcdef"})
    board = B.empty_board()
    put(board, cards["h"], [[1, 1], [1, 2]])
    put(board, cards["a"], [[0, 0]])
    put(board, cards["b"], [[0, 1]])
    put(board, cards["c"], [[1, 0]])
    put(board, cards["d"], [[0, 2]])
    put(board, cards["e"], [[0, 3]])
    put(board, cards["f"], [[1, 3]])
    found = dict(B.formable_seals(board, cards, GEO))
    assert found[(1, 1)] == "red"  # hefty's top-left corner
    assert found[(1, 3)] == "red"  # hefty's top-right corner
    assert (1, 2) not in found  # the middle of its long edge is no corner


def test_small_cards_upright_and_inverted_give_their_top_corners():
    """Rulebook "Small cards": upright at the top, or inverted at the bottom of a space."""
    frag = card("f", ["yellow", "red", None, None], size="small", deck="fragment")
    cards = {"f": frag, "g": dict(frag, id="g")}
    board = B.empty_board()
    put(board, cards["f"], [[1, 1]], half="top")
    put(board, cards["g"], [[1, 1]], half="bottom")
    top = B.tops(board)
    slot = lambda corner: B.slot_sigil(board, cards, top, {"space": [1, 1], "corner": corner})[0]  # noqa: E731
    assert (slot("tl"), slot("tr")) == ("yellow", "red")
    # inverted: its top-right lands bottom-left, its top-left bottom-right
    assert (slot("bl"), slot("br")) == ("red", "yellow")


# -- placement (rulebook "Placement Rules") ------------------------------------------------
@pytest.fixture
def cards():
    return {
        "r": card("r"),
        "fear": card("fear", deck="fear"),
        "royal": card("royal", deck="royal"),
        "small": card("small", size="small", deck="fragment"),
        "hefty": card("hefty", size="hefty", deck="hefty", shape=[1, 2]),
        "colossal": card("colossal", size="colossal", deck="colossal", shape=[2, 2]),
    }


def test_regular_card_goes_on_empty_face_down_face_up_and_small_cards(cards):
    board = B.empty_board()
    put(board, cards["r"], [[0, 1]], face_up=False)
    put(board, cards["r"], [[0, 2]], face_up=True)
    put(board, cards["small"], [[0, 3]], half="top")
    for space in ([0, 0], [0, 1], [0, 2], [0, 3]):
        assert B.check_placement(board, cards, cards["r"], space, face_up=False) == [space]


@pytest.mark.parametrize(
    ("under", "code"), [("fear", "on_fear"), ("hefty", "on_big_card"), ("colossal", "on_big_card")]
)
def test_regular_card_never_on_fear_hefty_or_colossal(cards, under, code):
    board = B.empty_board()
    spaces = {
        "fear": [[0, 0]],
        "hefty": [[0, 0], [0, 1]],
        "colossal": [[0, 0], [0, 1], [1, 0], [1, 1]],
    }
    put(board, cards[under], spaces[under], fear=under == "fear")
    with pytest.raises(RuleViolation) as exc:
        B.check_placement(board, cards, cards["r"], [0, 0], face_up=True)
    assert exc.value.code == code


def test_royal_deck_cards_never_face_down(cards):
    board = B.empty_board()
    with pytest.raises(RuleViolation) as exc:
        B.check_placement(board, cards, cards["royal"], [0, 0], face_up=False)
    assert exc.value.code == "royal_face_down"
    assert B.check_placement(board, cards, cards["royal"], [0, 0], face_up=True) == [[0, 0]]


def test_small_cards_top_or_bottom_of_empty_space_or_half_space(cards):
    board = B.empty_board()
    assert B.check_placement(board, cards, cards["small"], [2, 2], face_up=True, half="top")
    put(board, cards["small"], [[2, 2]], half="top")
    with pytest.raises(RuleViolation) as exc:
        B.check_placement(board, cards, cards["small"], [2, 2], face_up=True, half="top")
    assert exc.value.code == "half_taken"
    assert B.check_placement(board, cards, cards["small"], [2, 2], face_up=True, half="bottom")
    with pytest.raises(RuleViolation) as exc:
        B.check_placement(board, cards, cards["small"], [2, 2], face_up=True, half="sideways")
    assert exc.value.code == "bad_half"  # never vertical
    put(board, cards["r"], [[3, 3]])
    with pytest.raises(RuleViolation) as exc:
        B.check_placement(board, cards, cards["small"], [3, 3], face_up=True, half="top")
    assert exc.value.code == "small_on_card"


def test_hefty_over_exactly_two_face_up_regular_demons(cards):
    board = B.empty_board()
    put(board, cards["r"], [[0, 0]])
    put(board, cards["r"], [[0, 1]])
    assert B.check_placement(board, cards, cards["hefty"], [0, 0], face_up=True) == [[0, 0], [0, 1]]
    with pytest.raises(RuleViolation) as exc:
        B.check_placement(board, cards, cards["hefty"], [0, 1], face_up=True)
    assert exc.value.code == "over_empty"
    with pytest.raises(RuleViolation) as exc:
        B.check_placement(board, cards, cards["hefty"], [0, 3], face_up=True)
    assert exc.value.code == "off_circle"


@pytest.mark.parametrize(
    ("second", "kwargs", "code"),
    [
        ("fear", {"fear": True}, "on_fear"),
        ("r", {"face_up": False}, "over_face_down"),
        ("small", {"half": "top"}, "over_wrong_size"),
    ],
)
def test_hefty_never_over_fear_face_down_or_small(cards, second, kwargs, code):
    board = B.empty_board()
    put(board, cards["r"], [[2, 0]])
    put(board, cards[second], [[2, 1]], **kwargs)
    with pytest.raises(RuleViolation) as exc:
        B.check_placement(board, cards, cards["hefty"], [2, 0], face_up=True)
    assert exc.value.code == code


def test_colossal_over_four_face_up_demons_never_over_a_hefty(cards):
    board = B.empty_board()
    for space in ([1, 1], [1, 2], [2, 1], [2, 2]):
        put(board, cards["r"], [space])
    assert len(B.check_placement(board, cards, cards["colossal"], [1, 1], face_up=True)) == 4
    put(board, cards["hefty"], [[2, 1], [2, 2]])
    with pytest.raises(RuleViolation) as exc:
        B.check_placement(board, cards, cards["colossal"], [1, 1], face_up=True)
    assert exc.value.code == "over_wrong_size"


# -- requirements (rulebook "Requirements") ------------------------------------------------
@pytest.mark.parametrize(
    ("requirements", "seals", "wild", "ok"),
    [
        ([], {}, 0, True),
        (["blue"], {"blue": 1}, 0, True),
        (["blue"], {"red": 3}, 0, False),
        (["red", "any"], {"red": 1}, 0, False),  # Pandemonial: one ADDITIONAL seal
        (["red", "any"], {"red": 2}, 0, True),
        (["red", "any"], {"red": 1, "yellow": 1}, 0, True),
        (
            ["blue", "blue", "yellow"],
            {"blue": 1, "yellow": 1},
            1,
            True,
        ),  # Pan-Demonium fills one gap
        (["blue", "red", "yellow"], {"blue": 1}, 1, False),  # ... but only one
        (["any", "any"], {}, 1, False),
    ],
)
def test_requirements(requirements, seals, wild, ok):
    assert B.meets(requirements, Counter(seals), wild) is ok


# -- scoring (rulebook "Score active seals" example: 5 + 8 + 6 + 0) -------------------------
def test_rulebook_scoring_example():
    """Three seals each touching three cards and a built-in wild corner score 0+3+2=5,
    1+3+4=8 and 1+1+4=6; a cracked yellow seal scores nothing."""
    cards = {}

    def add(cid, value, space, board):
        cards[cid] = card(cid, value=value)
        put(board, cards[cid], [space])

    board = B.empty_board()
    add("a", 0, [0, 1], board)
    add("b", 3, [1, 0], board)
    add("c", 2, [1, 1], board)  # seal (1, 1): 0 + 3 + 2, the wild corner of space (0, 0)
    add("d", 1, [0, 2], board)
    add("e", 3, [1, 2], board)
    add("f", 4, [1, 3], board)  # seal (1, 3): 1 + 3 + 4
    add("g", 1, [2, 0], board)
    add("h", 1, [2, 1], board)
    add("i", 4, [3, 1], board)  # seal (3, 1): 1 + 1 + 4
    add("j", 9, [2, 3], board)
    board["seals"] = [
        {"sid": 1, "colour": "blue", "active": True, "point": [1, 1], "on": None},
        {"sid": 2, "colour": "blue", "active": True, "point": [1, 3], "on": None},
        {"sid": 3, "colour": "red", "active": True, "point": [3, 1], "on": None},
        {"sid": 4, "colour": "yellow", "active": False, "point": [3, 3], "on": None},
    ]
    scores = B.seal_scores(board, cards, GEO)
    assert [(s["values"], s["points"]) for s in scores] == [
        ([0, 3, 2], 5),
        ([1, 3, 4], 8),
        ([1, 1, 4], 6),
    ]
    assert sum(s["points"] for s in scores) == 19


def test_seals_removed_by_a_card_on_top_include_the_back_seal_of_a_covered_card():
    cards = {"a": card("a"), "b": card("b")}
    board = B.empty_board()
    put(board, cards["a"], [[1, 1]], face_up=False)
    board["seals"] = [
        {"sid": 1, "colour": "red", "active": False, "point": None, "on": "p1"},
        {"sid": 2, "colour": "blue", "active": True, "point": [2, 2], "on": None},
        {"sid": 3, "colour": "blue", "active": True, "point": [3, 3], "on": None},
    ]
    pid = put(board, cards["b"], [[1, 1]])
    assert B.seals_removed_by(board, B.placement_by_pid(board, pid)) == [1, 2]


# -- content -------------------------------------------------------------------------------
def test_demo_content_is_complete():
    """Round I-III 36 each, Royal 2:1, Fragment 2:1, 12 Fears, Courage incl. the
    eight type cards and the clarified ones, hefty and colossal Personal Demons."""
    catalog = build_catalog(demo_cards())
    decks = Counter(c["deck"] for c in catalog.values())
    assert decks["round1"] == decks["round2"] == decks["round3"] == 36
    royal = Counter("Knight" in c["types"] for c in catalog.values() if c["deck"] == "royal")
    fragment = Counter("Knight" in c["types"] for c in catalog.values() if c["deck"] == "fragment")
    assert royal[False] == 2 * royal[True] and fragment[False] == 2 * fragment[True]
    assert decks["fear"] == 12 and all(
        len(c["tiers"]) == 4 for c in catalog.values() if c["deck"] == "fear"
    )
    assert all(c["value"] == 1 for c in catalog.values() if c["deck"] == "fear")
    names = {c["name"] for c in catalog.values() if c["deck"] == "courage"}
    for name in [
        "Imps",
        "Devils",
        "Shades",
        "Royals",
        "Presidents",
        "Nobles",
        "Fragments",
        "Knights",
        "Score Sins",
        "Abyss",
        "Inferno",
        "Limbo",
        "Keeper",
        "More Sins",
        "Pan-Demonium",
        "Pile Up",
    ]:
        assert name in names
    assert decks["hefty"] == 12 and decks["colossal"] == 16
    assert all(
        c["cost"]["sin"] in ("glut", "hate", "want")
        for c in catalog.values()
        if c["deck"] == "colossal"
    )


@pytest.mark.parametrize(
    ("card_id", "change"),
    [
        ("I-01", {"sigils": ["green", None, None, None]}),
        ("I-01", {"sin": "pride"}),
        ("FE-01", {"tiers": []}),
        ("C-01", {"effect": {"kind": "teleport"}}),
        ("X-01", {"cost": {"sin": "any", "amount": 6}}),
        ("H-01", {"ability": {"kind": "mystery"}}),
    ],
)
def test_bad_card_is_refused(card_id, change):
    card = next(c for c in demo_cards() if c["id"] == card_id)
    with pytest.raises(RuleViolation) as exc:
        build_catalog([{**card, **change}])
    assert exc.value.code == "bad_card"


def test_a_card_of_no_known_size_is_never_placed():
    """Rulebook "Placement Rules" know regular, small, hefty and colossal cards only: a card face
    of another size (content is data) is refused, nothing placed."""
    board = B.empty_board()
    odd = card("odd", size="huge")
    with pytest.raises(RuleViolation) as exc:
        B.check_placement(board, {"odd": odd}, odd, [0, 0], face_up=True)
    assert exc.value.code == "bad_size"
    assert board == B.empty_board()
