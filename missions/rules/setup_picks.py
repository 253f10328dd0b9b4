"""The Characters phase of a mission's preparation (DemLoc rulebook 6.4.1 characters choice,
5.1.1 unique mercenaries, 5.1.2 followers): picks into the mission's slots, followers enlisted
from the shared pool, and the sealed offers that settle a contested mercenary. The stages and
shared queries (``available_feods``, ``settle_contest``...) are in ``missions.rules.setup``.

Every command here is a Guild's own choice and is registered ``rebase=True`` (see
``setup.setup_command``): a tap whose page is one version behind, because another Guild chose
at the same instant, is decided on the newer state, each handler checking everything again.
"""

from __future__ import annotations

from typing import Any

from tabletop.decider import Data, Topic, copy_json, say
from tabletop.errors import RuleViolation
from tabletop.rules import EventRecord, NewEvent, counted, require

from .cards import card_from_data
from .common import known, must
from .setup import (
    available_feods,
    chosen,
    contest_after_unpick,
    drop_pick,
    guild_label,
    hired_count,
    pool_entry,
    roster_entry,
    seat_key,
    settle_contest,
    settled_holder,
    setup_command,
    stage_is,
    taken_message,
    who,
)
from .state import DemlocState

picks = Topic("setup_picks")


@setup_command(picks, "demloc.setup.pick", rebase=True)
def pick(state: DemlocState, setup: dict, data: Data, seat: int, rng: Any) -> list[NewEvent]:
    """``{"character": roster id}``: into a free slot (Characters phase, 6.4.1). A mercenary
    another Guild picked too is contested (5.1.1); one a settled contest gave to another Guild
    is refused (``mercenary_taken``: the settlement is final, ``setup.settled_holder``). Raises
    ``wrong_phase``, ``already_ready``, ``no_such_character``, ``not_ready``,
    ``already_chosen``, ``slots_full``, ``duplicate_mercenary``, ``mercenary_taken``."""
    stage_is(setup, "characters")
    require(seat not in setup["ready"], "already_ready", "You tapped Next: your choice is made.")
    char_id = str(data.get("character") or "")
    entry = must(
        roster_entry(setup, seat, char_id),
        code="no_such_character",
        message="No such character in your Guild.",
    )
    require(
        entry.get("ready", True),
        entry.get("not_ready_code") or "not_ready",
        entry.get("why") or f"{entry['name']} cannot go on a mission now.",
    )
    picks = setup["picks"][seat_key(seat)]
    require(
        all(p["id"] != char_id for p in picks),
        "already_chosen",
        f"{entry['name']} is already chosen.",
    )
    _require_slot(setup, seat)
    contest = None
    if entry["source"] == "mercenary":
        require(
            all(not (p["source"] == "mercenary" and p["name"] == entry["name"]) for p in picks),
            "duplicate_mercenary",
            f"You already bring {entry['name']}: two mercenaries of one name never play (5.1.1).",
        )
        holder = settled_holder(setup, entry["name"])
        if holder is not None and holder != seat:
            raise RuleViolation("mercenary_taken", taken_message(setup, entry["name"]))
        rivals = [
            s
            for s, p in chosen(setup)
            if s != seat and p["source"] == "mercenary" and p["name"] == entry["name"]
        ]
        if rivals:
            contest = sorted(set(rivals) | {seat})
    return [
        NewEvent(
            "demloc.setup.picked",
            {"seat": seat, "pick": _pick(entry), "contest": contest},
        )
    ]


def _pick(entry: dict) -> dict:
    return {
        "id": entry["id"],
        "source": entry["source"],
        "ref": entry.get("ref"),
        "name": entry["name"],
        "card": copy_json(entry["card"]),
        "cost": entry.get("cost", 0),
        "miniature": entry.get("miniature", ""),
    }


def _require_slot(setup: dict, seat: int) -> None:
    slots = int(setup["definition"].get("slots") or 4)
    require(
        len(setup["picks"][seat_key(seat)]) < slots,
        "slots_full",
        f"All your {slots} slots are taken: free one first.",
    )


@setup_command(picks, "demloc.setup.unpick", rebase=True)
def unpick(state: DemlocState, setup: dict, data: Data, seat: int, rng: Any) -> list[NewEvent]:
    """``{"character"}``: free a slot; a contest it leaves may settle now. A mercenary won in a
    settled contest may be freed too, but he stays with this Guild for the mission (5.1.1: the
    settlement is final, ``setup.settled_holder``): its offer stands, nobody else may pick him,
    and it may choose him back at no new cost. Raises ``not_chosen``."""
    stage_is(setup, "characters")
    require(seat not in setup["ready"], "already_ready", "You tapped Next: your choice is made.")
    char_id = str(data.get("character") or "")
    pick = must(
        next((p for p in setup["picks"][seat_key(seat)] if p["id"] == char_id), None),
        code="not_chosen",
        message="That character is not in your slots.",
    )
    return [
        NewEvent("demloc.setup.unpicked", {"seat": seat, "id": char_id}),
        *contest_after_unpick(setup, seat, pick, rng),
    ]


@setup_command(picks, "demloc.setup.hire", rebase=True)
def hire(state: DemlocState, setup: dict, data: Data, seat: int, rng: Any) -> list[NewEvent]:
    """``{"follower": offer key}``: enlist a follower of the mission's shared pool for feods
    (5.1.2), paid when the mission is closed. Raises ``no_such_follower``, ``not_in_database``,
    ``follower_taken``, ``slots_full``, ``not_enough_feods``."""
    stage_is(setup, "characters")
    require(seat not in setup["ready"], "already_ready", "You tapped Next: your choice is made.")
    key = str(data.get("follower") or "")
    offer = must(
        pool_entry(setup, key),
        code="no_such_follower",
        message="That follower is not offered for this mission.",
    )
    guild = setup["guilds"][seat_key(seat)]
    require(
        offer.get("card_id") is None or offer["card_id"] in guild["database_followers"],
        "not_in_database",
        f"{offer['name']} is not in your card database (5.1.2).",
    )
    require(
        hired_count(setup, key) < int(offer.get("copies", 1)),
        "follower_taken",
        f"Every {offer['name']} card of this mission is already enlisted at the table (5.1.2).",
    )
    _require_slot(setup, seat)
    cost = int(offer.get("feods", 0))
    left = available_feods(setup, seat)
    require(
        left >= cost,
        "not_enough_feods",
        f"{offer['name']} costs {counted(cost, 'feod')}; your Guild has {left} left for this mission.",
    )
    n = hired_count(setup, key) + 1
    pick = {
        "id": f"h{key}-{n}",
        "source": "hired",
        "ref": key,
        "name": offer["name"],
        "card": card_from_data(copy_json(offer["card"])),
        "cost": cost,
        "miniature": "its own miniature (its name is under the base)",
    }
    # Two players' copies of one offer must never share an id: count over the table.
    while any(p["id"] == pick["id"] for _, p in chosen(setup)):
        n += 1
        pick["id"] = f"h{key}-{n}"
    return [NewEvent("demloc.setup.hired", {"seat": seat, "pick": pick})]


@setup_command(picks, "demloc.setup.offer", rebase=True)
def offer(state: DemlocState, setup: dict, data: Data, seat: int, rng: Any) -> list[NewEvent]:
    """``{"name": contested mercenary, "feods": 0 or more}``: a sealed offer (5.1.1); the last
    one settles the contest (final: the offers are revealed). Raises ``no_contest``,
    ``already_offered``, ``bad_input`` (not a whole number, or negative),
    ``not_enough_feods`` (more than the Guild has for this mission, however many: the message
    says how many it can offer; the page shows it at the offer field, as every refusal at the
    control that sent it)."""
    stage_is(setup, "characters")
    name = str(data.get("name") or "")
    contest = setup["contests"].get(name)
    require(
        contest is not None and seat in contest["seats"],
        "no_contest",
        "No contested mercenary of yours by that name.",
    )
    require(
        seat_key(seat) not in contest["offers"], "already_offered", "Your offer is already made."
    )
    amount = data.int(
        "feods",
        lo=0,
        default=0,
        code="bad_input",
        message="Offer a whole number of feods, 0 or more.",
    )
    left = available_feods(setup, seat)
    require(
        amount <= left,
        "not_enough_feods",
        f"You can offer at most {counted(left, 'feod')}: what your Guild has for this mission.",
    )
    events = [NewEvent("demloc.setup.offered", {"name": name, "feods": amount})]
    offers = {**contest["offers"], seat_key(seat): amount}
    if len(offers) == len(contest["seats"]):
        events.append(settle_contest(setup, name, offers, rng))
    return events


def _picked_text(s: DemlocState, e: EventRecord) -> str:
    setup = s.get("setup") or {}
    pick = e.data["pick"]
    if e.type == "demloc.setup.hired":
        text = f"{who(setup, e.data['seat'])} enlists {pick['name']} for {counted(pick['cost'], 'feod')}."
    else:
        text = f"{who(setup, e.data['seat'])} chooses {pick['name']}."
    if e.data.get("contest"):
        rivals = " and ".join(who(setup, x) for x in e.data["contest"])
        text += (
            f" {pick['name']} is wanted by {rivals}: he sides with the best offer of feods "
            "(equal offers: the Guild of greater fame) (5.1.1)."
        )
    return text


def _picked(s: DemlocState, e: EventRecord) -> None:
    setup, d = known(s["setup"]), e.data
    pick = copy_json(d["pick"])
    setup["picks"][seat_key(d["seat"])].append(pick)
    if e.type == "demloc.setup.hired":
        setup["costs"][seat_key(d["seat"])]["hires"] += pick["cost"]
    if d.get("contest"):
        setup["contests"][pick["name"]] = {"seats": list(d["contest"]), "offers": {}}
    say(_picked_text(s, e))


for _type, _label in (("demloc.setup.picked", "chose a character"), ("demloc.setup.hired", "enlisted a follower")):
    picks.evolver(_type, label=_label)(_picked)
    picks.narrator(_type)(lambda e, s: _picked_text(s, e))


@picks.evolver("demloc.setup.unpicked", label="freed a slot")
def unpicked(s: DemlocState, e: EventRecord) -> None:
    setup, seat = known(s["setup"]), e.data["seat"]
    pick = drop_pick(setup, seat, e.data["id"])
    say(
        f"{who(setup, seat)} frees the slot of {pick['name']}." + _stays(setup, seat, pick)
    )


def _stays(setup: dict, seat: int, pick: dict | None) -> str:
    """The words that ``pick`` stays with ``seat``'s Guild, when it is a mercenary that Guild
    won in a settled contest (5.1.1); "" otherwise."""
    if not pick or pick.get("source") != "mercenary":
        return ""
    if settled_holder(setup, pick["name"]) != seat:
        return ""
    paid = setup["settled"][pick["name"]]["paid"]
    return (
        f" {pick['name']} stays with {guild_label(setup, seat)} for this mission: the offer of "
        f"{counted(paid, 'feod')} stands and nobody else may choose him (5.1.1)."
    )


@picks.narrator("demloc.setup.unpicked")
def say_unpicked(e: EventRecord, s: DemlocState) -> str:
    """Against a later state (the live log): the roster names a mercenary or guest freed."""
    setup, seat = s.get("setup") or {}, e.data["seat"]
    entry = roster_entry(setup, seat, e.data["id"]) if setup.get("guilds") else None
    if entry is None:
        return f"{who(setup, seat)} frees a slot."
    return f"{who(setup, seat)} frees the slot of {entry['name']}." + _stays(setup, seat, entry)


@picks.evolver("demloc.setup.offered", label="made an offer")
def offered(s: DemlocState, e: EventRecord) -> None:
    known(s["setup"])["contests"][e.data["name"]]["offers"][seat_key(e.seat)] = e.data["feods"]
    say(say_offered(e, s))


@picks.narrator("demloc.setup.offered")
def say_offered(e: EventRecord, s: DemlocState) -> str:
    return f"{who(s.get('setup') or {}, e.seat)} makes a sealed offer for {e.data['name']}."


def _settled_text(s: DemlocState, d: dict) -> str:
    setup = s.get("setup") or {}
    offers = ", ".join(f"{setup.get('names', {}).get(k, '?')} {v}" for k, v in d["offers"].items())
    why = {
        "offer": "the best offer",
        "fame": "equal offers: the Guild of greater fame",
        "draw": "equal offers and fame: drawn",
    }[d["reason"]]
    return (
        f"{d['name']} sides with {guild_label(setup, d['winner'])} ({why}; offers: {offers} "
        "feods). The contest is settled for this mission (5.1.1)."
    )


@picks.evolver("demloc.setup.contest_settled", label="settled a contested mercenary")
def contest_settled(s: DemlocState, e: EventRecord) -> None:
    setup, d = known(s["setup"]), e.data
    contest = setup["contests"].pop(d["name"])
    for loser in contest["seats"]:
        if loser != d["winner"]:
            setup["picks"][seat_key(loser)] = [
                p
                for p in setup["picks"][seat_key(loser)]
                if not (p["source"] == "mercenary" and p["name"] == d["name"])
            ]
            if loser in setup["ready"]:
                # A Guild that tapped Next before another Guild chose the same mercenary
                # lost a character it counted on: it chooses again (the freed slot; at least
                # one character, ``setup_stages``), or the deployment would wait forever on
                # a Guild with nothing to place.
                setup["ready"].remove(loser)
                say(
                    f"{guild_label(setup, loser)} lost {d['name']}: choose again and tap Next."
                )
    setup["costs"][seat_key(d["winner"])]["offers"] += d["paid"]
    # Final for the preparation (5.1.1, ``setup.settled_holder``); a table whose state was
    # folded before this key existed gets it here.
    setup.setdefault("settled", {})[d["name"]] = {"seat": d["winner"], "paid": d["paid"]}
    say(_settled_text(s, d))


@picks.narrator("demloc.setup.contest_settled")
def say_contest_settled(e: EventRecord, s: DemlocState) -> str:
    return _settled_text(s, e.data)
