"""Scoring a district played with real cards ("Score a physical game")."""

import pytest

from tabletop.errors import RuleViolation
from tabletop.personimo.rules.physical import Entry, build_district, parse_cell, score_physical
from tabletop.personimo.rules.scoring import AGE_OF_BADGERS, ScoringOptions, score_district

from .test_scoring import WORKED


def test_cells_are_column_letter_and_row_number():
    assert parse_cell("c3", 5) == (2, 2)
    assert parse_cell("A1", 5) == (0, 0)
    assert parse_cell("g7", 7) == (6, 6)
    for bad in ("f1", "a6", "", "3c", "zz"):
        with pytest.raises(RuleViolation) as exc:
            parse_cell(bad, 5)
        assert exc.value.code == "bad_cell"


def test_the_worked_district_entered_by_hand_scores_the_same():
    # test_scoring.WORKED: the Island on c3, the Sea d3-e3, the Lunatic c4 (Waves) / c5,
    # the Diplomat b3 (Suns) / a3, the Mountain b2 (Suns) / a2. Entered "right" from the left.
    entries = [
        Entry("sea", "d3", "right"),
        Entry("lunatic", "c4", "down", "Waves"),
        Entry("diplomat", "a3", "right", "Moons"),
        Entry("mountain", "a2", "right", "Moons"),
    ]
    result = score_physical("island", "c3", entries)
    assert result["score"]["total"] == score_district(WORKED)["total"] == 14
    assert result["chosen"] == []


def test_unassigned_blocks_get_the_assignment_that_scores_most():
    # The Diplomat (Moons, Suns) beside the Island (Suns, Waves, Wyrms): Suns next to the
    # headquarters makes a 2-block Suns neighborhood with the double-scoring Diplomat: 2 x 2.
    # Suns away from it would score 1 x 2.
    result = score_physical("island", "c3", [Entry("diplomat", "a3", "right")])
    assert result["chosen"] == [{"index": 0, "card": "the Diplomat", "first_suit": "Moons"}]
    assert result["score"]["total"] == 4
    chosen_other = score_physical("island", "c3", [Entry("diplomat", "a3", "right", "Suns")])
    assert chosen_other["score"]["total"] == 2


def test_many_undetermined_cards_still_find_a_good_assignment():
    # Twelve cards fill the district; a local search above nine open cards must be at least as
    # good as putting every bottom suit first.
    spec = [("mountain", "a1"), ("sailor", "c1"), ("battle", "a2"), ("forest", "c2"),
            ("lunatic", "e1", "down"), ("penitent", "a4"), ("castle", "c4"), ("cave", "a5"),
            ("diplomat", "c5"), ("mill", "e4", "down"), ("pact", "a3"), ("merchant", "d3")]  # fmt: skip
    entries = [Entry(k, c, *(d or ("right",))) for k, c, *d in spec]
    result = score_physical(
        "borderland", "c3", entries, options=ScoringOptions(bonus=AGE_OF_BADGERS)
    )
    district, _ = build_district("borderland", "c3", entries)
    baseline = score_district(district, ScoringOptions(bonus=AGE_OF_BADGERS))["total"]
    assert len(result["chosen"]) == 12
    assert result["score"]["total"] >= baseline
    assert {b["name"] for b in result["score"]["bonuses"]} == {"complete", "centre"}


@pytest.mark.parametrize(
    ("hq", "entries", "code"),
    [("sea", [], "bad_card"),
     ("island", [Entry("harvest", "a1")], "bad_card"),
     ("island", [Entry("sea", "b3")], "overlap"),
     ("island", [Entry("sea", "e1")], "bad_cell"),
     ("island", [Entry("sea", "a1", "left")], "bad_direction"),
     ("island", [Entry("sea", "a1", "right", "Moons")], "bad_suits"),
     ("island", [Entry("sea", "a1"), Entry("sea", "a2"), Entry("sea", "a4")], "too_many_copies")],
)  # fmt: skip
def test_bad_entries_are_refused(hq, entries, code):
    with pytest.raises(RuleViolation) as exc:
        score_physical(hq, "c3", entries)
    assert exc.value.code == code


@pytest.mark.django_db
def test_the_page_shows_the_breakdown(client):
    response = client.get("/personimo/score/", {"hq": "island", "hq_cell": "c3", "card0": "sea",
                                                 "cell0": "d3", "dir0": "right"})  # fmt: skip
    assert response.status_code == 200
    html = response.content.decode()
    assert "3 x 1 = 3" in html and "3 pts" in html
    bad = client.get("/personimo/score/", {"hq": "island", "card0": "sea", "cell0": "c3"})
    assert bad.status_code == 400
    assert 'data-code="overlap"' in bad.content.decode()
    assert client.get("/personimo/score/").status_code == 200
