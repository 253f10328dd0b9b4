"""The mission lifecycle's write path (DemLoc rulebook 6.4, 6.4.1, 7): open a mission at a
table, bring each player's Guild, close the mission into the guilds exactly once, continue with
the same players. Table changes go through ``tabletop.services.run_command``; guild changes
through ``guilds.services``; each function is one transaction.
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from guilds import services as guild_services
from guilds.ids import parse_id
from tabletop import services as table_services
from tabletop.errors import NotAllowed, NotFound, RuleViolation
from tabletop.live import table_status_text
from tabletop.log import REDO_EVENT, UNDO_EVENT
from tabletop.models import Seat, Table
from tabletop.registry import get_ruleset
from tabletop.rules import Command
from tabletop.signals import JoinNote

from .models import Mission, MissionDefinition, MissionMode
from .rules import resolution
from .rules.guildcards import roster_from_snapshot

SETUP = "demloc.setup."
#: Events after which the Guilds' holds are synced (besides every preparation event).
HOLD_EVENTS = (UNDO_EVENT, REDO_EVENT, "demloc.guild.left")


def guild_of(user):
    """The Guild ``user`` leads (through the account: queries start from the
    user), or None."""
    if user is None or not user.is_authenticated:
        return None
    try:
        return user.guild
    except ObjectDoesNotExist:
        return None


def running_missions(user, limit: int = 3) -> list[dict]:
    """The missions ``user`` holds a seat at that are still running (not closed, their table in
    the lobby or playing), the most recently changed first, at most ``limit``: each
    ``{"mission", "status" (the table's status words, e.g. "Preparing: Objective"),
    "players" (seat names in seat order)}``; ``[]`` for an anonymous user. The mission lobby
    shows them first: the way back from a live table leads to the running mission."""
    if user is None or not user.is_authenticated:
        return []
    missions = (
        Mission.objects.filter(
            table__seats__user=user,
            closed_at__isnull=True,
            table__status__in=(Table.Status.LOBBY, Table.Status.PLAYING),
        )
        .select_related("table", "definition")
        .order_by("-table__updated_at")
        .distinct()[:limit]
    )
    return [
        {
            "mission": m,
            "status": table_status_text(m.table),
            "players": list(m.table.seats.order_by("number").values_list("name", flat=True)),
        }
        for m in missions
    ]


def _guild_of(user):
    if user is None or not user.is_authenticated:
        raise NotAllowed("login_required", "Log in with your Guild Master account first.")
    guild = guild_of(user)
    if guild is None:
        raise NotFound(
            "no_guild", "Found your Guild first: only Guild Masters play missions (6.4)."
        )
    return guild


def seat_name_of(table: Table, user) -> str | None:
    """The seat name a mission table's join page offers ``user`` (a logged-in account): their
    Guild's name, the name the seat takes once the Guild is brought (``mission_guild_bind``), so
    the lobby, the Guilds step and the log name the Guild from the start; None (the account's
    name) for a user without a Guild. ``table`` is any DemLoc table; reads only."""
    guild = guild_of(user)
    return guild.name if guild is not None else None


def join_note_of(table: Table, user) -> JoinNote | None:
    """What a Guild mission's join page tells ``user`` before they take a seat (6.4: each player
    brings their own Guild; only Guild Masters play missions): to an account without a Guild,
    that it has none to bring, with a link to found one, or to join as a guest; to a phone
    without an account, that a Guild Master brings a guest Guild for it (section 4). None on a
    demo table (no mission: no Guild involved) and for a Guild Master. Reads only."""
    mission = Mission.objects.filter(table=table).only("mode").first()
    if mission is None:
        return None
    kind = "A Guild mission" + (" (training)" if mission.mode == MissionMode.TRAINING else "")
    if user is None or not user.is_authenticated:
        return {
            "text": f"{kind}: each player brings a Guild (6.4). Without an account, a Guild "
            "Master at the table brings a guest Guild for your seat.",
            "url": "",
            "label": "",
        }
    if guild_of(user) is not None:
        return None
    return {
        "text": f"{kind}: each player brings their own Guild (6.4), and {user.get_username()} "
        "has none yet. Found one, then come back to this code; or log out and join as a guest "
        "(a Guild Master brings a guest Guild for you).",
        "url": reverse("guilds:found"),
        "label": "Found a Guild",
    }


def _definition(definition_id) -> MissionDefinition:
    pk = parse_id(definition_id)
    definition = (
        MissionDefinition.objects.filter(pk=pk, is_active=True).first() if pk is not None else None
    )
    if definition is None:
        raise NotFound("mission_not_found", "No such mission.")
    return definition


def _mode(mode: str) -> str:
    if mode not in MissionMode.values:
        raise RuleViolation("bad_mode", "Choose a training or a standard mission (6.4).")
    return mode


@transaction.atomic
def mission_open(
    *,
    host,
    definition_id: int,
    mode: str,
    options: dict | None = None,
    previous: Mission | None = None,
):
    """Open a mission at a new table, its host (a Guild Master) in seat 1 (6.4: "after tapping
    the start the game button, they can choose ... training ... standard"). The other players
    join with the table's code or QR code; the host starts the table; the preparation phases
    follow (``missions.rules.setup``).

    The mission definition's snapshot is the table's setup content (``table_setup_set``): the
    ruleset's ``setup`` reads it, never the database.

    ``options``: the demloc table options chosen by the host (seals, bleeding, elimination...;
    ``missions.rules.options.OPTIONS_SCHEMA``), defaults otherwise.

    Returns ``(mission, host_seat)``. Raises ``NotAllowed("login_required")``,
    ``RuleViolation`` ``no_guild`` / ``bad_mode`` / ``bad_option``,
    ``NotFound("mission_not_found")``.
    """
    guild = _guild_of(host)
    definition = _definition(definition_id)
    mode = _mode(mode)
    snapshot = {"mode": mode, "definition": definition.snapshot()}
    table, seat = table_services.table_create(
        ruleset="demloc",
        host=host,
        host_name=guild.name,
        title=f"{definition.name} ({MissionMode(mode).label.lower()})",
        options={k: v for k, v in (options or {}).items() if k not in ("mission", "guilds")},
        setup={"mission": {"id": None, **snapshot}},
    )
    mission = Mission.objects.create(
        table=table, definition=definition, mode=mode, host=host, previous=previous
    )
    # The mission's setup content names its own row: the table's setup reads no database.
    table_services.table_setup_set(table=table, setup={"mission": {"id": mission.pk, **snapshot}})
    return mission, seat


def guild_payload(guild, seat_number: int) -> dict:
    """What ``demloc.setup.guild_bind`` carries: the Guild as it is now (its snapshot turned
    into mission cards), the follower cards of its database, its fate points and when the
    snapshot was taken (``taken_at``, ISO 8601 UTC)."""
    return _payload(guild_services.guild_snapshot(guild), guild, seat_number)


def _payload(snapshot: dict, owner, seat_number: int) -> dict:
    cards = roster_from_snapshot(snapshot)
    database = guild_services.guild_database(owner, "follower")
    return {
        "seat": seat_number,
        "guild": snapshot["guild"],
        "roster": cards["roster"],
        "pantheon": cards["pantheon"],
        "database_followers": [entry.card.pk for entry in database],
        "fate_points": 3,
        "taken_at": timezone.now().isoformat(timespec="seconds"),
    }


def mission_guild_bind(*, table: Table, seat: Seat, user) -> None:
    """Bring the Guild of ``user`` (who holds ``seat``) to the mission at ``table``; when the
    last Guild is in, a standard mission draws its control spot (6.4.1 raffle) from the free
    points and those held by the guilds at the table. Called again for the same seat, it
    brings a fresh snapshot of the Guild (until the seat's Characters step is done): choices
    no longer valid are dropped (``missions.rules.setup``).

    The seat is renamed after the Guild (unless another seat of the table has that name).

    Raises ``NotAllowed`` ``login_required`` / ``not_your_seat``, ``RuleViolation`` ``no_guild``
    / ``nobody_ready`` (a first bind with nobody who can play) and the ruleset's ``guild_bound`` / ``guild_twice`` / ``wrong_phase`` /
    ``characters_done``.
    """
    guild = _guild_of(user)
    if seat.table_id != table.pk or seat.user_id != user.pk:
        raise NotAllowed("not_your_seat", "Join the table with your own account first.")
    payload = guild_payload(guild, seat.number)
    hint = "enlist mercenaries in the Dormitory first and arm them in the Armory"
    to_heal = guild_services.mercenaries_to_heal(guild)
    if to_heal:  # armed but injured: healing is the cure, not enlisting (6.4.1 resolution)
        cures = [f"heal {name} for {feods} feod{'s' if feods != 1 else ''}" for name, feods in to_heal]
        hint = (" or ".join(cures) + " in the Dormitory of your Guild ("
                + reverse("guilds:dormitory") + ")")
    _require_someone_ready(table, seat, payload, hint)
    # The seat is named after the Guild (a fresh user's finding): the table, the log
    # and the battle report name the Guild, not the account.
    payload["seat_name"] = guild.name
    with transaction.atomic():
        table_services.run_command(table, None, Command("demloc.setup.guild_bind", payload))
        clash = table.seats.exclude(pk=seat.pk).filter(name=guild.name).exists()
        if seat.name != guild.name and not clash:
            Seat.objects.filter(pk=seat.pk).update(name=guild.name)
            seat.name = guild.name
            # every phone, this one's header too ("You are ..."), reads the seats again
            table_services.notify_table(table.pk, table.version, lobby=True)
    _raffle_when_all_in(table)


def _require_someone_ready(table: Table, seat: Seat, payload: dict, hint: str) -> None:
    """A Guild's first bind needs at least one character who can play (6.4.1: "equipped
    mercenaries in good health and not on a mission", guesthouse followers): else
    ``RuleViolation("nobody_ready")`` with what to do, and nothing is bound (a Guild
    brought with nobody could only wait at the characters step)."""
    bound = ((table.state or {}).get("setup") or {}).get("guilds") or {}
    if str(seat.number) in bound or any(e.get("ready") for e in payload["roster"]):
        return
    if any(e.get("not_ready_code") == "mercenary_absent" for e in payload["roster"]):
        # 6.4: characters chosen for a mission not closed yet stay frozen there; or exploring.
        hint = ("its characters are away, on another mission that is not closed yet (close "
                "it, or take the Guild out of it) or exploring the city; the Guild's office "
                "says where")
    raise RuleViolation(
        "nobody_ready",
        f"Nobody in {payload['guild']['name']} can play a mission yet: {hint} (an equipped "
        "mercenary in good health, or a follower of the guesthouse; 6.4.1).",
    )


def mission_guest_bind(*, table: Table, seat: Seat, user, guest_guild_id) -> None:
    """A Guild Master at the table brings one of their guest Guilds for a friend without an
    account, who sits in ``seat`` (DemLoc rulebook 4: pre-assembled guild combinations "to
    share the game even with people who do not have DemLoc"; ``guilds.services.guests``). The
    guest Guild plays like any Guild; the close writes nothing for it but its ``played`` and
    ``won`` statistics, and a guest Guild that wins takes no control spot (it holds none).

    Raises ``NotAllowed`` ``login_required`` / ``seat_has_account``, ``NotFound``
    ``not_seated`` / ``no_guild``, ``NotFound("guest_guild_not_found")``,
    ``RuleViolation("nobody_ready")`` and the ruleset's
    ``guild_bound`` / ``wrong_phase`` codes."""
    guild = _guild_of(user)
    if not table.seats.filter(user=user).exists():
        raise NotFound("not_seated", "Take your own seat at this table first.")
    if seat.table_id != table.pk:
        raise NotFound("not_seated", "That seat is not at this table.")
    if seat.user_id is not None:
        raise NotAllowed(
            "seat_has_account", f"{seat.name} plays with their own account: they bring their Guild."
        )
    guest = guild_services.guest_guild_of(guild=guild, guest_id=guest_guild_id)
    snapshot = guild_services.guest_guild_snapshot(guest)
    payload = _payload(snapshot, guild, seat.number)
    _require_someone_ready(table, seat, payload, "give this guest Guild a mercenary first")
    table_services.run_command(table, None, Command("demloc.setup.guild_bind", payload))
    _raffle_when_all_in(table)


def _raffle_when_all_in(table: Table) -> None:
    table.refresh_from_db()
    setup = (table.state or {}).get("setup") or {}
    if (
        setup.get("mode") == MissionMode.STANDARD
        and setup.get("raffle") is None
        and len(setup.get("guilds", {})) == len(setup.get("seats", []))
    ):
        ids = [
            g["guild"]["id"]
            for g in setup["guilds"].values()
            if not guild_services.is_guest_id(g["guild"]["id"])
        ]
        try:
            table_services.run_command(
                table,
                None,
                Command(
                    "demloc.setup.raffle",
                    {"candidates": guild_services.raffle_candidates(guild_ids=ids)},
                ),
            )
        except RuleViolation as exc:  # another phone's bind drew it a moment ago
            if exc.code != "raffle_done":
                raise


def mission_reference(mission_id: int) -> str:
    """How the guilds name a mission (ledger rows, holds): ``"mission:<id>"``."""
    return f"mission:{mission_id}"


def held_choices(setup: dict, state: dict | None = None) -> dict[int, tuple[list[int], int]]:
    """For each Guild bound at the table (by guild id): the ids of the mercenaries it chose
    (contested ones included until settled) and the feods the mission will charge it
    (followers enlisted, offers won, sealed offers not yet settled; 5.1.1, 5.1.2, 6.4.1).
    A Guild that left the mission in play (``state["left"]``, ``missions.rules.leave``) keeps
    held only the mercenaries the close will mark dead or injured (the others came back)."""
    out: dict[int, tuple[list[int], int]] = {}
    left = {str(x) for x in (state or {}).get("left") or []}
    heal = int((setup.get("definition") or {}).get("rewards", {}).get("heal_feods_per_heart", 0))
    for seat_key, bound in (setup.get("guilds") or {}).items():
        guild_id = (bound.get("guild") or {}).get("id")
        if guild_id is None or guild_services.is_guest_id(guild_id):
            continue
        picks = (setup.get("picks") or {}).get(seat_key, [])
        if seat_key in left:
            pieces = (state or {}).get("pieces") or {}
            picks = [
                p
                for p in picks
                if resolution.character_outcome(
                    pieces.get(f"s{seat_key}-{p['id']}") or {"status": "in_play"}, heal
                )["status"]
                in ("dead", "injured")
            ]
        ids = [int(p["ref"]) for p in picks if p["source"] == "mercenary" and p.get("ref")]
        costs = (setup.get("costs") or {}).get(seat_key) or {}
        pending = sum(
            int(c.get("offers", {}).get(seat_key, 0)) for c in setup.get("contests", {}).values()
        )
        feods = int(costs.get("hires", 0)) + int(costs.get("offers", 0)) + pending
        out[guild_id] = (ids, feods)
    return out


def holds_sync(*, table: Table, state: dict) -> None:
    """Make every Guild's hold (``guilds.services.holds``) match the table: a Guild brought to
    a mission not yet closed is held, its chosen mercenaries ``on_mission`` and the feods the
    mission will charge reserved (6.4: the Guild's structure is frozen while it plays); a
    Guild no longer at the table (its bind undone) is released. Called inside the table
    command's transaction (``tabletop.signals.command_applied``): a refusal here (a chosen
    mercenary sent to the city meanwhile, feods spent meanwhile) refuses the command.

    Raises what ``guilds.services.mission_hold_sync`` raises."""
    mission = Mission.objects.filter(table_id=table.pk).first()
    if mission is None or mission.closed_at is not None:
        return
    setup = (state or {}).get("setup") or {}
    reference = mission_reference(mission.pk)
    url = reverse("tabletop:table", args=[table.code])
    title = f"the mission {mission.definition.name} (table {table.code})"
    choices = held_choices(setup, state)
    for guild_id in guild_services.mission_hold_guilds(reference=reference):
        if guild_id not in choices:
            guild_services.mission_hold_release(guild_id=guild_id, reference=reference)
    for guild_id, (ids, feods) in sorted(choices.items()):
        guild_services.mission_hold_bind(
            guild_id=guild_id, reference=reference, title=title, url=url
        )
        guild_services.mission_hold_sync(
            guild_id=guild_id, reference=reference, mercenary_ids=ids, feods=feods
        )


def holds_may_change(events: list) -> bool:
    """Whether a command appending ``events`` may change the Guilds' holds: a preparation
    event, an undo, a redo or a Guild leaving (``on_command_applied``; registered with
    ``tabletop.signals.applied_when``, so every other DemLoc command is written without a
    transaction)."""
    return any(e.type.startswith(SETUP) or e.type in HOLD_EVENTS for e in events)


def on_command_applied(sender, table, state, events, **kwargs) -> None:
    """``tabletop.signals.command_applied`` receiver: after a preparation command (or an undo
    or redo) of a DemLoc table, ``holds_sync``. What it may raise into the command (the hold
    refusals, ``guilds.services.HOLD_CODES``) is declared in ``missions.codes.COMMAND_CODES``."""
    if sender != "demloc":
        return
    if holds_may_change(events):
        holds_sync(table=table, state=state)


def mission_guild_leave(*, table: Table, seat: Seat, user) -> dict:
    """The Guild Master ``user`` (in ``seat``) takes their Guild out of the mission at ``table`` (6.4
    "disconnecting"; the app's rule and its sections: ``missions.rules.leave``). In the
    preparation the Guild is unbound and its hold released (nothing charged). In play every
    character of it still in play escapes; when that ends the mission (at most one player
    left with characters in play) the mission is closed at once (``mission_close``: every
    Guild's result written, every hold released); otherwise its unharmed mercenaries come
    back now and the rest of its hold waits for the close.

    Returns ``{"left": "preparation" | "play", "closed": bool}``. Raises ``NotAllowed``
    ``login_required`` / ``not_your_seat``, ``NotFound`` ``no_guild`` / ``mission_not_found``,
    ``RuleViolation`` ``no_guild_here`` / ``already_left`` / ``mission_over`` /
    ``already_closed``."""
    guild = _guild_of(user)
    mission = Mission.objects.filter(table_id=table.pk).first()
    if mission is None:
        raise NotFound("mission_not_found", "This table has no mission.")
    if mission.closed_at is not None:
        raise RuleViolation("already_closed", "The mission is already closed.")
    if seat.table_id != table.pk or seat.user_id != user.pk:
        raise NotAllowed("not_your_seat", "Only the Guild Master in this seat takes it out.")
    table.refresh_from_db()
    state = table.state or {}
    setup = state.get("setup") or {}
    bound = (setup.get("guilds") or {}).get(str(seat.number)) or {}
    if (bound.get("guild") or {}).get("id") != guild.pk:
        raise RuleViolation("no_guild_here", f"{guild.name} is not at this table.")
    if setup.get("stage") != "play":
        table_services.run_command(
            table, None, Command("demloc.setup.guild_leave", {"seat": seat.number})
        )
        return {"left": "preparation", "closed": False}
    with transaction.atomic():
        table_services.run_command(table, None, Command("demloc.guild.leave", {"seat": seat.number}))
        table.refresh_from_db()
        ended = (table.state or {}).get("ended") is not None
        if ended:
            mission_close(mission_id=mission.pk)
    return {"left": "play", "closed": ended}


def _close_summary(result: dict) -> dict:
    return {
        "winner": result["winner"],
        "winner_name": result["winner_name"],
        "how": result["how"],
        "applies": result["applies"],
        "guilds": [
            {
                **{k: g[k] for k in ("seat", "guild", "fame", "feods", "blood_stones")},
                "guest": guild_services.is_guest_id(g["guild_id"]),
                # Never silently zero: what the purse could not pay is named.
                **{
                    k: (result.get("posted") or {}).get(str(g["guild_id"]), {}).get(k, 0)
                    for k in ("unpaid_feods", "unpaid_blood_stones")
                },
            }
            for g in result["guilds"]
        ],
        "control_point": result["control_point"],
    }


@transaction.atomic
def mission_close(*, mission_id: int) -> dict:
    """Write an ended mission's resolution into the guilds, exactly once (6.4.1 resolution
    phase; 6.4: "only after disconnecting ... the statistics of each Guild will be updated").

    In one transaction: lock the mission row (a second phone closing at the same moment waits
    here, then finds it closed and gets the same result, writing nothing), compute the result
    from the table (``missions.rules.resolution``), then for a standard mission post each
    Guild's fame, feods and blood stones (ledger reference ``mission:<id>``), set each
    killed or injured mercenary's status (dead; injured with its healing cost), move the control
    spot to the winner; in every mode release each Guild's hold (its other chosen mercenaries
    back in the dormitory, its reserved feods free: ``guilds.services.holds``), and finally append the final ``demloc.mission.closed`` event (the table is then
    finished; undo can no longer reopen it). A training mission writes nothing into any Guild.

    Returns the result dict (``resolution.compute`` plus ``"posted"`` and ``"skipped"``).
    Raises ``NotFound("mission_not_found")``, ``RuleViolation("not_ended")``.
    """
    mission = Mission.objects.select_for_update().filter(pk=mission_id).first()
    if mission is None:
        raise NotFound("mission_not_found", "No such mission.")
    if mission.closed_at is not None:
        return mission.result
    table = Table.objects.select_for_update().get(pk=mission.table_id)
    game = get_ruleset(table.ruleset)
    state = game.load(table.state) if table.state else None
    if not state or not state.get("setup") or state.get("ended") is None:
        raise RuleViolation("not_ended", "The mission has not ended yet.")
    result = resolution.compute(state)
    posted, skipped = {}, []
    reference = mission_reference(mission.pk)
    setup = state["setup"]
    guests = {g["seat"] for g in result["guilds"] if guild_services.is_guest_id(g["guild_id"])}
    for g in result["guilds"]:
        if g["seat"] in guests:  # a guest Guild: only its statistics (guilds.services.guests)
            guild_services.guest_guild_played(
                guest_table_id=g["guild_id"], won=g["seat"] == result["winner"]
            )
    point = result["control_point"]
    if point["change"] == "acquired" and guild_services.is_guest_id(point["to"]):
        # A guest Guild holds no control points: the spot stays with its holder.
        result = {**result, "control_point": {**point, "to": None, "change": "stays"}}
    if result["applies"]:
        name = mission.definition.name
        for g in result["guilds"]:
            if g["seat"] in guests:
                continue
            outcome = (
                "won"
                if g["seat"] == result["winner"]
                else "a draw in"
                if result["winner"] is None and result.get("how") == "draw"
                else "played"
            )
            costs = setup["costs"][str(g["seat"])]
            charges = int(costs.get("hires", 0)) + int(costs.get("offers", 0))
            # The charges were reserved while the mission ran (guilds.services.holds): they
            # are posted in full, apart from the rewards and penalties (never clamped to 0).
            posted[str(g["guild_id"])] = guild_services.guild_mission_result_post(
                guild_id=g["guild_id"],
                fame=g["fame"],
                feods=g["feods"] + charges,
                blood_stones=g["blood_stones"],
                charges=charges,
                note=f"{outcome} {name}",
                reference=reference,
                items=g.get("items"),
            )
        for c in result["characters"]:
            # Unharmed and escaped mercenaries come back with the hold's release below.
            if c["status"] not in ("dead", "injured") or c["source"] != "mercenary":
                continue
            if c["seat"] in guests:
                continue
            try:
                guild_services.mercenary_status_set(
                    mercenary_id=c["ref"],
                    status=c["status"],
                    heal_feods=c["heal_feods"],
                    # The Dormitory says "Dead" and what that means itself (6.4.1).
                    note=(
                        f"killed in {name}" if c["status"] == "dead" else f"{name}: {c['needs']}"
                    )[:200],
                )
            except (NotFound, RuleViolation) as exc:  # dismissed or already dead meanwhile
                skipped.append({"name": c["name"], "code": exc.code})
        point = result["control_point"]
        if point["change"] == "acquired":
            guild_services.control_point_transfer(
                point_id=point["point"]["id"],
                to_guild_id=point["to"],
                reason=f"won in the standard mission {name}",
                reference=reference,
            )
    for guild_id in guild_services.mission_hold_guilds(reference=reference):
        guild_services.mission_hold_release(guild_id=guild_id, reference=reference)
    result = {**result, "posted": posted, "skipped": skipped}
    mission.result = result
    mission.closed_at = timezone.now()
    mission.save(update_fields=["result", "closed_at"])
    table_services.run_command(
        table, None, Command("demloc.mission.close", {"result": _close_summary(result)})
    )
    return result


@transaction.atomic
def mission_continue(*, mission_id: int, user, definition_id: int, mode: str) -> Mission:
    """Another mission with the same players (6.4.1: "players can choose whether to face a new
    mission (choosing the training or standard mode)"): a new table with the same accounts in
    the same seats, started, every Guild already brought. Only after the mission is closed;
    any player of the mission may ask. A second request returns the mission already created.

    Raises ``NotFound("mission_not_found")``, ``RuleViolation`` ``not_closed``,
    ``NotAllowed("not_a_player")``.
    """
    old = Mission.objects.select_for_update().filter(pk=mission_id).first()
    if old is None:
        raise NotFound("mission_not_found", "No such mission.")
    if old.closed_at is None:
        raise RuleViolation("not_closed", "Close this mission first.")
    seats = list(old.table.seats.order_by("number"))
    if user is None or not user.is_authenticated or all(s.user_id != user.pk for s in seats):
        raise NotAllowed("not_a_player", "Only a player of this mission can continue it.")
    existing = Mission.objects.filter(previous=old).first()
    if existing is not None:
        return existing
    host = seats[0].user
    kept = {k: v for k, v in old.table.options.items() if k not in ("mission", "guilds")}
    mission, host_seat = mission_open(
        host=host, definition_id=definition_id, mode=mode, options=kept, previous=old
    )
    table = mission.table
    new_seats = [host_seat]
    for s in seats[1:]:
        new_seats.append(table_services.seat_join(table=table, name=s.name, user=s.user))
    table_services.run_command(table, host_seat, Command("table.start"))
    for s in new_seats:
        if s.user is not None:
            mission_guild_bind(table=table, seat=s, user=s.user)
    # The old table's phones are shown the way to the next mission (no new version there).
    table_services.notify_table(old.table_id, old.table.version, lobby=True)
    return mission
