"""The seats' views of one DemLoc state share what is the same for every seat
(``missions.rules.view._piece_bases``, docs/architecture.md "The live path": the fan-out views
one state for every seat), and each is what a fresh computation gives (DemLoc rulebook 6.4.2,
the app screen: every player sees the whole table, each with its own controls)."""

import copy
import random

import pytest

from missions.rules import view as view_module
from missions.rules.view import view

from .demloc_sim import new_sim

NAMES = ("Ann", "Bob", "Cid", "Dee")


def fresh(state, seat, forms):
    """The view worked out from nothing: another state object, no kept bases, no kept pieces'
    common views."""
    view_module.forget_commons()
    return view(copy.deepcopy(state), seat, forms=forms)


def assert_as_fresh(state, seat, forms):
    """``seat``'s view of ``state`` equals one worked out from nothing, key order included (the
    card cache hashes the piece as it is). Returns it."""
    got = view(state, seat, forms=forms)
    want = fresh(state, seat, forms)
    assert got == want
    assert [list(p) for p in got["pieces"]] == [list(p) for p in want["pieces"]]
    return got


def random_mission(name, seed, taps=40):
    """Four players tap what their pages offer, at random (``seed``): yields the table before
    each tap, until the mission ends or ``taps`` are made."""
    t = new_sim(NAMES, seed=name)
    game, rnd = t.ruleset, random.Random(seed)
    for _ in range(taps):
        yield t
        if t.state["ended"] is not None:
            return
        offered = [(s, c) for s in range(4) for c in game.moves(t.view(s), s)]
        seat, command = rnd.choice(offered)
        t.try_send(seat, command.type, command.data)


def test_the_seats_share_each_pieces_figures_and_keep_their_own_controls():
    t = new_sim(NAMES[:2])
    ann, bob = view(t.state, 0, forms=False), view(t.state, 1, forms=False)
    for mine, theirs in zip(ann["pieces"], bob["pieces"], strict=True):
        assert mine is not theirs  # each seat's own dict: its own "mine" and "editable"
        assert mine["weapon_refs"] is theirs["weapon_refs"]  # worked out once
        assert mine["mine"] == (mine["owner"] == 0) and theirs["mine"] == (mine["owner"] == 1)
        assert mine["editable"] == mine["mine"] and theirs["editable"] == theirs["mine"]
    watching = view(t.state, None, forms=False)
    assert not any(p["editable"] or p["counters_editable"] or p["mine"]
                   for p in watching["pieces"])


@pytest.mark.parametrize("seed", [1, 2])
def test_every_seats_view_equals_a_fresh_one_along_a_random_mission(seed):
    """Four players tap what their pages offer; after each tap every seat's view (and a
    watcher's), with and without the sheets' forms, equals one worked out from a copy of the
    state with nothing kept, key order included (the card cache hashes the piece as it is)."""
    for t in random_mission(f"shared-{seed}", seed):
        for seat in (0, 1, 2, 3, None):
            for forms in (False, True):
                assert_as_fresh(t.state, seat, forms)


def test_a_new_state_is_worked_out_again():
    t = new_sim(NAMES[:2])
    pid = next(i for i in t.state["order"] if t.state["pieces"][i]["owner"] == 0)
    before = view(t.state, 0)
    t.send(0, "demloc.damage.assign", {"piece": pid, "amount": 1, "mode": "hit"})
    after = view(t.state, 1)
    hit = next(p for p in after["pieces"] if p["id"] == pid)["hit_damage"]
    assert hit == next(p for p in before["pieces"] if p["id"] == pid)["hit_damage"] + 1


@pytest.mark.parametrize("seed", [3, 4])
def test_the_live_view_taken_from_the_answers_view_equals_a_fresh_one(seed):
    """The acting phone's answer views a state with the sheets' forms first, then the fan-out
    views it without (the bases the ones with forms were built on, ``_with_sheet``): along
    a random mission each seat's live view equals one worked out from nothing, key order
    included, and the bases were taken, not worked out again."""
    for t in random_mission(f"sheet-{seed}", seed):
        if not t.state.get("order"):
            break
        with view_module._VIEW_MEMO_LOCK:
            view_module._VIEW_MEMO.clear()
        whole = view(t.state, 0, forms=True)
        for seat in (0, 1, 2, 3, None):
            got = assert_as_fresh(t.state, seat, False)
        # the view with forms also holds each editable piece's brawl_targets (not a base's)
        extra = set(whole["pieces"][0]) - set(got["pieces"][0]) - {"brawl_targets"}
        piece = t.state["pieces"][whole["pieces"][0]["id"]]
        assert extra == set(view_module._sheet_fields(t.state, piece, None)) - set(piece)


def test_the_live_view_takes_the_bases_of_the_view_with_forms():
    t = new_sim(NAMES[:2])
    state = t.state
    calls = []
    real = view_module._piece_common
    with view_module._VIEW_MEMO_LOCK:
        view_module._VIEW_MEMO.clear()
    view(state, 0, forms=True)
    view_module._piece_common = lambda *a: calls.append(a) or real(*a)
    try:
        view(state, 1, forms=False)
    finally:
        view_module._piece_common = real
    assert calls == []  # taken from the bases with forms


def test_a_field_new_to_the_sheet_leaves_the_live_view(monkeypatch):
    """A field a developer adds to ``_sheet_fields`` is not in the live view (the fan-out's,
    without forms) taken from the answer's view with forms: that view drops exactly what the
    sheet added, with no list of names to keep up to date."""
    real = view_module._sheet_fields
    monkeypatch.setattr(
        view_module, "_sheet_fields", lambda *a: {**real(*a), "new_sheet_figure": 1}
    )
    t = new_sim(NAMES[:2])
    with view_module._VIEW_MEMO_LOCK:
        view_module._VIEW_MEMO.clear()
    whole = view(t.state, 0, forms=True)
    assert all(p["new_sheet_figure"] == 1 for p in whole["pieces"] if p["editable"])
    live = view(t.state, 1, forms=False)
    assert not any("new_sheet_figure" in p for p in live["pieces"])
    assert live == fresh(t.state, 1, False)


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_a_pieces_kept_common_view_equals_a_fresh_one_along_a_random_mission(seed):
    """``_piece_common_kept`` (the common views kept across states, ``_common_key``: what
    ``_piece_common`` reads) gives, at every state of a random mission and for every piece,
    what ``_piece_common`` works out from a copy of the state, key order included; and most
    pieces are taken, not worked out again (a tap changes one or two). A field of the state
    that ``_piece_common`` reads but the key leaves out fails here: the turn (VIGOR's expiry,
    8.2), the phase (activations, 7.2), a power to defend against (7.2.3.5), a name."""
    view_module.forget_commons()
    hits, computes = view_module.common_hits, view_module.common_computes
    states = 0
    for t in random_mission(f"commons-{seed}", seed, taps=60):
        if not t.state.get("order"):
            continue
        states += 1
        copied = copy.deepcopy(t.state)
        for pid in t.state["order"]:
            got = view_module._piece_common_kept(t.state, pid)
            want = view_module._piece_common(copied, pid)
            assert got == want, pid
            assert list(got) == list(want)
    assert states > 10
    taken = view_module.common_hits - hits
    assert taken > view_module.common_computes - computes  # most pieces taken


def _changed(state, pid, change):
    """A copy of ``state`` with ``change(copy, piece id)`` made to it."""
    other = copy.deepcopy(state)
    change(other, pid)
    return other


def _activated(s, pid):  # 7.2: activated in this phase
    s["pieces"][pid]["activated"] = f"{s['turn']}:{s['phase']}"


def _vigor(s, pid):  # 8.2: VIGOR 1 of this turn, an arcane effect token
    p = s["pieces"][pid]
    p["vigor"] = 1
    p["arcane_effects"] = [{"effect": "VIGOR 1", "key": "vigor", "amount": 1, "by": pid,
                            "power": "Vigor", "turn": s["turn"], "version": 1}]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # the phase passes: the piece activated in the last one is not activated now (7.2)
        (_activated, lambda s, pid: s.update(phase="brawl" if s["phase"] != "brawl"
                                               else "strategic")),
        # the turn passes: VIGOR of the last turn has expired (8.2)
        (_vigor, lambda s, pid: s.update(turn=s["turn"] + 1)),
        # another player's power on this piece, its defend test open (7.2.3.5)
        (None, lambda s, pid: s.update(last_power={
            "target": pid, "turn": s["turn"], "phase": s["phase"], "tested": False,
            "power": {"name": "Weakness"}, "changes": {}, "version": 1})),
        # its player's name changed (a Guild's name taken at the table)
        (None, lambda s, pid: next(p for p in s["players"]
                                   if p["seat"] == s["pieces"][pid]["owner"]).update(name="Zed")),
    ],
    ids=["phase", "turn", "defend", "player-name"],
)
def test_a_kept_common_view_is_not_taken_when_only_the_state_around_the_piece_changed(
        before, after):
    """The piece itself unchanged, a field of the state ``_piece_common`` reads changed: the
    kept view of the first state is not the answer at the second (``_common_key``)."""
    t = new_sim(NAMES[:2])
    pid = t.state["order"][0]
    first = _changed(t.state, pid, before) if before else t.state
    second = _changed(first, pid, after)
    assert second["pieces"][pid] == first["pieces"][pid]
    view_module.forget_commons()
    kept = view_module._piece_common_kept(first, pid)
    got = view_module._piece_common_kept(second, pid)
    want = view_module._piece_common(copy.deepcopy(second), pid)
    assert got == want
    assert want != kept  # the change shows on the piece's view


def test_a_power_s_no_effect_is_worked_out_again_only_for_a_changed_target():
    """What a power would change nothing on (8.2, ``_useless_on``: each sheet's powers, by
    every character in play) is kept by the power's effects and the target as it is: the
    view with forms of the next state works it out again only for the piece a command
    changed, and equals a fresh one (the test above, along random missions)."""
    t = new_sim(NAMES)
    view(t.state, 0, forms=True)
    pid = next(i for i in t.state["order"] if t.state["pieces"][i]["owner"] == 1)
    t.send(1, "demloc.tokens.adjust", {"piece": pid, "token": "poison", "delta": 1})
    computes, hits = view_module.no_effect_computes, view_module.no_effect_hits
    got = view(t.state, 0, forms=True)
    powers = sum(1 for p in got["pieces"] for _ in p["power_refs"])
    assert powers >= 3  # the characters' powers, each asked of every target
    assert 0 < view_module.no_effect_computes - computes <= powers  # the poisoned one's
    assert view_module.no_effect_hits - hits >= powers * 5
    assert got == fresh(t.state, 0, True)
