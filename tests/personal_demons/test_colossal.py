"""Colossal abilities and More Sins, through the kit's pure driver.

Rulebook "Summon Personal Demon": "When you summon a colossal card, activate the ability at the
bottom of the card, which gives a benefit to all players except yourself." FAQ: "Some of these
abilities are optional (and will use the word 'may' to denote this). All players except the
one who played the colossal card have the choice of using the ability. However, colossal card
abilities that force the player who summoned it to discard some or all of their demons are not
optional, you must discard them." FAQ, More Sins: "If you summon a demon 'of Hell', you don't
gain any additional sin. The Courage card's effect only triggers when you gain a single sin at
one time."
"""

import pytest

from tabletop.errors import TabletopError
from tabletop.personal_demons.rules.content import build_catalog, demo_cards

from .cards import BLUE4, PLAIN, R, cmd, game, p, with_cards


def courage(effect, name="X"):
    return {"effect": effect, "name": name}


def refused(code, fn, *args, **kwargs):
    with pytest.raises(TabletopError) as exc:
        fn(*args, **kwargs)
    assert exc.value.code == code


def colossal_ready(ability, players=2, extra=(), types=("Imp",)):
    """``players`` players, each with face-up demons (of ``types``) in the top-left 2x2 and at
    the ``extra`` spaces first, 6 want and colossal Personal Demons with ``ability``; at the
    bonus step of the turn the 2x2 is complete. The first of the bonus order summons."""
    colossal = {
        "requirements": [],
        "sigils": BLUE4,
        "cost": {"sin": "want", "amount": 6},
        "ability": ability,
        "advanced": False,
    }
    g = game(
        players,
        seed=4,
        setup=with_cards(
            round1={**PLAIN, "sin": "want", "sin_amount": 3, "types": list(types)},
            colossal=colossal,
            courage=courage({"kind": "keeper"}, "Keeper"),
        ),
    )
    for s in range(players):
        keep = [c for c in p(g, s)["candidates"] if g.state["catalog"][c]["deck"] == "colossal"]
        cmd(g, s, "pd.setup.choose", fear_space=[3, 3], keep=keep)
    spaces = [*extra, (0, 0), (0, 1), (1, 0), (1, 1)]
    for n, space in enumerate(spaces):
        for s in range(players):
            cmd(g, s, "pd.card.place", card=p(g, s)["hand"][0], space=list(space))
        for s in range(players):
            cmd(g, s, "pd.card.reveal", face_up=True)
        if n < len(spaces) - 1:
            for s in g.state["bonus_order"]:
                cmd(g, s, "pd.bonus.decline")
    return g


def summon(g):
    a = g.state["bonus_order"][0]
    cmd(g, a, "pd.bonus.personal", card=p(g, a)["personal"][0], space=[0, 0])
    return a


def test_a_may_ability_is_each_other_players_choice_on_their_phone():
    """FAQ: with 'may', every player but the summoner chooses whether to use the ability."""
    g = colossal_ready({"kind": "others_courage", "may": True}, players=3)
    a = summon(g)
    b, c = [s for s in g.state["bonus_order"] if s != a]
    assert [len(p(g, s)["courage"]) for s in (a, b, c)] == [1, 1, 1]  # nothing yet
    card = g.view(b)["me"]["offers"][0]["card"]
    assert card["deck"] == "colossal" and g.view(b)["me"]["offers"][0]["by"] == a
    assert g.view(a)["me"]["offers"] == []
    assert {m.type for m in R.moves(g.view(b), b)} >= {"pd.ability.use", "pd.ability.decline"}
    assert not [m for m in R.moves(g.view(a), a) if m.type.startswith("pd.ability.")]
    refused("no_offer", cmd, g, a, "pd.ability.use", card=card["id"])
    # the bonus step waits for every choice
    nxt = g.state["bonus_order"][1]
    refused("wait_placement", cmd, g, nxt, "pd.bonus.decline")
    assert b in g.view(a)["waiting"] and c in g.view(a)["waiting"]
    cmd(g, b, "pd.ability.use", card=card["id"])
    cmd(g, c, "pd.ability.decline", card=card["id"])
    assert [len(p(g, s)["courage"]) for s in (a, b, c)] == [1, 2, 1]
    refused("no_offer", cmd, g, b, "pd.ability.use", card=card["id"])
    for s in g.state["bonus_order"][1:]:
        cmd(g, s, "pd.bonus.decline")
    assert g.state["step"] == "place"  # the turn went on
    g.assert_replay_equal()


def test_a_may_sin_ability_can_be_declined_and_undone_by_its_chooser():
    """FAQ: the 'may' gain of sin is optional (a player near six may not want it); the choice
    is each player's own and so is its undo (unison play)."""
    g = colossal_ready({"kind": "others_sin", "amount": 1, "may": True})
    a = summon(g)
    b = 1 - a
    before = dict(p(g, b)["sins"])
    cmd(g, b, "pd.ability.decline")
    assert p(g, b)["sins"] == before
    g.undo(b)
    cmd(g, b, "pd.ability.use")
    assert p(g, b)["sins"] == {k: min(6, v + 1) for k, v in before.items()}


def test_an_ability_without_may_is_applied_at_once():
    """Rulebook: the ability 'gives a benefit to all players except yourself'; without 'may'
    (and for cards stored before the choice existed) nobody is asked."""
    g = colossal_ready({"kind": "others_score", "points": 3})
    a = summon(g)
    assert p(g, 1 - a)["score"] == 3 and p(g, 1 - a)["offers"] == []


def test_a_forced_discard_of_all_demons_is_not_optional():
    """FAQ: abilities that force the summoner to discard some or all of their demons are not
    optional: every demon of the circle but the Fear, the colossal and the cards under it goes
    (to the box), with the seals they helped to form; nobody is asked."""
    g = colossal_ready(
        {"kind": "others_score", "points": 3, "discard": "all"}, extra=((2, 0), (2, 1))
    )
    a = g.state["bonus_order"][0]
    doomed = [
        x["card"] for x in p(g, a)["board"]["placements"] if x["spaces"] in ([[2, 0]], [[2, 1]])
    ]
    out = list(g.state["out"])
    assert len(doomed) == 2
    summon(g)
    board = p(g, a)["board"]
    left = [x for x in board["placements"] if not x["fear"]]
    assert {x["size"] for x in left} == {"regular", "colossal"}
    assert all(x["spaces"][0] in ([0, 0], [0, 1], [1, 0], [1, 1]) for x in left)
    assert g.state["out"] == out + doomed  # the two demons at (2, 0) and (2, 1), to the box
    assert not [s for s in board["seals"] if s["point"] and s["point"][0] == 3]
    assert p(g, 1 - a)["score"] == 3 and p(g, a)["offers"] == [] and p(g, 1 - a)["offers"] == []
    assert not [m for m in R.moves(g.view(a), a) if m.type.startswith("pd.ability.")]
    g.assert_replay_equal()


def test_a_forced_discard_by_type_keeps_the_other_types():
    """FAQ: 'some or all of their demons': a colossal naming a type discards only those."""
    g = colossal_ready(
        {"kind": "self_discard", "discard": ["Shade"]}, extra=((2, 0),), types=("Imp",)
    )
    a = summon(g)
    assert any(x["spaces"] == [[2, 0]] for x in p(g, a)["board"]["placements"])  # Imps stay
    h = colossal_ready(
        {"kind": "self_discard", "discard": ["Imp"]}, extra=((2, 0),), types=("Imp",)
    )
    a = summon(h)
    assert not any(x["spaces"] == [[2, 0]] for x in p(h, a)["board"]["placements"])


def test_the_content_model_validates_may_and_forced_discards():
    """Content: ``ability.may`` is a yes/no, ``ability.discard`` is "all" or demon types."""
    cards = demo_cards()
    kinds = {
        (c["ability"].get("may", False), bool(c["ability"].get("discard")))
        for c in cards
        if c["deck"] == "colossal"
    }
    assert (True, False) in kinds and (False, True) in kinds and (False, False) in kinds
    bad = [c for c in cards if c["deck"] == "colossal"][0]
    for ability in (
        {**bad["ability"], "may": "sometimes"},
        {**bad["ability"], "discard": ["Dragon"]},
        {"kind": "self_discard"},
    ):
        with pytest.raises(TabletopError) as exc:
            build_catalog([{**bad, "ability": ability}])
        assert exc.value.code == "bad_card"


@pytest.mark.parametrize(("reading", "expected"), [("single", 2), ("type", 3)])
def test_more_sins_reading_is_a_table_option(reading, expected):
    """FAQ, More Sins: 'only triggers when you gain a single sin at one time'. Option
    ``more_sins``: ``single`` (default) = a gain of exactly one sin; ``type`` = any gain of one
    sin type. A card of sin amount II gives 2 or 3; 'of Hell' never gets the extra one."""
    more = courage({"kind": "more_sins"}, "More Sins")
    for card, sins in (
        ({**PLAIN, "sin": "hate", "sin_amount": 2}, {"glut": 0, "hate": expected, "want": 0}),
        ({**PLAIN, "sin": "hell", "sin_amount": 1}, {"glut": 1, "hate": 1, "want": 1}),
    ):
        g = game(
            1,
            options={"more_sins": reading},
            setup=with_cards(round1=card, round2=card, round3=card, courage=more),
        )
        cmd(g, 0, "pd.setup.choose", fear_space=[3, 3], keep=p(g, 0)["candidates"][:2])
        cmd(g, 0, "pd.card.place", card=p(g, 0)["hand"][0], space=[0, 0])
        cmd(g, 0, "pd.card.reveal", face_up=True)
        assert p(g, 0)["sins"] == sins
