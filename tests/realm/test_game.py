"""A full scripted game to a Pact win, and property tests: replay equals the incremental state,
and no seat's view ever holds another seat's hand, secret Pact or an unbound demon's back
(rulebook "How to Win", FAQ "Public Information"; docs/architecture.md "The event-sourced table")."""

import itertools
import json

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tabletop.realm.rules import cards as C
from tabletop.realm.rules.common import effects
from tabletop.rules import Command
from tabletop.testing import Sim

from .deals import CONTENT, R, deal, end, hand, refused


def test_a_scripted_game_ends_with_an_acolyte_pact_win():
    # Acolyte Pact side A: "Bind 3 Demons."
    g = deal(
        [["5C", "7C", "7D", "9D", "3S"], ["2V", "3V", "4V", "5V", "6V"]],
        deck_top=["7S"],
        active="d04",
        personal=["d07", "d06"],
        below=["d11", "d19", "d12", "d13"],
    )
    assert g.view(0)["acolyte"]["text"] == "Bind 3 Demons."
    assert refused(g, 0, "realm.pact.announce") == "pact_not_met"
    g.send(0, "realm.demon.bind", dict(target="active", cards=["5C", "7C"]))  # Mother Wick: draw 2
    g.send(1, "realm.ritual.pass")
    g.send(0, "realm.demon.bind", dict(target="personal", cards=["7D", "9D"]))  # Vorn: opponents draw 1
    g.send(1, "realm.ritual.pass")
    assert [p["have"] for p in g.view(0)["me"]["pact_progress"]] == [2]
    end(g, 0, hand(g, 0)[5:])
    assert g.state["active"] == "d19" and g.state["players"][0]["personal"] == "d11"
    end(g, 1, hand(g, 1)[5:])
    # Mawrgrave (S S 3 7) is seat 0's new Personal Demon
    assert {"3S", "7S"} <= set(hand(g, 0))
    g.send(0, "realm.demon.bind", dict(target="personal", cards=["3S", "7S"]))
    assert refused(g, 0, "realm.pact.announce") == "pact_not_met"  # the ritual still awaits seat 1
    g.send(1, "realm.ritual.pass")
    assert g.view(0)["me"]["pact_met"] and not g.view(1)["me"]["pact_met"]
    assert refused(g, 1, "realm.pact.announce") == "pact_not_met"
    g.send(0, "realm.pact.announce")
    assert g.state["phase"] == "over" and g.state["winner"] == 0
    assert g.view(1)["winner_name"] == "Ann"
    assert refused(g, 1, "realm.turn.end") == "game_over"
    g.assert_replay_equal()


def test_a_secret_pact_is_revealed_when_it_wins():
    g = deal(
        [["10V", "4V", "5V", "10S", "2C"], ["2D", "3D", "4D", "5D", "6D"]],
        pacts="secret",
        pact_slots=["lust", "wrath", "greed"],
        active="d06",
        below=["d08", "d09", "d10"],
        personal=["d04", "d05"],
    )
    g.send(0, "realm.pact.choose", dict(slot=0))
    g.send(1, "realm.pact.choose", dict(slot=0))
    g.send(0, "realm.demon.bind", dict(target="active", cards=["10V", "4V"]))  # Seraphel: V V 10 4
    g.send(1, "realm.ritual.pass")
    end(g, 0, hand(g, 0)[5:])
    end(g, 1, hand(g, 1)[5:])
    # Lust needs 3 Virgins; Seraphel showed 2, the Hollow Bride (V S 5 10) brings a third...
    # but Seraphel's curse forbids Virgins: the 5 of Virgins cannot be played
    assert refused(g, 0, "realm.demon.bind", dict(target="active", cards=["5V", "10S"])) == "ritual_fails"
    assert "Lust" not in json.dumps(g.view(1))


# --- property tests ----------------------------------------------------------------------


def _bind_candidates(state, seat):
    hand = state["players"][seat]["hand"]
    demons = state["content"]["demons"]
    curses = effects(state, seat)
    out = []
    for target, demon in (
        ("active", state["active"]),
        ("personal", state["players"][seat]["personal"]),
    ):
        if demon is None:
            continue
        corners = demons[demon]["corners"]
        suit = next((c for c in corners if c in C.SUITS), "D")
        rank = next((c for c in corners if c not in C.SUITS), "2")
        for size in (2, 3):
            for combo in itertools.combinations(hand[:8], size):
                declare = {c: {"suit": suit, "rank": rank} for c in combo if C.is_vessel(c)}
                if C.solve_binding(corners, combo, declare, curses):
                    out.append(
                        Command(
                            "realm.demon.bind",
                            {"target": target, "cards": list(combo), "declare": declare},
                        )
                    )
                    if len(out) >= 3:
                        return out
    return out


def candidates(state):
    """Commands worth trying now, as ``(seat, Command)``; some are deliberately invalid."""
    n, phase = state["n"], state["phase"]
    out = []
    if phase == "prelude":
        for s in range(n):
            if state["acolyte"] is None and state["players"][s]["pact"] is None:
                out.append((s, Command("realm.pact.choose", {"slot": 0})))
        aff = state["afflictions"]
        if aff["drawer"] is not None:
            for to in range(n):
                out.append(
                    (
                        aff["drawer"],
                        Command("realm.affliction.give", {"card": aff["offer"][-1], "to": to}),
                    )
                )
        return out
    if phase == "ritual":
        r = state["ritual"]
        if r["step"] == "feed":
            b = r["binder"]
            suit = C.printed(r["eater"])[0]
            out += [
                (b, Command("realm.ritual.feed", {"card": c}))
                for c in state["players"][b]["hand"]
                if C.printed(c)[0] == suit
            ]
            out.append((b, Command("realm.ritual.yield")))
            return out
        s = r["responder"]
        out.append((s, Command("realm.ritual.pass")))
        for c in state["players"][s]["hand"]:
            if r["step"] == "eater" and C.printed(c)[1] == "E":
                out.append((s, Command("realm.ritual.eater", {"card": c})))
            for v in r["declared"]:
                if r["step"] == "exorcise" and C.is_vessel(v):
                    out.append((s, Command("realm.ritual.exorcise", {"vessel": v, "card": c})))
        out.append(((s + 1) % n, Command("realm.ritual.pass")))  # out of turn: refused
        return out
    if phase != "act":
        return out
    s = state["turn"]
    hand = state["players"][s]["hand"]
    if state["take"]:
        return [(s, Command("realm.card.take", {"card": c})) for c in state["take"]["choices"]]
    extra = max(0, len(hand) - C.hand_size(effects(state, s)))
    out.append((s, Command("realm.turn.end", {"discard": hand[:extra]})))
    out.append((s, Command("realm.turn.end", {"discard": hand[: extra + 1]})))
    out.append((s, Command("realm.pact.announce")))
    if state["must_end"]:
        return out
    out.append((s, Command("realm.turn.purge")))
    for combo in itertools.combinations(hand, 3):
        out.append((s, Command("realm.vessel.summon", {"cards": list(combo)})))
        break
    suits = {}
    for c in hand:
        if C.printed(c)[0]:
            suits.setdefault(C.printed(c)[0], []).append(c)
    for cs in suits.values():
        if len(cs) >= 3:
            out.append((s, Command("realm.vessel.summon", {"cards": cs[:3]})))
    out += [(s, c) for c in _bind_candidates(state, s)]
    opponent = (s + 1) % n
    for c in hand:
        suit, rank = C.printed(c)
        if rank == "S":
            out.append(
                (s, Command("realm.warden.seeker", {"card": c, "opponent": opponent, "suit": "V"}))
            )
        elif rank == "K":
            out.append(
                (
                    s,
                    Command(
                        "realm.warden.keeper", {"card": c, "opponent": opponent, "parity": "even"}
                    ),
                )
            )
        elif rank == "E":
            out.append((s, Command("realm.eater.attach", {"card": c, "slot": "active"})))
        elif C.is_mimic(c):
            out.append((s, Command("realm.mimic.play", {"card": c, "opponent": opponent})))
    for slot, eaters in state["eaters"].items():
        for e in eaters:
            for c in hand:
                if C.printed(c)[0] == C.printed(e)[0]:
                    out.append(
                        (s, Command("realm.eater.feed", {"slot": slot, "eater": e, "card": c}))
                    )
    for b in state["players"][s]["bound"]:
        out.append((s, Command("realm.demon.release", {"demon": b["demon"]})))
    return out


def _strings(obj, skip=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in skip:
                continue
            yield str(k)
            yield from _strings(v, skip)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v, skip)
    elif isinstance(obj, str):
        yield obj


def check_views(state, ever_bound):
    n = state["n"]
    demons = state["content"]["demons"]
    hidden_names = {d["name"] for k, d in demons.items() if k not in ever_bound}
    for seat in [*range(n), None]:
        view = R.view(state, seat)
        me = view.get("me") or {}
        seen = set(_strings({k: v for k, v in view.items() if k != "me"}))
        seen |= set(_strings(me, skip=("glimpse", "take", "hand")))
        for other in range(n):
            if other == seat:
                continue
            leaked = set(state["players"][other]["hand"]) & seen
            assert not leaked, (seat, other, leaked)
            pact = state["players"][other]["pact"]
            if pact and state["winner"] != other:
                assert state["content"]["pacts"][pact]["text"] not in seen
        if me.get("glimpse"):
            assert state["glimpse"][seat] is not None
        blob = "\n".join(seen)
        assert not any(name in blob for name in hidden_names), seat
        # the own hand, exactly
        if seat is not None:
            assert [c["id"] for c in me["hand"]] == state["players"][seat]["hand"]
        json.dumps(view)


def check_conservation(state):
    ritual = state["ritual"]["cards"] if state["ritual"] else []
    eater = [state["ritual"]["eater"]] if state["ritual"] and state["ritual"]["eater"] else []
    hands = [c for p in state["players"] for c in p["hand"]]
    attached = [e for es in state["eaters"].values() for e in es]
    every = state["deck"] + state["discard"] + hands + ritual + eater + attached
    assert sorted(c for c in every if not C.is_vessel(c)) == sorted(C.RITUAL_DECK)
    vessels = state["vessels"] + [c for c in hands + ritual if C.is_vessel(c)]
    assert sorted(vessels) == sorted(C.VESSELS)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    pacts=st.sampled_from(["acolyte-a", "acolyte-b", "secret"]),
    afflictions=st.sampled_from(["off", "on"]),
    auto_pass=st.sampled_from(["off", "on"]),
    data=st.data(),
)
def test_replay_equals_incremental_state_and_views_never_leak(
    n, seed, pacts, afflictions, auto_pass, data
):
    options = {"pacts": pacts, "afflictions": afflictions, "auto_pass": auto_pass}
    sim = Sim(R, n, options=options, content=CONTENT, seed=seed)
    ever_bound = set()
    for _step in range(70):
        options_now = candidates(sim.state)
        if not options_now or sim.state["phase"] == "over":
            break
        seat, command = data.draw(st.sampled_from(options_now))
        if refused(sim, seat, command.type, command.data) is not None:
            continue  # refused with a code, nothing changed
        state = sim.state
        ever_bound |= {b["demon"] for p in state["players"] for b in p["bound"]}
        check_views(state, ever_bound)
        check_conservation(state)
    sim.assert_replay_equal()
    state = R.initial_state()
    for record in sim.records():  # the protocol's fold never mutates its input
        before = json.dumps(state, sort_keys=True)
        old, state = state, R.evolve(state, record)
        assert json.dumps(old, sort_keys=True) == before
    assert R.load(json.loads(json.dumps(R.dump(sim.state)))) == sim.state


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 60)
    | st.sampled_from(
        [
            "",
            "active",
            "p0",
            "p1",
            "p9",
            "personal",
            "vessel-1",
            "AD",
            "ED",
            "2S",
            "D",
            "9",
            "odd",
            "x",
        ]
    ),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["cards", "card", "vessel", "suit", "rank", "slot", "eater", "vessel-1", "AD"]
            ),
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)
COMMAND_TYPES = sorted(R.registry.commands)


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(COMMAND_TYPES),
    data=st.dictionaries(
        st.sampled_from(
            [
                "target",
                "cards",
                "declare",
                "card",
                "vessel",
                "opponent",
                "suit",
                "parity",
                "slot",
                "eater",
                "demon",
                "discard",
                "to",
                "vs:vessel-1",
            ]
        ),
        JSON_VALUES,
        max_size=4,
    ),
    seat=st.sampled_from([0, 0, 0, 1, 2, None, 7]),
    ritual=st.booleans(),
)
@example(
    kind="realm.eater.feed", data={"slot": [1], "eater": "ED", "card": "2S"}, seat=0, ritual=False
)
@example(
    kind="realm.demon.bind",
    data={"target": "active", "cards": ["vessel-1", "7C"], "declare": {"vessel-1": "x"}},
    seat=0,
    ritual=False,
)
def test_malformed_commands_are_refused_with_a_code_and_change_nothing(kind, data, seat, ritual):
    g = deal(
        [
            ["vessel-1", "7C", "ED", "SD", "AD"],
            ["5D", "ES", "KV", "mimic-1", "2V"],
            ["5S", "EC", "3C", "4C", "KS"],
        ],
        active="d04",
    )
    if ritual:
        g.send(
            0,
            "realm.demon.bind",
            {"target": "active", "cards": ["vessel-1", "7C"], "declare": {"vessel-1": {"suit": "C", "rank": "5"}}},
        )
    before = json.dumps(g.state, sort_keys=True)
    code = g.try_send(seat, kind, data)  # any exception but a coded error fails the test
    if code is not None:
        assert json.dumps(g.state, sort_keys=True) == before  # refused: nothing changed
