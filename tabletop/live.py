"""The live region's read side: the presenter of a table's live region and its reads.

One module serves the table page, a command's answer and the websocket fan-out
(docs/architecture.md, "The live path"): ``live_context`` builds the context of
``tabletop/table.html#live`` for one seat, resolving the game and loading the stored state
once per table state (kept in the ``shared`` dict a caller holds for all the views of one
state); ``seat_view``, ``log_lines`` and ``table_status_text`` are the reads it uses, also
used by the JSON API and the home page. Nothing here writes: the write path is
``tabletop.services.run_command``.

The region is made of blocks (``tabletop.blocks``): the context carries the cache of the
blocks rendered once per table state and shared by every seat and watcher.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime
from functools import lru_cache

from django.db import connection
from django.http import HttpResponse
from django.template import engines
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.safestring import SafeString

from tabletop import blocks, jsontext
from tabletop.log import LoggedEvent, narrated, recent_lines
from tabletop.models import Event, Seat, Table
from tabletop.registry import event_label, get_ruleset
from tabletop.seats import table_seats

__all__ = [
    "Lazy", "live_context", "page_response", "region_response", "render_region", "live_log_lines", "log_lines", "option_rows", "seat_view",
    "table_shared", "table_status_text", "undo_rule", "undo_why",
]


class Lazy:
    """A context value computed on its first use in a template, then kept: Django's template
    engine calls a callable it finds in a variable lookup. ``value()`` in Python code."""

    __slots__ = ("_fn", "_value", "_done")

    def __init__(self, fn) -> None:
        self._fn, self._value, self._done = fn, None, False

    def __call__(self):
        if not self._done:
            self._value, self._done = self._fn(), True
            self._fn = None
        return self._value

    value = __call__


def _loaded(table: Table, shared: dict | None = None):
    """``(game, state)``: the table's ruleset and its stored projection loaded (None in the
    lobby), once per table state when ``shared`` is given."""
    if shared is not None and shared.get("_loaded_for") is table:
        return shared["_game"], shared["_state"]
    game = get_ruleset(table.ruleset)
    state = game.load(table.state) if table.state is not None else None
    if shared is not None:
        shared.update(_loaded_for=table, _game=game, _state=state)
    return game, state


_VIEWS: OrderedDict[tuple, dict] = OrderedDict()
_VIEWS_LOCK = threading.Lock()
#: Seat views kept per process (the newest states' of the tables played here): a second
#: look-up of a view comes within a command's answer and fan-out, or a sheet opened at the
#: same version; a DemLoc view holds about 38 KB of its own (docs/performance.md "DemLoc at an evening's scale", sitting of
#: 2026-12-07 05:57: 256 were 10 MB a process, found again only in that window).
VIEWS_KEPT = 64
#: Seat views worked out / found already worked out in this process (tests, bench).
view_computes = 0
view_hits = 0


def seat_view(table: Table, seat: Seat | None, shared: dict | None = None,
              live: bool = False) -> dict:
    """The view of ``seat`` (None: spectator) from the stored projection; ``{}`` in the lobby.
    ``shared``: the caller's dict for the views of one table state (the state is loaded once).
    ``live``: the view the live region renders (the game's ``live_view`` when it has one: DemLoc
    leaves out what only a sheet's forms show), else the whole ``Ruleset.view``.

    A view is a pure function of the table's state, which its version and write time name:
    each is worked out once per state, seat and kind in this process and kept (the newest ``VIEWS_KEPT``),
    so the acting phone's answer, the fan-out to every phone and a sheet's forms share it.
    Callers must not change it."""
    global view_computes, view_hits
    key = None
    if table.pk is not None and table.state is not None and table.status != "lobby":
        key = (table.pk, table.version, table.updated_at, table.status,
               seat.number if seat is not None else None, live)
        with _VIEWS_LOCK:
            found = _VIEWS.get(key)
            if found is not None:
                _VIEWS.move_to_end(key)
                view_hits += 1
                return found
    game, state = _loaded(table, shared)
    if state is None:
        return {}
    number = seat.number if seat is not None else None
    view = game.live_view(state, number) if live and hasattr(game, "live_view") else \
        game.view(state, number)
    if key is not None:
        with _VIEWS_LOCK:
            view_computes += 1
            _VIEWS[key] = view
            while len(_VIEWS) > VIEWS_KEPT:
                _VIEWS.popitem(last=False)
    return view


def forget_views() -> None:
    """Drop every kept seat view, live region and table's newest events (tests that compare
    with a fresh computation)."""
    with _VIEWS_LOCK:
        _VIEWS.clear()
        _REGIONS.clear()
        _TAILS.clear()


def table_status_text(table: Table, shared: dict | None = None) -> str:
    """The table's status in words, wherever it is shown (the table page's badge, the home
    page's list of tables): the game's ``status_label(state)`` when it has one and says
    something (DemLoc: "Ended: close to write the results"), else the kit's status ("Lobby",
    "Playing", "Finished")."""
    game, state = _loaded(table, shared)
    label = ""
    if state is not None and hasattr(game, "status_label"):
        label = game.status_label(state)
    return label or str(table.get_status_display())


_LINE_COLUMNS = ("version", "type", "data", "seat", "command_id", "command_type", "final",
                 "created_at")


_TAILS: OrderedDict[int, tuple[int, bool, list[tuple]]] = OrderedDict()
#: Tables whose newest events this process keeps (``_newest_events``' rows: ``(version,
#: whole, rows)``, ``whole`` when the rows are the table's whole log), each at most
#: ``TAIL_LENGTH`` of them (the live region narrates the newest 16).
TAILS_KEPT = 256
TAIL_LENGTH = 16
#: Newest events read by a query / found kept (tests, bench).
event_reads = 0
event_hits = 0


def _newest_events(table_id: int, count: int, version: int | None = None) -> list[tuple]:
    """The newest ``count`` events of a table as ``_LINE_COLUMNS`` tuples, newest first: one
    SQL statement written once, the data as JSON text read by orjson (``tabletop.jsontext``;
    the query set and ``JSONField``'s decoding cost 0.9 ms, this 0.25 ms, a DemLoc table).
    ``version``: the table's version (its newest event's): the rows kept for it in this
    process (``_TAILS``: read once, then carried on by each command's row, ``extend_tail``)
    when they are enough, else read and kept when the newest read is that version."""
    global event_reads, event_hits
    if version is not None:
        with _VIEWS_LOCK:
            kept = _TAILS.get(table_id)
            if kept is not None and kept[0] == version and (kept[1] or len(kept[2]) >= count):
                _TAILS.move_to_end(table_id)
                event_hits += 1
                return kept[2][:count]
    sql = _NEWEST_SQL.get(connection.vendor)
    if sql is None:
        meta = Event._meta
        column = {f.name: f.column for f in meta.concrete_fields}
        quote = connection.ops.quote_name
        names = [quote(column[c]) for c in _LINE_COLUMNS]
        data = _LINE_COLUMNS.index("data")
        names[data] = f"CAST({names[data]} AS TEXT)"
        sql = _NEWEST_SQL[connection.vendor] = (
            f"SELECT {', '.join(names)} FROM {quote(meta.db_table)} "
            f"WHERE {quote(column['table'])} = %s ORDER BY {quote(column['version'])} DESC LIMIT %s")
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id, count])
        rows = cursor.fetchall()
    convert = getattr(connection.ops, "convert_datetimefield_value", None)
    out = []
    for v, t, d, st, c, ct, f, at in rows:
        if isinstance(at, str) and convert is not None:  # SQLite: the text stored
            at = convert(at, None, connection)
        out.append((v, t, jsontext.loads(d) if d is not None else None, st, c, ct, bool(f), at))
    with _VIEWS_LOCK:
        event_reads += 1
        if version is not None and out and out[0][0] == version and count <= TAIL_LENGTH:
            _TAILS[table_id] = (version, len(out) < count, out)
            _TAILS.move_to_end(table_id)
            while len(_TAILS) > TAILS_KEPT:
                _TAILS.popitem(last=False)
    return out


def extend_tail(table_id: int, since: int, version: int, events: list[str],
                at: datetime) -> bool:
    """Carry the newest events kept for a table (``_TAILS``) from version ``since`` on to
    ``version``: ``events`` are what a command appended (its row's, ``services.notify_table``:
    JSON texts, oldest first), written at ``at``. True when the table's rows were kept at
    ``since`` (now at ``version``); else nothing changes (the next read queries)."""
    rows = []
    for text in reversed(events):
        v, t, d, st, c, ct, f = jsontext.loads(text)
        rows.append((v, t, d, st, c, ct, bool(f), at))
    with _VIEWS_LOCK:
        kept = _TAILS.get(table_id)
        if kept is None or kept[0] != since or not rows or rows[0][0] != version:
            return False
        both = rows + kept[2]
        _TAILS[table_id] = (version, kept[1] and len(both) <= TAIL_LENGTH, both[:TAIL_LENGTH])
        _TAILS.move_to_end(table_id)
    return True


#: ``_newest_events``' statement by database vendor, written on first use (its quoting).
_NEWEST_SQL: dict[str, str] = {}


def log_lines(
    table: Table, *, limit: int | None = None, recent: bool = False,
    names: dict[int, str] | None = None, shared: dict | None = None,
) -> list[dict]:
    """The table's log in words, newest first: ``[{"version", "seat", "who", "text",
    "undone", "time"}]``. ``text`` is the game's narration of the event (``Ruleset.narrate``)
    or, when it has none, ``"<who> <label>"``. ``recent``: only the newest ``limit`` events,
    narrated against the current state (cheap, for the live region); otherwise the whole log
    is replayed once and each event narrated against the state just before it (the log page,
    the battle report). Event data never leaves this function (it may hold secrets).
    ``names``: seat number -> name when the caller has the seats (saves a query)."""
    game, state = _loaded(table, shared)
    if names is None:
        names = {s.number: s.name for s in table.seats.all()}
    if recent:
        # the columns a line needs, as plain values: no model instances (the tape is left out:
        # narration never reads it)
        found = _newest_events(table.pk, (limit or 8) * 2, table.version)[::-1]
        logged = [LoggedEvent(version=v, type=t, data=d, seat=st, command_id=c, command_type=ct,
                              final=f) for v, t, d, st, c, ct, f, _ in found]
        times = {row[0]: row[-1] for row in found}
        undone = set((table.meta or {}).get("undone", []))
        lines = recent_lines(game, state if state is not None else game.initial_state(),
                             logged, undone)
    else:
        rows = list(table.events.order_by("-version"))[::-1]
        lines = narrated(game, [e.logged() for e in rows])
        times = {e.version: e.created_at for e in rows}
    out = []
    for line in reversed(lines):
        who = names.get(line.subject, "The table")
        out.append(
            {
                "version": line.version,
                "seat": line.seat,
                "who": who,
                "text": line.text or f"{who} {event_label(game, line.type)}",
                "narrated": line.text is not None,
                "label": event_label(game, line.type),
                "undone": line.undone,
                "time": times.get(line.version),
            }
        )
        if limit and len(out) >= limit:
            break
    return out


def live_context(
    request,
    table: Table,
    seat,
    error=None,
    base_url: str | None = None,
    seat_lost: bool = False,
    seats: list | None = None,
    log_lines=None,
    shared: dict | None = None,
) -> dict:
    """The context of the live region (``tabletop/table.html#live``) for one seat.
    ``request`` may be None (websocket pushes): then ``base_url`` gives scheme and host.
    ``error``: a ``TabletopError`` to show in the region. ``seat_lost``: the phone's seat
    moved away or was revoked (it is told, and now watches). ``seats`` (in number order) and
    ``log_lines`` (a list, or ``live_log_lines``' lazy value): when the caller already has
    them. ``shared``: a dict the caller keeps for all the views of one table state; what is
    the same for every seat is computed once into it (``table_shared``): the game, the loaded
    state, the log lines and the public blocks (``tabletop.blocks``).

    ``log_lines`` and ``option_rows`` are lazy (``Lazy``): a template that never names them
    costs no query and no narration for them."""
    if base_url is None:
        base_url = request.build_absolute_uri("/").rstrip("/")
    if seats is None:
        seats = table_seats(table)
    if shared is None:
        shared = {}
    common = table_shared(table, seats, shared, log_lines)
    game = common["game"]
    return {
        **common,
        "seat": seat,
        "seats": seats,
        "view": seat_view(table, seat, shared, live=True),
        "can_start": seat is not None and seat.number == 0 and len(seats) >= game.min_seats,
        "error": error,
        "join_url": base_url + common["join_path"],
        "seat_lost": seat_lost,
    }


def table_shared(table: Table, seats: list, shared: dict, log_lines=None) -> dict:
    """The part of the live region's context that is the same for every phone of ``table`` at
    its current state (computed once into ``shared``, which the caller keeps for the views of
    one state): game, URLs, undo/redo, options, the newest log lines (lazy), and
    ``live_blocks``, the public blocks rendered at this state (``tabletop.blocks``)."""
    if shared.get("table") is table:
        return shared
    shared.clear()
    game, _state = _loaded(table, shared)
    meta = table.meta or {}
    if log_lines is None:
        log_lines = live_log_lines(table, seats, shared)
    # The URLconf and script prefix of this thread, read once a state (each read is a
    # context-local look-up): the region's URLs and each card's forms URL are reversed for them.
    url_env = (get_urlconf(), get_script_prefix())
    shared.update({
        "table": table,
        "game": game,
        **_table_urls(table.code, *url_env),
        "url_env": url_env,
        "can_undo": bool(meta.get("undo")),
        "can_redo": bool(meta.get("redo")),
        # The game is over (any finished table: a card game's, the counter's, a quick DemLoc
        # game's): an Undo that can still take its end back asks for a second tap
        # (tabletop/jinja2/tabletop/live/bottom-bar.html; docs/playing.md).
        "over": table.status == Table.Status.FINISHED,
        # Why Undo is greyed, in a few words on the button itself (a greyed control says why).
        "undo_why": "" if meta.get("undo") else undo_why(table, meta, game),
        # What an enabled Undo takes back, in a word or two on the button.
        "undo_what": undo_what(meta, game),
        "final_commands": sorted(game.final_commands),
        "option_rows": Lazy(lambda: option_rows(game, table.options, table.setup)),
        # The latest lines of the log, narrated from events (the projection holds no prose).
        "log_lines": log_lines,
        "undo_rule": undo_rule(game),
        # The status badge's words: the home page's list says the same (one function).
        "status_text": table_status_text(table, shared),
        "live_blocks": blocks.public_blocks(table),
    })
    return shared


@lru_cache(maxsize=1024)
def _table_urls(code: str, urlconf, prefix: str) -> dict:
    """The live region's URLs of the table ``code``, reversed once per table, URLconf and
    script prefix in this process (every state of every table asked for them again)."""
    return {
        "command_url": reverse("tabletop:command", args=[code], urlconf=urlconf),
        "join_path": reverse("tabletop:join", args=[code], urlconf=urlconf),
        "log_url": reverse("tabletop:log", args=[code], urlconf=urlconf),
        "seats_url": reverse("tabletop:seats", args=[code], urlconf=urlconf),
    }


def live_log_lines(table: Table, seats: list | None = None, shared: dict | None = None) -> Lazy:
    """The latest lines of the log shown in the live region (the same for every seat), lazy
    (``Lazy``: read and narrated on first use, once per table state in this process when
    ``seats`` is given); ``seats``: the table's seats when known (their names; saves a
    query)."""
    if table.state is None:
        return Lazy(list)
    names = {s.number: s.name for s in seats} if seats is not None else None
    if names is None or table.pk is None:
        return Lazy(lambda: log_lines(table, limit=8, recent=True, names=names, shared=shared))
    key = ("log", table.pk, table.version, table.updated_at, tuple(names.items()))

    def kept() -> list[dict]:
        # the same lines for every phone of this state in this process (``seat_view``'s memory)
        with _VIEWS_LOCK:
            found = _VIEWS.get(key)
        if found is not None:
            return found
        lines = log_lines(table, limit=8, recent=True, names=names, shared=shared)
        with _VIEWS_LOCK:
            _VIEWS[key] = lines
            while len(_VIEWS) > VIEWS_KEPT:
                _VIEWS.popitem(last=False)
        return lines

    return Lazy(kept)


def undo_why(table: Table, meta: dict, game=None) -> str:
    """Why nothing can be undone at ``table`` now (its undo list is empty), in a few words for
    the greyed Undo button (docs/architecture.md "The event-sourced table"): ``"all undone"`` when Redo holds what
    was undone; when the last action showed hidden information (a barrier: its events are
    final), what it showed, as ``game``'s ``Ruleset.final_words`` names the event type (the
    Realm's ``"card drawn"``), else ``"cards shown"``; ``"game over"`` once the table is
    finished (its closing events are final: a closed DemLoc mission is not "cards shown"),
    else ``"nothing yet"`` (the game just started)."""
    if table.status == Table.Status.FINISHED:
        return "game over"
    if meta.get("redo"):
        return "all undone"
    last = (
        Event.objects.filter(table=table)
        .exclude(command_type__in=("table.undo", "table.redo"))
        .order_by("-version")
        .values_list("command_id", flat=True)
        .first()
    )
    shown = (
        Event.objects.filter(table=table, version__gte=last, command_id=last, final=True)
        .order_by("-version")
        .values_list("type", flat=True)
        .first()
        if last is not None
        else None
    )
    if shown is None:
        return "nothing yet"
    return (getattr(game, "final_words", None) or {}).get(shown, "cards shown")


def undo_what(meta: dict, game=None) -> str:
    """What Undo takes back now (the newest command of the undo list), in a word or two for
    the enabled Undo button: ``game``'s ``Ruleset.undo_words`` for its command type, else the
    type said by its name (``"demloc.fate.gain"`` -> ``"fate gain"``); ``""`` when the undo
    list is empty (``undo_why`` says why). Read from the table's undo bookkeeping
    (``tabletop.log.Meta.commands``: no query)."""
    undo = meta.get("undo") or []
    if not undo:
        return ""
    entry = (meta.get("commands") or {}).get(str(undo[-1])) or [None, ""]
    kind = entry[1] if len(entry) > 1 else ""
    if not kind:
        return ""
    words = (getattr(game, "undo_words", None) or {}).get(kind)
    return words or " ".join(kind.split(".")[1:]).replace("_", " ")


def undo_rule(game) -> str:
    """Who may undo what at this game's tables, in one sentence for the page (KIT.md)."""
    if getattr(game, "undo_own_only", False):
        return "Undo takes back only your own last action; the others' are theirs to undo."
    return "Undo takes back the last action of anyone at the table."


def option_rows(game, chosen: dict, setup: dict | None = None) -> list[dict]:
    """The visible table options with their current value and its label, for the lobby. An
    option the table's content fixes (the game's ``fixed_options(setup)``: e.g. a DemLoc
    mission's own turn limit) is left out: the game shows it with its content."""
    fixed = game.fixed_options(setup or {}) if hasattr(game, "fixed_options") else set()
    rows = []
    for key, spec in (getattr(game, "options_schema", {}) or {}).items():
        if spec.get("hidden") or not spec.get("choices") or key in fixed:
            continue
        value = chosen.get(key, spec.get("default"))
        labels = {str(v): text for v, text in spec["choices"]}
        rows.append({"key": key, "label": spec.get("label", key), "choices": spec["choices"],
                     "value": value, "value_label": labels.get(str(value), value),
                     "help": spec.get("help", "")})
    return rows


_REGIONS: OrderedDict[tuple, blocks.Frame] = OrderedDict()
#: Live regions kept per process for a second render of the same view (``render_region``'s
#: ``keep``: the acting phone's answer and its fan-out; about 65 KB each).
REGIONS_KEPT = 32
#: Live regions rendered / found already rendered by ``render_region`` (tests, bench).
region_renders = 0
region_hits = 0


def _region_key(context: dict) -> tuple | None:
    """What a live region rendered from ``context`` depends on: the table's state (id,
    version, write time, status), the seat, the join link's host, whether the seat was lost
    and the seats; None when it is not to be kept (the lobby, a refusal shown in it)."""
    table = context.get("table")
    if (context.get("error") is not None or table is None or table.pk is None
            or table.status == "lobby" or table.state is None):
        return None
    seat = context.get("seat")
    return (
        table.pk, table.version, table.updated_at, table.status,
        (seat.pk, seat.nonce, seat.number, seat.name) if seat is not None else None,
        context.get("join_url"), context.get("seat_lost"),
        tuple((s.pk, s.nonce, s.number, s.name, s.user_id) for s in context.get("seats") or ()),
    )


def render_region(context: dict, request=None, reuse: bool = False,
                  keep: bool | None = None):
    """The live region rendered from ``live_context``'s ``context``: a ``tabletop.blocks.Frame``
    (the HTML to send, and its blocks for the fan-out's frames). ``reuse``: a render of the
    same table state and view kept in this process (``_region_key``) is the answer, taken out
    of the keeping (the acting phone's answer after its command and the fan-out of a new
    version share one render, whichever comes first). Only those two reuse: a region also
    shows what is not in the table's state (the next mission of a closed one), changed without
    a new version, so every other render (a lobby-type update, a phone connecting or fetching)
    is fresh. ``keep`` (``reuse`` unless said): keep this render for that one other render
    (the newest ``REGIONS_KEPT``); the fan-out keeps only the acting seat's
    (``tabletop.fanout.render_views``): a region is about 65 KB, and one kept for a view no
    second render asks for (a phone connecting, the other seats' frames) is memory held for
    nothing (docs/performance.md "DemLoc at an evening's scale", sitting of 2026-12-07 05:57)."""
    global region_renders, region_hits
    key = _region_key(context)
    if key is not None and reuse:
        with _VIEWS_LOCK:
            found = _REGIONS.pop(key, None)
            if found is not None:
                region_hits += 1
                return found
    sink: list = []  # the blocks, collected as they are rendered (tabletop.blocks.collect)
    region = blocks.assemble(render_live({**context, blocks.SINK: sink}, request), sink)
    if region is None:  # a slot that is no block's (never seen): the markers' way
        region = blocks.frame(render_live(context, request))
    if key is not None:
        with _VIEWS_LOCK:
            region_renders += 1
            if reuse if keep is None else keep:
                _REGIONS[key] = region
                while len(_REGIONS) > REGIONS_KEPT:
                    _REGIONS.popitem(last=False)
    return region


def render_live(context: dict, request=None) -> str:
    """The live region (with its blocks' markers) from ``live_context``'s ``context``, by the
    kit's Jinja2 template ``tabletop/live.html`` (``tabletop.jinja``): in the lobby it includes
    the Django partial ``tabletop/table.html#lobby``; past it, the game's ``template`` and
    ``bar_template``, Jinja2 ones when the ruleset says ``jinja_live`` (DemLoc's), else Django
    ones included in the same context. ``request``: the request whose command is answered
    (a game's template may read ``request.POST``); None for the fan-out."""
    if request is not None:
        context = {**context, "request": request}
    return engines["jinja2"].env.get_template("tabletop/live.html").render(context)


def region_response(request, context: dict, status: int = 200,
                    reuse: bool = False) -> HttpResponse:
    """An HTTP answer with the live region (a command's answer, a phone fetching it);
    ``reuse``: as ``render_region``'s."""
    return HttpResponse(render_region(context, request, reuse=reuse), status=status)


def page_response(request, context: dict) -> HttpResponse:
    """The whole table page (``tabletop/table.html``) with the live region in it
    (``render_region``: the region a phone's fetch gets)."""
    context["live_region"] = SafeString(render_region(context, request))
    return HttpResponse(blocks.strip(render_to_string("tabletop/table.html", context, request)))
