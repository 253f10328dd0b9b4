"""The embedded Decktet card list (shared/data/decktet.csv, decktet-sources.md)."""

import csv
from pathlib import Path

import pytest

from tabletop.personimo.rules.cards import CARD_CSV, SUITS, all_cards, base_keys, card

SHARED_CSV = Path(__file__).resolve().parents[3] / "shared" / "data" / "decktet.csv"


def test_embedded_list_equals_the_shared_csv():
    if not SHARED_CSV.exists():
        pytest.skip("shared/data/decktet.csv is not beside the checkout")
    with SHARED_CSV.open() as f:
        shared = list(csv.DictReader(f))
    embedded = list(csv.DictReader(CARD_CSV.splitlines()))
    assert embedded == shared


def test_counts_36_base_and_9_extended():
    cards = all_cards().values()
    assert len(base_keys()) == 36
    assert sum(c.deck == "extended" for c in cards) == 9
    assert sum(c.rank == "Pawn" for c in cards) == 4
    assert sum(c.rank == "Court" for c in cards) == 4


def test_bottom_suit_is_the_last_printed_suit():
    # decktet-sources.md: the bottom suit of the Author is Knots, of the Savage Wyrms, of the
    # Harvest Leaves.
    assert card("author/1").bottom_suit == "Knots"
    assert card("savage").bottom_suit == "Wyrms"
    assert card("harvest/2").bottom_suit == "Leaves"


def test_printed_suit_order_is_the_natural_order_on_every_card():
    for c in all_cards().values():
        assert list(c.suits) == sorted(c.suits, key=SUITS.index)


def test_rank_order_pawn_above_nine_court_above_pawn_crown_highest():
    assert card("merchant").order < card("harvest").order < card("rite").order
    assert card("rite").order < card("huntress").order
    assert card("ace-of-knots").order < card("author").order


def test_double_scoring_personalities_are_the_four_named():
    # Personimo, "The Market": the Diplomat, the Merchant, the Bard and the Huntress.
    people = {c.name for c in all_cards().values() if c.personality}
    high = {c.name for c in all_cards().values() if c.personality and (c.rank_number() or 0) >= 8}
    assert high == {"the Diplomat", "the Merchant", "the Bard", "the Huntress"}
    assert len(people) == 14
