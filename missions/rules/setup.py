"""The mission preparation phases at the table (DemLoc rulebook 6.4, 6.4.1, 5.1.1, 5.1.2, 5.2).

Pure: no Django. The ``demloc`` ruleset calls ``decide`` and ``evolve`` of this module while
``state["setup"]["stage"]`` is not ``"play"``. A lifecycle mission starts with the event
``demloc.setup.opened`` (``missions.services.mission_open`` puts the mission definition in the
hidden ``mission`` table option); the stages then run in this order, each one left when every
player has tapped Next (6.4.1)::

    guilds -> raffle (standard only) -> objective -> map -> characters -> mana -> miniatures
           -> deployment -> start -> play

- ``guilds``: each phone brings its Guild (server command ``demloc.setup.guild_bind``, seat
  None, sent by ``missions.services.mission_guild_bind`` with the Guild's snapshot); in a
  standard mission the server then draws the control spot (``demloc.setup.raffle``). A player
  may bring the same Guild again (a fresh snapshot: ``demloc.setup.guild_refreshed``) until
  their Characters step is done (our rule: the rulebook has the profiles "connected" once, but
  a Master who enlists or equips at the table must see it); choices no longer valid are dropped
  with a line in the log.
- ``characters``: picks into ``definition["slots"]`` slots: ready mercenaries, guesthouse
  followers (free), followers enlisted for feods from the mission's shared pool (5.1.2: the
  copies are shared by every player at the table). Uniqueness (5.1.1): a mercenary picked by two
  guilds is *contested*; each contending player makes a sealed feods offer; the highest offer
  takes him and pays it; equal offers: the Guild of greater fame; equal fame: a draw.
- ``mana``: the arcane dice each arcane character rolled (6.4.1: broken seals have no effect).
- ``miniatures``: sub-base colours and movement token numbers (5.2).
- ``deployment``: a random first player, then clockwise one miniature at a time (6.4.1); in a
  wave mission a character may be held back for a later wave.
- ``start``: every player taps Start: ``demloc.mission.opened`` and the first turn.

Feods are never paid during the setup: hires and offers are checked against the Guild's purse
as it was when it joined the table and paid when the mission is closed (guilds change only
then; ``missions.rules.resolution``).
"""

from __future__ import annotations

import copy

from tabletop.errors import RuleViolation
from tabletop.rules import NewEvent, require

from . import turns
from .cards import card_from_data

P = "demloc.setup."

STANDARD = "standard"
TRAINING = "training"
MODES = (STANDARD, TRAINING)

STAGES = (
    "guilds",
    "raffle",
    "objective",
    "map",
    "characters",
    "mana",
    "miniatures",
    "deployment",
    "start",
    "play",
)
STAGE_LABELS = {
    "guilds": "Guilds",
    "raffle": "Raffle",
    "objective": "Objective",
    "map": "Map",
    "characters": "Characters",
    "mana": "Mana",
    "miniatures": "Miniatures",
    "deployment": "Deployment",
    "start": "Start",
}
KINDS = {
    "objective": "Reach an objective",
    "turns": "Limited turns",
    "control": "Hold an area",
    "waves": "Waves",
    "relic": "Retrieve the relic",
}
#: Sub-base colours (5.2); the Guild colours of the guilds app.
COLOURS = ("red", "blue", "yellow", "green")

EVENT_LABELS = {
    P + "opened": "opened the mission lobby",
    P + "guild_bound": "brought a Guild",
    P + "guild_refreshed": "brought a Guild again",
    P + "raffle_drawn": "drew the control spot",
    P + "next_tapped": "tapped Next",
    P + "stage_advanced": "moved to the next phase",
    P + "picked": "chose a character",
    P + "unpicked": "freed a slot",
    P + "hired": "enlisted a follower",
    P + "offered": "made an offer",
    P + "contest_settled": "settled a contested mercenary",
    P + "mana_rolled": "entered arcane dice",
    P + "deployed": "placed a miniature",
}

#: Commands only the server sends (seat None): they carry data read from the guilds.
SERVER_COMMANDS = frozenset({P + "guild_bind", P + "raffle"})


def stages_for(mode: str) -> list[str]:
    """The stages of a mission in ``mode``: a training mission has no raffle (6.4.1)."""
    return [s for s in STAGES if not (s == "raffle" and mode == TRAINING)]


def opened_event(mission: dict, seats, options: dict) -> NewEvent:
    """The first event of a lifecycle mission. ``mission``: the hidden table option,
    ``{"id": int, "mode": "standard" | "training", "definition": {...}}`` (the definition as
    ``MissionDefinition.snapshot()`` gives it); ``options``: the other table options."""
    require(
        isinstance(mission, dict) and isinstance(mission.get("id"), int),
        "bad_option",
        "Open a mission from the mission lobby.",
    )
    mode = mission.get("mode")
    require(mode in MODES, "bad_mode", "A mission is standard or training (6.4).")
    definition = mission.get("definition") or {}
    require(definition.get("kind") in KINDS, "bad_mission", "The mission has no known type.")
    return NewEvent(
        P + "opened",
        {
            "mission": mission.get("id"),
            "mode": mode,
            "definition": copy.deepcopy(definition),
            "seats": [[s.number, s.name] for s in seats],
            "options": dict(options),
        },
    )


def initial(d: dict) -> dict:
    """The ``state["setup"]`` dict after ``demloc.setup.opened``."""
    return {
        "mission": d["mission"],
        "mode": d["mode"],
        "options": d.get("options", {}),
        "definition": d["definition"],
        "seats": [s for s, _ in d["seats"]],
        "names": {str(s): n for s, n in d["seats"]},
        "stage": "guilds",
        "ready": [],
        "guilds": {},
        "raffle": None,
        "picks": {str(s): [] for s, _ in d["seats"]},
        "hired": {},
        "costs": {str(s): {"hires": 0, "offers": 0} for s, _ in d["seats"]},
        "contests": {},
        "mana": {},
        "colours": {},
        "tokens": {},
        "deploy": {"first": None, "order": [], "acting": None, "placed": {}},
    }


# ---------------------------------------------------------------------------------- queries
def _seat_key(seat: int) -> str:
    return str(seat)


def roster_entry(setup: dict, seat: int, char_id: str) -> dict | None:
    """The character ``char_id`` of ``seat``'s Guild roster (``None`` if there is none)."""
    guild = setup["guilds"].get(_seat_key(seat))
    if guild is None:
        return None
    return next((c for c in guild["roster"] if c["id"] == char_id), None)


def pool_entry(setup: dict, key: str) -> dict | None:
    """The mission's follower offer ``key`` (5.1.2), or None."""
    return next((f for f in setup["definition"].get("followers", []) if f["key"] == key), None)


def available_feods(setup: dict, seat: int, *, pending_offers: bool = True) -> int:
    """The feods ``seat`` may still commit: its Guild's feods when it joined the table, minus
    hires and settled offers, minus (``pending_offers``) its sealed offers not yet settled."""
    guild = setup["guilds"][_seat_key(seat)]["guild"]
    costs = setup["costs"][_seat_key(seat)]
    left = guild["feods"] - costs["hires"] - costs["offers"]
    if pending_offers:
        for contest in setup["contests"].values():
            left -= contest["offers"].get(_seat_key(seat), 0)
    return left


def hired_count(setup: dict, key: str) -> int:
    """Copies of follower ``key`` already enlisted by anyone at the table (shared pool)."""
    return sum(
        1
        for picks in setup["picks"].values()
        for p in picks
        if p["source"] == "hired" and p["ref"] == key
    )


def piece_id(seat: int, char_id: str) -> str:
    return f"s{seat}-{char_id}"


def chosen(setup: dict) -> list[tuple[int, dict]]:
    """Every pick ``(seat, pick)`` in seat order, contested or not."""
    return [(s, p) for s in setup["seats"] for p in setup["picks"][_seat_key(s)]]


def _contest_of(setup: dict, seat: int) -> list[str]:
    return [n for n, c in setup["contests"].items() if seat in c["seats"]]


def _next_stage(setup: dict) -> str:
    order = stages_for(setup["mode"])
    return order[order.index(setup["stage"]) + 1]


# ---------------------------------------------------------------------------------- decide
def decide(state: dict, command, seat: int | None, rng) -> list[NewEvent]:
    """Check one setup command against ``state`` and return its events (RuleViolation else)."""
    setup = state["setup"]
    kind = command.type.removeprefix(P)
    data = dict(command.data or {})
    if command.type in SERVER_COMMANDS:
        require(seat is None, "server_only", "Only the app sends that.")
    else:
        require(seat is not None, "not_seated", "Only a seated player can do that.")
        require(seat in setup["seats"], "not_seated", "Only a player at this table can do that.")
    handler = _HANDLERS.get(kind) if command.type.startswith(P) else None
    require(
        handler is not None,
        "setup_first",
        f"The mission is being prepared ({STAGE_LABELS[setup['stage']]}): finish that first.",
    )
    return handler(state, setup, data, seat, rng)


def _stage(setup: dict, *stages: str) -> None:
    require(
        setup["stage"] in stages,
        "wrong_phase",
        f"Not now: this is the {STAGE_LABELS[setup['stage']]} phase.",
    )


#: Stages in which a player may bring their Guild again (until their Characters step is done).
REFRESH_STAGES = ("guilds", "raffle", "objective", "map", "characters")


def can_refresh(setup: dict, seat: int | None) -> bool:
    """Whether ``seat`` may bring its Guild again now: it has brought one, the stage is at most
    Characters, and (at Characters) it has not tapped Next yet."""
    return (
        seat is not None
        and _seat_key(seat) in setup["guilds"]
        and setup["stage"] in REFRESH_STAGES
        and not (setup["stage"] == "characters" and seat in setup["ready"])
    )


def _cmd_guild_bind(state, setup, data, seat, rng):
    bound = data.get("seat")
    require(bound in setup["seats"], "not_seated", "No such seat at this table.")
    guild = data.get("guild") or {}
    require(isinstance(guild.get("id"), int), "bad_guild", "A Guild needs an id.")
    payload = {
        "seat": bound,
        "guild": guild,
        "roster": [_checked_entry(e) for e in data.get("roster") or []],
        "pantheon": _checked_pantheon(data.get("pantheon") or []),
        "database_followers": data.get("database_followers") or [],
        "fate_points": int(data.get("fate_points", 3)),
        "taken_at": str(data.get("taken_at") or ""),
    }
    if _seat_key(bound) in setup["guilds"]:
        return _guild_refresh(setup, bound, payload, rng)
    _stage(setup, "guilds")
    require(
        all(g["guild"]["id"] != guild["id"] for g in setup["guilds"].values()),
        "guild_twice",
        f"{guild.get('name', 'That Guild')} is already at this table: one Guild per player.",
    )
    return [NewEvent(P + "guild_bound", payload)]


def _guild_refresh(setup: dict, seat: int, payload: dict, rng) -> list[NewEvent]:
    """The same Guild brought again (a fresh snapshot). Picks no longer valid are dropped:
    a mercenary or guest gone or no longer ready, a hired follower whose card left the Guild's
    database, and hires (latest first) the new purse no longer covers."""
    require(
        payload["guild"]["id"] == setup["guilds"][_seat_key(seat)]["guild"]["id"],
        "guild_bound",
        "This seat has already brought its Guild.",
    )
    require(
        can_refresh(setup, seat),
        "characters_done",
        "Your characters are chosen: your Guild stays as it was brought for this mission.",
    )
    roster = {c["id"]: c for c in payload["roster"]}
    offers = {f["key"]: f for f in setup["definition"].get("followers", [])}
    dropped, kept_hires = [], []
    for pick in setup["picks"][_seat_key(seat)]:
        why = ""
        if pick["source"] == "hired":
            card_id = (offers.get(pick["ref"]) or {}).get("card_id")
            if card_id is not None and card_id not in payload["database_followers"]:
                why = "no longer in your card database (5.1.2)"
            else:
                kept_hires.append(pick)
        else:
            entry = roster.get(pick["id"])
            if entry is None:
                why = "no longer in your Guild"
            elif not entry.get("ready", True):
                why = entry.get("why") or "cannot go on a mission now"
        if why:
            dropped.append({"id": pick["id"], "name": pick["name"], "why": why})
    costs = setup["costs"][_seat_key(seat)]
    pending = sum(c["offers"].get(_seat_key(seat), 0) for c in setup["contests"].values())
    spent = sum(p["cost"] for p in kept_hires) + costs["offers"] + pending
    for pick in reversed(kept_hires):
        if spent <= payload["guild"].get("feods", 0):
            break
        spent -= pick["cost"]
        dropped.append({"id": pick["id"], "name": pick["name"], "why": "too dear for your purse"})
    events = [NewEvent(P + "guild_refreshed", {**payload, "dropped": dropped})]
    for gone in dropped:
        pick = next(p for p in setup["picks"][_seat_key(seat)] if p["id"] == gone["id"])
        events.extend(_contest_after_unpick(setup, seat, pick, rng))
    return events


def _checked_entry(entry: dict) -> dict:
    """A roster entry with its card normalized (``cards.card_from_data``); a card the mission
    cannot read makes the character unavailable instead of breaking the table."""
    entry = copy.deepcopy(entry)
    try:
        entry["card"] = card_from_data(entry.get("card") or {})
    except RuleViolation as exc:
        entry.update(ready=False, not_ready_code="bad_card", why=exc.message)
    return entry


def _checked_pantheon(pantheon: list[dict]) -> list[dict]:
    out = []
    for daemon in pantheon:
        try:
            out.append(card_from_data({**daemon, "kind": "daemon"}))
        except RuleViolation:
            continue  # a daemon card the mission cannot read is never drawn
    return out


def _cmd_raffle(state, setup, data, seat, rng):
    _stage(setup, "guilds")
    require(setup["mode"] == STANDARD, "training", "A training mission has no raffle (6.4).")
    require(setup["raffle"] is None, "raffle_done", "The control spot is already drawn.")
    require(
        len(setup["guilds"]) == len(setup["seats"]),
        "guilds_missing",
        "Every player brings a Guild first.",
    )
    candidates = list(data.get("candidates") or [])
    point = rng.choice(candidates) if candidates else None
    # A random draw shown to everyone: final, so undo is never a way to draw again.
    return [
        NewEvent(P + "raffle_drawn", {"point": point, "candidates": len(candidates)}, final=True)
    ]


def _check_ready(setup: dict, seat: int) -> None:
    stage = setup["stage"]
    if stage == "guilds":
        require(
            len(setup["guilds"]) == len(setup["seats"]),
            "guilds_missing",
            "Wait until every player has brought a Guild.",
        )
    if stage == "characters":
        picks = setup["picks"][_seat_key(seat)]
        require(picks, "no_characters", "Choose at least one character.")
        require(
            not _contest_of(setup, seat),
            "contested",
            "Settle the contested mercenary first (5.1.1): make your offer or free the slot.",
        )
    if stage == "mana":
        for pick in setup["picks"][_seat_key(seat)]:
            pid = piece_id(seat, pick["id"])
            require(
                pick["card"].get("arcane", 0) == 0 or pid in setup["mana"],
                "mana_missing",
                f"Enter the arcane dice of {pick['name']}.",
            )
    if stage == "deployment":
        require(False, "deploying", "Place the miniatures first.")


def _cmd_next(state, setup, data, seat, rng):
    require(setup["stage"] != "play", "wrong_phase", "The mission has started.")
    require(seat not in setup["ready"], "already_ready", "You already tapped Next.")
    _check_ready(setup, seat)
    events = [NewEvent(P + "next_tapped", {"stage": setup["stage"]})]
    if set(setup["ready"]) | {seat} >= set(setup["seats"]):
        events.extend(_advance(state, setup, rng))
    return events


def _advance(state: dict, setup: dict, rng) -> list[NewEvent]:
    stage = setup["stage"]
    if stage == "guilds":
        require(
            setup["mode"] == TRAINING or setup["raffle"] is not None,
            "raffle_missing",
            "The control spot has not been drawn yet.",
        )
    if stage == "start":
        return opening_events(state, setup, rng)
    new = _next_stage(setup)
    data: dict = {"stage": new}
    if new == "miniatures":
        data["colours"] = assign_colours(setup)
        data["tokens"] = assign_tokens(setup)
    if new == "deployment":
        first = turns.draw_first_player(rng, setup["seats"], None)
        data["first"] = first
        data["order"] = turns.clockwise_from(setup["seats"], first)
    # The first-player draw is final: undo could otherwise let another phone re-draw it.
    return [NewEvent(P + "stage_advanced", data, final=new == "deployment")]


def assign_colours(setup: dict) -> dict[str, str]:
    """Sub-base colours (5.2): each Guild's own colour; a colour already taken by an earlier
    seat goes to the first free one of ``COLOURS`` (our rule: the app keeps them distinct)."""
    taken: dict[str, str] = {}
    for seat in setup["seats"]:
        wanted = setup["guilds"][_seat_key(seat)]["guild"].get("colour")
        if wanted not in COLOURS or wanted in taken.values():
            wanted = next(c for c in COLOURS if c not in taken.values())
        taken[_seat_key(seat)] = wanted
    return taken


def assign_tokens(setup: dict) -> dict[str, int]:
    """Movement token numbers (5.2): 1, 2, 3... per player, in the order the characters were
    chosen; the same number goes on the miniature's sub-base and the card."""
    tokens = {}
    for seat in setup["seats"]:
        for n, pick in enumerate(setup["picks"][_seat_key(seat)], start=1):
            tokens[piece_id(seat, pick["id"])] = n
    return tokens


def _cmd_pick(state, setup, data, seat, rng):
    _stage(setup, "characters")
    require(seat not in setup["ready"], "already_ready", "You tapped Next: your choice is made.")
    char_id = str(data.get("character") or "")
    entry = roster_entry(setup, seat, char_id)
    require(entry is not None, "no_such_character", "No such character in your Guild.")
    require(
        entry.get("ready", True),
        entry.get("not_ready_code") or "not_ready",
        entry.get("why") or f"{entry['name']} cannot go on a mission now.",
    )
    picks = setup["picks"][_seat_key(seat)]
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
        rivals = [
            s
            for s, p in chosen(setup)
            if s != seat and p["source"] == "mercenary" and p["name"] == entry["name"]
        ]
        if rivals:
            contest = sorted(set(rivals) | {seat})
    return [
        NewEvent(
            P + "picked",
            {"seat": seat, "pick": _pick(entry), "contest": contest},
        )
    ]


def _pick(entry: dict) -> dict:
    return {
        "id": entry["id"],
        "source": entry["source"],
        "ref": entry.get("ref"),
        "name": entry["name"],
        "card": copy.deepcopy(entry["card"]),
        "cost": entry.get("cost", 0),
        "miniature": entry.get("miniature", ""),
    }


def _require_slot(setup: dict, seat: int) -> None:
    slots = int(setup["definition"].get("slots") or 4)
    require(
        len(setup["picks"][_seat_key(seat)]) < slots,
        "slots_full",
        f"All your {slots} slots are taken: free one first.",
    )


def _cmd_unpick(state, setup, data, seat, rng):
    _stage(setup, "characters")
    require(seat not in setup["ready"], "already_ready", "You tapped Next: your choice is made.")
    char_id = str(data.get("character") or "")
    pick = next((p for p in setup["picks"][_seat_key(seat)] if p["id"] == char_id), None)
    require(pick is not None, "not_chosen", "That character is not in your slots.")
    return [
        NewEvent(P + "unpicked", {"seat": seat, "id": char_id}),
        *_contest_after_unpick(setup, seat, pick, rng),
    ]


def _contest_after_unpick(setup: dict, seat: int, pick: dict, rng) -> list[NewEvent]:
    """When ``seat`` frees a contested mercenary, the others may all have offered already:
    their offers settle it now (5.1.1)."""
    contest = setup["contests"].get(pick["name"])
    if pick["source"] == "mercenary" and contest and seat in contest["seats"]:
        rest = [x for x in contest["seats"] if x != seat]
        offers = {k: v for k, v in contest["offers"].items() if k != _seat_key(seat)}
        if len(rest) >= 2 and len(offers) == len(rest):
            return [settle_contest(setup, pick["name"], offers, rng)]
    return []


def _cmd_hire(state, setup, data, seat, rng):
    _stage(setup, "characters")
    require(seat not in setup["ready"], "already_ready", "You tapped Next: your choice is made.")
    key = str(data.get("follower") or "")
    offer = pool_entry(setup, key)
    require(offer is not None, "no_such_follower", "That follower is not offered for this mission.")
    guild = setup["guilds"][_seat_key(seat)]
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
        f"{offer['name']} costs {cost} feods; your Guild has {left} left for this mission.",
    )
    n = hired_count(setup, key) + 1
    pick = {
        "id": f"h{key}-{n}",
        "source": "hired",
        "ref": key,
        "name": offer["name"],
        "card": card_from_data(copy.deepcopy(offer["card"])),
        "cost": cost,
        "miniature": "its own miniature (its name is under the base)",
    }
    # Two players' copies of one offer must never share an id: count over the table.
    while any(p["id"] == pick["id"] for _, p in chosen(setup)):
        n += 1
        pick["id"] = f"h{key}-{n}"
    return [NewEvent(P + "hired", {"seat": seat, "pick": pick})]


def _cmd_offer(state, setup, data, seat, rng):
    _stage(setup, "characters")
    name = str(data.get("name") or "")
    contest = setup["contests"].get(name)
    require(
        contest is not None and seat in contest["seats"],
        "no_contest",
        "No contested mercenary of yours by that name.",
    )
    require(
        _seat_key(seat) not in contest["offers"], "already_offered", "Your offer is already made."
    )
    amount = data.get("feods", 0)
    if isinstance(amount, str) and amount.strip().isdigit():
        amount = int(amount)
    if amount in ("", None):
        amount = 0
    require(
        isinstance(amount, int) and not isinstance(amount, bool) and 0 <= amount <= 10000,
        "bad_input",
        "Offer a whole number of feods, 0 or more.",
    )
    left = available_feods(setup, seat)
    require(amount <= left, "not_enough_feods", f"Your Guild has {left} feods for this mission.")
    events = [NewEvent(P + "offered", {"name": name, "feods": amount})]
    offers = {**contest["offers"], _seat_key(seat): amount}
    if len(offers) == len(contest["seats"]):
        events.append(settle_contest(setup, name, offers, rng))
    return events


def settle_contest(setup: dict, name: str, offers: dict[str, int], rng) -> NewEvent:
    """Who gets the mercenary ``name`` picked by several guilds (5.1.1): the highest sealed
    offer of feods; equal offers: the Guild of greater fame (at the time it joined the table);
    still equal: a random draw. The offers are revealed here, so the event is final (no undo)."""
    best = max(offers.values())
    top = [int(s) for s, v in offers.items() if v == best]
    reason = "offer"
    if len(top) > 1:
        fame = {s: setup["guilds"][_seat_key(s)]["guild"].get("fame", 0) for s in top}
        most = max(fame.values())
        top = [s for s in top if fame[s] == most]
        reason = "fame"
        if len(top) > 1:
            top = [rng.choice(sorted(top))]
            reason = "draw"
    return NewEvent(
        P + "contest_settled",
        {"name": name, "winner": top[0], "offers": offers, "paid": best, "reason": reason},
        final=True,
    )


def _cmd_mana(state, setup, data, seat, rng):
    _stage(setup, "mana")
    require(seat not in setup["ready"], "already_ready", "You tapped Next already.")
    char_id = str(data.get("character") or "")
    pick = next((p for p in setup["picks"][_seat_key(seat)] if p["id"] == char_id), None)
    require(pick is not None, "no_such_character", "That character is not in your slots.")
    arcane = pick["card"].get("arcane", 0)
    require(arcane > 0, "no_arcane", f"{pick['name']} has no arcane ability.")
    counts = {}
    for key in ("common", "dark", "seals"):
        value = data.get(key, 0)
        if value in ("", None):
            value = 0
        if isinstance(value, str) and value.isdigit():
            value = int(value)
        require(
            isinstance(value, int) and not isinstance(value, bool) and value >= 0,
            "bad_input",
            f"{key} must be a whole number.",
        )
        counts[key] = value
    require(
        sum(counts.values()) == arcane,
        "bad_count",
        f"{pick['name']} rolls {arcane} arcane dice: enter what each one shows.",
    )
    return [NewEvent(P + "mana_rolled", {"piece": piece_id(seat, char_id), **counts})]


def _cmd_deploy(state, setup, data, seat, rng):
    _stage(setup, "deployment")
    deploy = setup["deploy"]
    require(
        seat == deploy["acting"],
        "not_your_turn",
        f"{setup['names'][_seat_key(deploy['acting'])]} places a miniature now.",
    )
    char_id = str(data.get("character") or "")
    pick = next((p for p in setup["picks"][_seat_key(seat)] if p["id"] == char_id), None)
    require(pick is not None, "no_such_character", "That character is not in your slots.")
    pid = piece_id(seat, char_id)
    require(pid not in deploy["placed"], "already_placed", f"{pick['name']} is already placed.")
    later = str(data.get("later", "")).lower() in ("1", "true", "on", "yes")
    areas = [a["name"] for a in setup["definition"].get("deployment", [])]
    area = str(data.get("area") or "")
    waves = setup["definition"].get("waves") or []
    if later:
        require(
            setup["definition"]["kind"] == "waves" and waves,
            "no_waves",
            "Only a wave mission holds characters back.",
        )
        area = ""
    else:
        require(area in areas, "bad_area", f"Place it in a deployment area: {', '.join(areas)}.")
    placed = {**deploy["placed"], pid: {}}
    remaining = [
        s
        for s in deploy["order"]
        if any(piece_id(s, p["id"]) not in placed for p in setup["picks"][_seat_key(s)])
    ]
    nxt = None
    if remaining:
        i = deploy["order"].index(seat)
        ring = deploy["order"][i + 1 :] + deploy["order"][: i + 1]
        nxt = next(s for s in ring if s in remaining)
    enters = int(waves[0]["turn"]) if later else 1
    return [
        NewEvent(
            P + "deployed",
            {"seat": seat, "piece": pid, "area": area, "enters": enters, "next": nxt},
        )
    ]


_HANDLERS = {
    "guild_bind": _cmd_guild_bind,
    "raffle": _cmd_raffle,
    "next": _cmd_next,
    "pick": _cmd_pick,
    "unpick": _cmd_unpick,
    "hire": _cmd_hire,
    "offer": _cmd_offer,
    "mana": _cmd_mana,
    "deploy": _cmd_deploy,
}


def opening_events(state: dict, setup: dict, rng) -> list[NewEvent]:
    """``demloc.mission.opened`` and the first ``demloc.turn.started`` from the setup: every
    chosen character's card with its setup mana, movement token number and wave turn; the
    table options the mission definition implies (turn limit, turns to hold)."""
    definition = setup["definition"]
    opts = dict(setup.get("options") or {})
    opts["turn_limit"] = str(int(definition.get("turn_limit") or 0))
    opts["objective_turns"] = str(
        int(definition.get("control_turns") or 0) if definition["kind"] == "control" else 0
    )
    players, pieces = [], []
    for seat in setup["seats"]:
        guild = setup["guilds"][_seat_key(seat)]
        players.append(
            {
                "seat": seat,
                "name": setup["names"][_seat_key(seat)],
                "guild": guild["guild"]["name"],
                "fate": guild.get("fate_points", 3),
                "pantheon": copy.deepcopy(guild["pantheon"]),
            }
        )
        for pick in setup["picks"][_seat_key(seat)]:
            pid = piece_id(seat, pick["id"])
            mana = setup["mana"].get(pid, {})
            placed = setup["deploy"]["placed"].get(pid, {})
            pieces.append(
                {
                    "card": {**copy.deepcopy(pick["card"]), "id": pid, "name": pick["name"]},
                    "owner": seat,
                    "mana": {"common": mana.get("common", 0), "dark": mana.get("dark", 0)},
                    "token": setup["tokens"].get(pid),
                    "enters": placed.get("enters", 1),
                    "area": placed.get("area", ""),
                }
            )
    seat_numbers = list(setup["seats"])
    first = turns.draw_first_player(rng, seat_numbers, None)
    return [
        # Starting the game is final (6.4.1 "start game"): the preparation is over.
        NewEvent(
            "demloc.mission.opened",
            {"options": opts, "players": players, "pieces": pieces},
            final=True,
        ),
        NewEvent(
            "demloc.turn.started",
            {
                "turn": 1,
                "first": first,
                "weights": turns.first_player_weights(seat_numbers, None),
                "ooc": {},
            },
        ),
    ]


# ---------------------------------------------------------------------------------- evolve
def evolve(s: dict, etype: str, d: dict, seat: int | None, lines: list[str]) -> bool:
    """Fold a ``demloc.setup.*`` event into ``s`` (a deep copy the caller owns). Returns
    False for an event type this module does not know."""
    kind = etype.removeprefix(P)
    if kind == "opened":
        s["setup"] = initial(d)
        lines.append(
            f"{d['definition'].get('name', 'A mission')} ({d['mode']}): bring your Guilds."
        )
        return True
    setup = s["setup"]
    names = setup["names"] if setup else {}
    who = names.get(_seat_key(seat), "") if seat is not None else ""
    if kind in ("guild_bound", "guild_refreshed"):
        key = _seat_key(d["seat"])
        setup["guilds"][key] = {
            "guild": d["guild"],
            "roster": d["roster"],
            "pantheon": d["pantheon"],
            "database_followers": d["database_followers"],
            "fate_points": d["fate_points"],
            "taken_at": d.get("taken_at", ""),
            "dropped": d.get("dropped", []),
        }
        if kind == "guild_bound":
            lines.append(f"{names[key]} brings {d['guild']['name']}.")
        else:
            lines.append(f"{names[key]} brings {d['guild']['name']} again (fresh Guild data).")
            for gone in d["dropped"]:
                _drop_pick(setup, d["seat"], gone["id"])
                lines.append(f"{gone['name']} leaves the slots of {names[key]}: {gone['why']}.")
            roster = {c["id"]: c for c in d["roster"]}
            for pick in setup["picks"][key]:
                entry = roster.get(pick["id"]) if pick["source"] != "hired" else None
                if entry is not None:  # a new weapon or code shows on the card now
                    pick["card"] = copy.deepcopy(entry["card"])
    elif kind == "raffle_drawn":
        setup["raffle"] = {"point": d["point"], "candidates": d["candidates"]}
        point = d["point"]
        if point is None:
            lines.append("No control spot is at stake: the city has none to draw.")
        else:
            lines.append(f"Raffle: the mission takes place at {point['name']} ({point['area']}).")
    elif kind == "next_tapped":
        setup["ready"] = sorted(set(setup["ready"]) | {seat})
        lines.append(f"{who} is ready ({STAGE_LABELS[d['stage']]}).")
    elif kind == "stage_advanced":
        setup["stage"] = d["stage"]
        setup["ready"] = []
        if "colours" in d:
            setup["colours"] = d["colours"]
            setup["tokens"] = d["tokens"]
        if "first" in d:
            setup["deploy"].update({"first": d["first"], "order": d["order"], "acting": d["first"]})
            lines.append(f"Deployment: {names[_seat_key(d['first'])]} places first.")
        lines.append(f"Phase: {STAGE_LABELS.get(d['stage'], d['stage'])}.")
    elif kind in ("picked", "hired"):
        pick = d["pick"]
        setup["picks"][_seat_key(d["seat"])].append(pick)
        if kind == "hired":
            setup["costs"][_seat_key(d["seat"])]["hires"] += pick["cost"]
            lines.append(f"{who} enlists {pick['name']} for {pick['cost']} feods.")
        else:
            lines.append(f"{who} chooses {pick['name']}.")
        if d.get("contest"):
            name = pick["name"]
            setup["contests"][name] = {"seats": d["contest"], "offers": {}}
            rivals = " and ".join(names[_seat_key(x)] for x in d["contest"])
            lines.append(
                f"{name} is wanted by {rivals}: he sides with the best offer of feods "
                "(equal offers: the Guild of greater fame) (5.1.1)."
            )
    elif kind == "unpicked":
        pick = _drop_pick(setup, d["seat"], d["id"])
        lines.append(f"{who} frees the slot of {pick['name']}.")
    elif kind == "offered":
        setup["contests"][d["name"]]["offers"][_seat_key(seat)] = d["feods"]
        lines.append(f"{who} makes a sealed offer for {d['name']}.")
    elif kind == "contest_settled":
        contest = setup["contests"].pop(d["name"])
        winner = d["winner"]
        for loser in contest["seats"]:
            if loser == winner:
                continue
            picks = setup["picks"][_seat_key(loser)]
            setup["picks"][_seat_key(loser)] = [
                p for p in picks if not (p["source"] == "mercenary" and p["name"] == d["name"])
            ]
        setup["costs"][_seat_key(winner)]["offers"] += d["paid"]
        offers = ", ".join(f"{names[k]} {v}" for k, v in d["offers"].items())
        why = {
            "offer": "the best offer",
            "fame": "equal offers: the Guild of greater fame",
            "draw": "equal offers and fame: drawn",
        }[d["reason"]]
        lines.append(
            f"{d['name']} sides with {names[_seat_key(winner)]} ({why}; offers: {offers} feods)."
        )
    elif kind == "mana_rolled":
        setup["mana"][d["piece"]] = {k: d[k] for k in ("common", "dark", "seals")}
        extra = f"; {d['seals']} broken seal(s) without effect (6.4.1)" if d["seals"] else ""
        lines.append(
            f"{who}: {d['common']} common and {d['dark']} dark mana on {d['piece']}{extra}."
        )
    elif kind == "deployed":
        deploy = setup["deploy"]
        deploy["placed"][d["piece"]] = {"area": d["area"], "enters": d["enters"]}
        deploy["acting"] = d["next"]
        where = f"in {d['area']}" if d["area"] else f"for the wave of turn {d['enters']}"
        lines.append(f"{who} places a miniature {where}.")
        if d["next"] is None:
            setup["stage"] = "start"
            setup["ready"] = []
            lines.append("Every miniature is placed: tap Start game.")
    else:
        return False
    return True


def _drop_pick(setup: dict, seat: int, char_id: str) -> dict:
    """Take pick ``char_id`` out of ``seat``'s slots (its hire cost back, its contest left)."""
    picks = setup["picks"][_seat_key(seat)]
    pick = next(p for p in picks if p["id"] == char_id)
    picks.remove(pick)
    if pick["source"] == "hired":
        setup["costs"][_seat_key(seat)]["hires"] -= pick["cost"]
    contest = setup["contests"].get(pick["name"])
    if pick["source"] == "mercenary" and contest and seat in contest["seats"]:
        contest["seats"].remove(seat)
        contest["offers"].pop(_seat_key(seat), None)
        if len(contest["seats"]) < 2:
            del setup["contests"][pick["name"]]
    return pick


# ---------------------------------------------------------------------------------- view
def view(setup: dict, seat: int | None) -> dict:
    """What ``seat`` sees of the preparation: everything, except the amounts of sealed offers
    not yet settled (only whether each contender has offered)."""
    s = copy.deepcopy(setup)
    # Another Guild's dormitory, purse and costs are its own business: name, colour and fame
    # (which settles contested mercenaries) are public.
    for key, g in s["guilds"].items():
        g.pop("database_followers", None)
        if key != _seat_key(seat):
            s["guilds"][key] = {
                "guild": {k: g["guild"].get(k) for k in ("id", "name", "colour", "fame")}
            }
    s["costs"] = {k: v for k, v in s["costs"].items() if k == _seat_key(seat)}
    for contest in s["contests"].values():
        contest["offered"] = [int(k) for k in contest["offers"]]
        contest["mine"] = seat in contest["seats"]
        contest["my_offer"] = contest["offers"].get(_seat_key(seat)) if seat is not None else None
        del contest["offers"]
    stage_list = stages_for(s["mode"])
    s["stage_list"] = [
        {
            "key": k,
            "label": STAGE_LABELS[k],
            "done": stage_list.index(k) < stage_list.index(s["stage"]),
        }
        for k in stage_list
        if k != "play"
    ]
    s["stage_label"] = STAGE_LABELS.get(s["stage"], s["stage"])
    s["kind_label"] = KINDS.get(s["definition"]["kind"], "")
    s["me"] = seat
    s["i_ready"] = seat in s["ready"]
    s["waiting"] = [s["names"][_seat_key(x)] for x in s["seats"] if x not in s["ready"]]
    mine = s["guilds"].get(_seat_key(seat)) if seat is not None else None
    s["my_guild"] = mine
    s["my_picks"] = s["picks"].get(_seat_key(seat), []) if seat is not None else []
    picked_ids = {p["id"] for p in s["my_picks"]}
    s["my_free_roster"] = [c for c in (mine or {}).get("roster", []) if c["id"] not in picked_ids]
    s["slots"] = int(s["definition"].get("slots") or 4)
    s["slots_left"] = s["slots"] - len(s["my_picks"])
    s["my_feods"] = available_feods(setup, seat) if mine else 0
    owned = (setup["guilds"].get(_seat_key(seat)) or {}).get("database_followers", [])
    s["pool"] = [
        {
            **f,
            "left": int(f.get("copies", 1)) - hired_count(setup, f["key"]),
            # 5.1.2: a Guild enlists only followers of its own card database.
            "owned": f.get("card_id") is None or f["card_id"] in owned,
        }
        for f in s["definition"].get("followers", [])
    ]
    s["can_refresh"] = can_refresh(setup, seat)
    s["players"] = [
        {
            "seat": x,
            "name": s["names"][_seat_key(x)],
            "guild": (s["guilds"].get(_seat_key(x)) or {}).get("guild"),
            "ready": x in s["ready"],
            "picks": s["picks"][_seat_key(x)],
            "colour": s["colours"].get(_seat_key(x)),
        }
        for x in s["seats"]
    ]
    s["mana_needed"] = [
        {**p, "piece": piece_id(seat, p["id"]), "rolled": s["mana"].get(piece_id(seat, p["id"]))}
        for p in s["my_picks"]
        if p["card"].get("arcane", 0) > 0
    ]
    deploy = s["deploy"]
    s["my_deploy_turn"] = deploy["acting"] == seat and seat is not None
    s["acting_name"] = (
        s["names"].get(_seat_key(deploy["acting"]), "") if deploy["acting"] is not None else ""
    )
    s["to_place"] = [p for p in s["my_picks"] if piece_id(seat, p["id"]) not in deploy["placed"]]
    s["tokens_of"] = [
        {
            "seat": x,
            "name": s["names"][_seat_key(x)],
            "colour": s["colours"].get(_seat_key(x)),
            "chars": [
                {
                    "name": p["name"],
                    "miniature": p.get("miniature", ""),
                    "token": s["tokens"].get(piece_id(x, p["id"])),
                    "placed": deploy["placed"].get(piece_id(x, p["id"])),
                }
                for p in s["picks"][_seat_key(x)]
            ],
        }
        for x in s["seats"]
    ]
    return s


def require_known_stage(stage: str) -> None:
    if stage not in STAGES:
        raise RuleViolation("bad_stage", f"Unknown phase {stage!r}.")
