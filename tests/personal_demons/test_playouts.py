"""Random playouts of Personal Demons through the pure step: for
every player count (1: solo meditation, 2-4), the app-dealt table with its variants and the
physical table, seeded games choosing among the commands each page offers
(``PersonalDemonsRuleset.moves``). Each asserts: no exception but coded errors, never stuck,
finished within the bound (rulebook "End of Game": three rounds of six turns), replay equal,
every card conserved (rulebook "Components"; discards and the box included), the final scores
equal to a recount written here from the circles by the rulebook ("Scoring", "Face Fear",
Courage, colossal abilities: ``recount``), and no seat's view changed by another
seat's secrets (hands, Personal Demons, face-down cards, reveal choices; rulebook "Setup" J,
"Summoning Phase" 1-2). ``PLAYOUT_SEEDS`` seeds per case (``make playouts`` runs 200)."""

import os
from collections import Counter

import pytest

from tabletop.decider import copy_json
from tabletop.log import replay
from tabletop.personal_demons.rules import PersonalDemonsRuleset
from tabletop.personal_demons.rules.content import demo_cards
from tabletop.testing import playout

R = PersonalDemonsRuleset()
SEEDS = int(os.environ.get("PLAYOUT_SEEDS", "2"))
CONTENT = {"cards": demo_cards()}


def cards_everywhere(state):
    """Every card id wherever it is (decks, discard piles, the box, hands, circles...)."""
    if state.get("mode") == "physical":
        return None
    where = Counter()
    for pile in (*state["decks"].values(), *state["discards"].values(), state["out"]):
        where.update(pile)
    for p in state["players"]:
        where.update(p["hand"] + p["candidates"] + p["personal"] + p["courage"])
        where.update(x["card"] for x in p["board"]["placements"])
        where.update(c for c in (p["drawn"], p.get("fear_card")) if c)
    assert set(where.values()) == {1}, "a card is in two places"
    return sorted(where)


def hide_others(state, seat, rnd):
    """Change what ``seat`` may not see: other players' hands, kept Personal Demons, face-down
    cards (swapped with cards of the hidden draw piles) and their reveal choices."""
    if state.get("mode") == "physical" or state["phase"] in ("new", "over"):
        return state
    decks = state["decks"]

    def swap(card):
        pile = decks[state["catalog"][card]["deck"]]
        if not pile:
            return card
        i = rnd.randrange(len(pile))
        pile[i], card = card, pile[i]
        pile.sort()
        return card

    for n, p in enumerate(state["players"]):
        if n == seat:
            continue
        p["hand"] = [swap(c) for c in p["hand"]]
        p["personal"] = [swap(c) for c in p["personal"]]
        p["candidates"] = [swap(c) for c in p["candidates"]]
        for x in p["board"]["placements"]:
            if not x["face_up"] and not x["fear"]:
                x["card"] = swap(x["card"])
        if p["reveal"] and not p["reveal"]["face_up"]:
            p["reveal"]["seal_colour"] = rnd.choice(["blue", "red", "yellow"])
    return state


CARDS = {c["id"]: c for c in demo_cards()}  # the printed cards (the content the table is dealt)


def _visible(board) -> dict[tuple[int, int], list[dict]]:
    """The cards showing in each of the 16 spaces, placements being bottom to top: a card on
    top hides what is under it; two small cards share a space (rulebook "Placement Rules")."""
    top: dict = {}
    for x in board["placements"]:
        for r, c in x["spaces"]:
            layer = top.get((r, c), [])
            small = x["size"] == "small" and layer and all(y["size"] == "small" for y in layer)
            top[(r, c)] = [*layer, x] if small else [x]
    return top


def _touching(board, point) -> list[dict]:
    """The cards a seal on grid ``point`` touches: the showing cards of the (up to) four spaces
    around it; a small card touches only the two points along its half (upright: the top
    edge, inverted: the bottom edge)."""
    pr, pc = point
    top = _visible(board)
    seen: dict[str, dict] = {}
    for r, c in ((pr - 1, pc - 1), (pr - 1, pc), (pr, pc - 1), (pr, pc)):
        for x in top.get((r, c), []):
            if x["size"] == "small" and (r if x["half"] == "top" else r + 1) != pr:
                continue
            seen[x["pid"]] = x
    return list(seen.values())


def _courage(player, kind) -> list[dict]:
    return [CARDS[c]["effect"] for c in player["courage"] if CARDS[c]["effect"]["kind"] == kind]


def _scoring_phase(player) -> int:
    """Rulebook "Scoring", counted on the circle as it stands when the phase begins: "Active
    seals score all cards they touch" (the card values, a Fear 1: "All Fears have a value of 1");
    "Knights from the Royal deck always score six points ... from the Fragments deck ... three"
    (every Knight in the circle: the End phase discards them all); the type Courage cards "for
    each card of the named type that you have in your summoning circle" (read, as their text
    says, face-up cards showing); Score Sins "one point for every two total sin"."""
    board = player["board"]
    points = 0
    for seal in board["seals"]:
        if seal["active"] and seal["point"] is not None:
            points += sum(
                1 if x["fear"] else CARDS[x["card"]]["value"]
                for x in _touching(board, seal["point"])
            )
    for x in board["placements"]:
        if "Knight" in CARDS[x["card"]]["types"]:
            points += 6 if CARDS[x["card"]]["deck"] == "royal" else 3
    showing = {x["pid"]: x for layer in _visible(board).values() for x in layer if x["face_up"]}
    for effect in _courage(player, "type_score"):
        points += effect["points"] * sum(
            effect["type"] in CARDS[x["card"]]["types"] for x in showing.values()
        )
    points += sum(player["sins"].values()) // 2 * len(_courage(player, "score_sins"))
    return points


def _meets(requirements, colours: Counter, wild: int) -> bool:
    """A Fear tier's seals: each coloured one its own seal, each "any" one more seal of any
    colour; Pan-Demonium "may count as any one color seal" (rulebook "Requirements")."""
    need = Counter(requirements)
    short = sum(max(0, n - colours[c]) for c, n in need.items() if c != "any")
    return short <= wild and sum(colours.values()) + wild >= sum(need.values())


def _fear_points(player, fear) -> int:
    """Face Fear: "count all active and cracked seals on your summoning circle and score the
    highest point value for which you meet or exceed the requirements" (Abyss, Inferno and Limbo
    count as a seal of their colour, Pan-Demonium as one of any)."""
    colours = Counter(seal["colour"] for seal in player["board"]["seals"])
    for effect in _courage(player, "counts_as_seal"):
        colours[effect["colour"]] += 1
    wild = len(_courage(player, "pan_demonium"))
    tiers = CARDS[fear["card"]]["tiers"]
    return max((t["points"] for t in tiers if _meets(t["requirements"], colours, wild)), default=0)


def _immediate(before, after, seat: int) -> int:
    """Points gained at once between two consecutive states of the table: facing a Fear (it
    leaves the circle), seal-creating Courage ("whenever you create a seal": a new seal on a
    sigil, not the cracked one on a face-down card's back), Pile Up ("whenever you place a card
    on top of other demons", once a card: FAQ "Pile Up"), and another player's colossal that
    "every other player scores" (rulebook "Summon Personal Demon", abilities)."""
    was, now = before["players"][seat], after["players"][seat]
    points = 0
    old = {x["pid"]: x for x in was["board"]["placements"]}
    new_pids = {x["pid"] for x in now["board"]["placements"]}
    for pid, x in old.items():
        if x["fear"] and pid not in new_pids:
            points += _fear_points(was, x)
    old_sids = {seal["sid"] for seal in was["board"]["seals"]}
    backs = {
        seal["on"]
        for seal in now["board"]["seals"]
        if seal["sid"] not in old_sids and seal["point"] is None
    }
    for seal in now["board"]["seals"]:
        if seal["sid"] not in old_sids and seal["point"] is not None:
            points += sum(
                e["points"]
                for e in _courage(was, "seal_score")
                if e.get("colour") in (None, seal["colour"])
            )
    placements = now["board"]["placements"]
    for i, x in enumerate(placements):
        before_x = old.get(x["pid"])
        played = (x["face_up"] and (before_x is None or not before_x["face_up"])) or (
            x["pid"] in backs
        )
        # a small card goes into an empty half, never on top of a card ("Small cards")
        if (
            played
            and x["size"] != "small"
            and any(
                set(map(tuple, y["spaces"])) & set(map(tuple, x["spaces"])) for y in placements[:i]
            )
        ):
            points += sum(e["points"] for e in _courage(was, "pile_up"))
    for other, (p0, p1) in enumerate(zip(before["players"], after["players"], strict=True)):
        if other == seat:
            continue
        had = {x["pid"] for x in p0["board"]["placements"]}
        for x in p1["board"]["placements"]:
            ability = CARDS[x["card"]].get("ability") or {}
            if (
                x["pid"] not in had
                and x["size"] == "colossal"
                and ability.get("kind") == "others_score"
            ):
                points += ability["points"]
    return points


def recount(sim):
    """Every player's score counted again by the rulebook from the table itself: the log is
    replayed and each consecutive pair of states compared (what the circles show, the seals, the
    Courage held, the sins), never the points the game's events carry. At a physical table the
    app holds no cards: the score is what the players entered, each seal the sum of the card
    values they tapped (rulebook "Score active seals")."""
    players = len(sim.state["players"])
    totals = [0] * players
    before = None
    for event, _line, _undone, state, _meta in replay(R, sim.log, narrate=False):
        if state.get("mode") == "physical":
            if event.type == "pd.phys.seal_scored" and not _undone:
                totals[event.seat] += sum(state["players"][event.seat]["seals"][-1])
            elif event.type == "pd.phys.points_added" and not _undone:
                totals[event.seat] += event.data["points"]
            continue
        if not state.get("players"):
            continue
        after = {
            "phase": state["phase"],
            "players": [
                {
                    "board": copy_json(p["board"]),
                    "courage": list(p["courage"]),
                    "sins": dict(p["sins"]),
                }
                for p in state["players"]
            ],
        }
        if before is not None and before != after:
            for seat in range(players):
                if after["phase"] == "scoring" and before["phase"] != "scoring":
                    totals[seat] += _scoring_phase(before["players"][seat])
                elif after["phase"] != "scoring":
                    totals[seat] += _immediate(before, after, seat)
        before = after
    return totals


def by_kind(commands, rnd, _sim):
    """A random policy that draws the kind of move first (its type, and for a reveal face up or
    face down), then one of that kind: uniformly among commands, a face-down reveal (nine
    colour and sin choices) would beat the face-up one nine to one and seals would seldom form."""
    groups: dict = {}
    for c in commands:
        groups.setdefault((c.type, str(c.data.get("face_up"))), []).append(c)
    return rnd.choice(groups[rnd.choice(sorted(groups))])


#: Every player count, the app-dealt and the physical table, and every option value at least
#: once (solo difficulties, Advanced colossal cards, both readings of More Sins).
CASES = [
    (1, {}),
    (1, {"difficulty": "angelic", "advanced": "yes", "more_sins": "type"}),
    (1, {"difficulty": "devilish"}),
    (1, {"table": "physical"}),
    (2, {}),
    (2, {"table": "physical"}),
    (3, {"advanced": "yes", "more_sins": "type"}),
    (3, {"table": "physical"}),
    (4, {}),
    (4, {"table": "physical"}),
]


@pytest.mark.parametrize(("players", "options"), CASES, ids=lambda v: str(v))
def test_random_playouts(players, options):
    for seed in range(SEEDS):
        out = playout(
            R,
            players,
            seed,
            options=options,
            content=CONTENT,
            max_commands=4000,
            must_finish=True,
            conserved=cards_everywhere,
            perturb=hide_others,
            check_every=20,
            undo_rate=0.03,
            # odd seeds of the app-dealt table: by kind; the others uniformly
            choose=by_kind if seed % 2 and options.get("table") != "physical" else None,
        )
        state = out.sim.state
        scores = [p["score"] for p in state["players"]]
        assert scores == recount(out.sim)
        assert state["winners"] == [i for i, s in enumerate(scores) if s == max(scores)]
        if players == 1 and options.get("table") != "physical":
            assert state["rating"]
        assert set(out.refused) <= {
            "not_your_action",
            "half_taken",
            "not_enough_sin",
            "no_courage",
            "bad_values",
        }, out.refused
