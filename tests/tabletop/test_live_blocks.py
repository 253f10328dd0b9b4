"""The live region in blocks (tabletop/blocks.py; docs/architecture.md, "The live region"):
after each command of random playouts of every game, each phone's page assembled from the
frames it was sent (whole regions and block deltas, applied as htmx applies out-of-band swaps:
by element id, only on the version the delta starts from) equals a fresh render of its view;
a public block is byte for byte the same for every seat (one rendering for the seats, one for
the watchers) and holds no other seat's secret."""

import copy
import random
import re
from datetime import timedelta
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest
from django.http import HttpResponse
from django.template import engines
from django.test import Client

from missions import jinja as missions_jinja
from tabletop import blocks, services
from tabletop import live as live_reads
from tabletop.errors import TabletopError
from tabletop.live import live_context, render_live, render_region
from tabletop.models import Table
from tabletop.registry import all_rulesets, get_ruleset
from tabletop.rules import Command
from tabletop.seats import remember_seat
from tests.missions.hidden import hide_from
from tests.missions.random_missions import walk

BASE_URL = "http://127.0.0.1"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class _TopLevel(HTMLParser):
    """The top-level elements of an HTML fragment, as ``(id, outer html)``: what htmx's
    websocket extension swaps out of band, one by one."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text, self.depth, self.start, self.found = text, 0, 0, []
        self.lines = [0] + [m.end() for m in re.finditer("\n", text)]

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag, attrs):
        here = self._offset()
        if self.depth == 0:
            self.start, self.element_id = here, dict(attrs).get("id")
        if tag in VOID:
            if self.depth == 0:
                self._close(here + len(self.get_starttag_text()))
            return
        self.depth += 1

    def handle_startendtag(self, tag, attrs):
        if self.depth == 0:
            here = self._offset()
            self.element_id = dict(attrs).get("id")
            self.start = here
            self._close(here + len(self.get_starttag_text()))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        self.depth -= 1
        if self.depth == 0:
            here = self._offset()
            self._close(self.text.index(">", here) + 1)

    def _close(self, end: int) -> None:
        self.found.append((self.element_id, self.text[self.start:end]))


def top_level(fragment: str) -> list[tuple[str | None, str]]:
    parser = _TopLevel(fragment)
    parser.feed(fragment)
    parser.close()
    return parser.found


class Phone:
    """A page's live region as frames leave it: a whole region replaces it; a delta swaps its
    elements in by id, only when the page shows the version the delta starts from."""

    def __init__(self) -> None:
        self.region: blocks.Frame | None = None
        self.version = -1
        self.swapped: dict[str, str] = {}
        self.fetched = 0

    def receive(self, message: str, region: blocks.Frame) -> None:
        header = blocks.DELTA.match(message)
        if header is None:
            assert message.lstrip().startswith('<section id="live"')
            self.region, self.swapped = region, {}
            self.version = int(re.search(r'data-version="(\d+)"', message).group(1))
            assert message == str(region)
            return
        start, to = int(header.group(1)), int(header.group(2))
        if start != self.version:  # frontend/app.js: dropped; the page fetches the region
            self.fetched += 1
            return
        ids = {bid for bid, _, _ in self.region.blocks}
        for element_id, html in top_level(message[header.end():]):
            assert element_id in ids, f"a delta's element without a target: {element_id}"
            self.swapped[element_id] = html
        self.version = to

    def page(self) -> str:
        """The region as the phone shows it now."""
        out = str(self.region)
        for bid, html, _ in self.region.blocks:
            if bid in self.swapped:
                out = out.replace(html, self.swapped[bid], 1)
        return re.sub(r'data-version="\d+"', f'data-version="{self.version}"', out, count=1)


def secrets_of(table: Table, seat) -> list[str]:
    """Markers of what only ``seat`` may see, where a test can name it: the counter's secret
    number, and the cards of a card game's hand (Realm, Personal Demons: each hand card is
    shown with ``data-card="<id>"``, its id unique in the game), as its page shows them."""
    if table.ruleset == "counter" and table.state:
        return [f'id="secret">{table.state["secrets"][str(seat.number)]}<']
    if table.ruleset in ("realm", "personal_demons") and table.state:
        me = live_reads.seat_view(table, seat).get("me") or {}
        return [f'data-card="{c["id"]}"' for c in me.get("hand") or []]
    return []


def fresh(table: Table, seat, seats) -> str:
    """The live region of ``seat``'s view rendered from nothing kept (no public block, no
    character card of an earlier render)."""
    blocks.forget_public_blocks()
    missions_jinja.forget_cards()
    live_reads.forget_views()
    context = live_context(None, table, seat, base_url=BASE_URL, seats=seats)
    region = render_region(context)
    # the region's blocks are collected as they are rendered (tabletop.blocks.collect): the
    # same Frame, byte for byte, as the render with markers cut into blocks (blocks.frame)
    marked = blocks.frame(render_live(context))
    assert (str(region), region.blocks, region.skeleton) == (
        str(marked), marked.blocks, marked.skeleton), (table.ruleset, table.version)
    return str(region)


class Phones:
    """Every seat's phone and a watcher's at ``table``, each sent the frames the fan-out
    renders (``fan_out``) and checked against a fresh render of its view; ``figures`` counts
    the frames, their bytes and the secrets seen on their own seats' pages."""

    def __init__(self, table: Table, seats: list) -> None:
        self.table, self.seats = table, seats
        self.views = {("w",): (None, BASE_URL), **{(s.pk,): (s, BASE_URL) for s in seats}}
        self.phones = {key: Phone() for key in self.views}
        self.shown: dict = {key: None for key in self.views}
        self.figures = {"commands": 0, "deltas": 0, "whole": 0, "delta_bytes": 0,
                        "whole_bytes": 0, "secrets_shown": 0}

    def fan_out(self, first: bool) -> dict:
        """Render every view of the table as it is now, send each phone its frame (whole the
        first time, else the delta from what it shows), and check every page and public
        block; ``{(block id, "seat" or "watch"): html}``, the public blocks."""
        views, figures, shown = self.views, self.figures, self.shown
        current = Table.objects.get(pk=self.table.pk)
        seat_rows = list(current.seats.order_by("number"))
        shared: dict = {}  # as tabletop.fanout.render_views: one per table state
        frames = {key: render_region(live_context(None, current, seat, base_url=url,
                                                  seats=seat_rows, shared=shared))
                  for key, (seat, url) in views.items()}
        by_block: dict[tuple, set] = {}
        for key, region in frames.items():
            message = None if first else blocks.delta(shown[key], current.version, region)
            shown[key] = blocks.shown(current.version, region)
            figures["deltas" if message else "whole"] += 1
            figures["delta_bytes" if message else "whole_bytes"] += len(message or region)
            self.phones[key].receive(message or str(region), region)
            for bid, html, public in region.blocks:
                if public:  # one rendering for the seats, one for the watchers
                    audience = "watch" if views[key][0] is None else "seat"
                    by_block.setdefault((bid, audience), set()).add(html)
        for key, (seat, _) in views.items():
            expected = fresh(current, seat, seat_rows)
            assert self.phones[key].page() == expected, (current.ruleset, key, current.version)
            if seat is not None:  # the markers are real: the seat's own page shows them
                figures["secrets_shown"] += sum(s in expected for s in secrets_of(current, seat))
        for (bid, audience), variants in by_block.items():
            assert len(variants) == 1, f"public block {bid} differs between {audience} views"
            # a secret of one seat in it would be on every other seat's page too
            for seat, _ in views.values():
                if seat is not None:
                    for other in self.seats:
                        if other.pk != seat.pk:
                            assert all(s not in next(iter(variants))
                                       for s in secrets_of(current, other)), (bid, other.number)
        return {where: next(iter(variants)) for where, variants in by_block.items()}


def play(make_table, name: str, seed: int, commands: int, taps=None) -> dict:
    """Random playout of ``name`` (or ``taps(view, n) -> Command`` for the seat whose turn it
    is to tap), checking every phone after each command (``Phones``); the frames' figures."""
    game = get_ruleset(name)
    players = max(4 if name == "demloc" else 2, game.min_seats)
    players = min(players, game.max_seats)
    table, seats = make_table(name, players=players)
    phones = Phones(table, seats)
    rnd = random.Random(seed)
    phones.fan_out(first=True)
    for n in range(commands):
        table.refresh_from_db()
        seat = seats[n % len(seats)] if taps else rnd.choice(seats)
        view = live_reads.seat_view(table, seat)
        moves = [taps(view, n // len(seats))] if taps else game.moves(view, seat.number)
        if not moves:
            continue
        try:
            services.run_command(table, seat, rnd.choice(moves))
        except TabletopError:
            continue
        phones.figures["commands"] += 1
        phones.fan_out(first=False)
    return phones.figures


@pytest.mark.django_db
@pytest.mark.parametrize("name", [g.name for g in all_rulesets()])
def test_every_phone_assembled_from_its_frames_shows_a_fresh_render(make_table, name):
    figures = play(make_table, name, seed=3, commands=16)
    assert figures["commands"] >= 1
    if name in ("counter", "realm", "personal_demons"):
        # the secrets checked against every public block were on their own seats' pages
        assert figures["secrets_shown"] > 0


def public_blocks_with_every_secret_changed(table: Table, seat) -> dict:
    """``{(block id, "seat" or "watch"): html}``: the public blocks of ``seat``'s live region
    (None: a watcher) rendered from ``table``'s state with every secret changed
    (``tests.missions.hidden.hide_from`` with no seat: another Guild's purse, dormitory and
    sealed offers, a hidden turn limit, the mission events to come), nothing kept."""
    row = copy.copy(table)
    row.state = hide_from(copy.deepcopy(table.state), None)
    # a write time of its own: nothing kept for the real state is reused
    row.updated_at = table.updated_at + timedelta(days=1)
    blocks.forget_public_blocks()
    missions_jinja.forget_cards()
    live_reads.forget_views()
    region = render_region(live_context(None, row, seat, base_url=BASE_URL))
    audience = "watch" if seat is None else "seat"
    return {(bid, audience): html for bid, html, public in region.blocks if public}


@pytest.mark.django_db
@pytest.mark.parametrize("seed, players, options", [
    (21, 2, {"turn_limit": "3"}),
    (22, 3, {"turn_limit": "3", "control": "anyone"}),  # every card editable by every seat
    (25, 2, {"turn_limit": "3", "free_possessed": "penalty", "hand_test": "penalty"}),
    (24, 4, {}),
])
def test_every_demloc_phone_shows_a_fresh_render_and_its_public_blocks_no_secret(
        make_table, seed, players, options):
    """Random DemLoc missions (the players choose among the commands their pages offer, DemLoc
    6.4.2; through preparation into play), with the table options that change the region:
    after each command every seat's page and a watcher's, assembled from the frames each was
    sent, is a fresh render of its view; each public block is the same bytes for every seat
    (and for every watcher), and the same bytes again when every secret of the state is
    changed (it would otherwise show a secret to every phone)."""
    table, seats = make_table("demloc", players=players, options=options)
    phones = Phones(table, seats)
    compared = played = 0
    for step, now in walk(table, seats, seed, 60):
        public = phones.fan_out(first=step == 0)
        played = step
        if now.status == Table.Status.LOBBY:
            continue
        for seat in (seats[step % len(seats)], None):
            for where, html in public_blocks_with_every_secret_changed(now, seat).items():
                assert public.get(where) == html, (where, now.version)
                compared += 1
    assert played >= 20 and compared >= 20, (played, compared)


def own_piece_tap(view: dict, n: int) -> Command:
    """A phone's tap on its own character, the mix of an evening (bench/live.py --game demloc,
    without the shot): damage on and off, a bleeding token on and off, a fate point gained and
    spent."""
    piece = next(p for p in view["my_pieces"] if p["status"] == "in_play")["id"]
    return [
        Command("demloc.damage.assign", {"piece": piece, "amount": 1, "mode": "general"}),
        Command("demloc.damage.remove", {"piece": piece, "amount": 1, "step": "armor"}),
        Command("demloc.tokens.adjust", {"piece": piece, "token": "bleeding", "delta": 1}),
        Command("demloc.tokens.adjust", {"piece": piece, "token": "bleeding", "delta": -1}),
        Command("demloc.fate.gain", {"amount": 1, "reason": "the game"}),
        Command("demloc.fate.spend", {"amount": 1, "reason": "an ability"}),
    ][n % 6]


@pytest.mark.django_db
def test_a_demloc_tap_sends_a_fraction_of_the_region(make_table):
    """After a tap on one's own character, each phone is sent the blocks that changed: on
    average at most a fifth of the whole region."""
    figures = play(make_table, "demloc", seed=5, commands=24, taps=own_piece_tap)
    assert figures["commands"] == 24
    mean_delta = figures["delta_bytes"] / figures["deltas"]
    mean_whole = figures["whole_bytes"] / figures["whole"]
    assert figures["whole"] == 5  # the first frame of each phone only
    assert mean_delta * 5 <= mean_whole, figures


#: What only a DemLoc sheet's forms send (missions/_piece_acts.html, _piece_end.html).
SHEET_FORMS = ("demloc.brawl.propose", "demloc.hand.test", "demloc.effect.set",
               "demloc.possession.assign", "Fate (of ")


def phone_of(seat) -> Client:
    """A phone holding ``seat`` in its seat cookie (``tabletop.seats.remember_seat``)."""
    response = HttpResponse()
    remember_seat(response, seat)
    phone = Client()
    for name, morsel in response.cookies.items():
        phone.cookies[name] = morsel.value
    return phone


@pytest.mark.django_db
def test_a_demloc_frame_after_a_tap_carries_no_forms_of_closed_sheets_and_a_sheet_serves_them(
    make_table,
):
    """The cards of the live region leave their sheets' forms out (docs/architecture.md, "The
    live region"): neither the whole region nor the frame after a fate point carries them
    (the fate point changes no card: every form that offered fate changed with it before),
    and the sheet's URL (``data-forms``) serves its forms with the fate offered now."""
    table, seats = make_table("demloc", players=2)
    views = {s.pk: (s, BASE_URL) for s in seats}
    before = {k: render_region(live_context(None, table, s, base_url=u)) for k, (s, u) in views.items()}
    services.run_command(table, seats[0], Command("demloc.fate.gain", {"amount": 1, "reason": "x"}))
    table.refresh_from_db()
    fate = next(p["fate"] for p in table.state["players"] if p["seat"] == 0)
    for key, (seat, url) in views.items():
        region = render_region(live_context(None, table, seat, base_url=url))
        frame = blocks.delta(blocks.shown(table.version - 1, before[key]), table.version, region)
        assert frame is not None and frame.startswith("<!--delta ")
        for text in (str(region), frame):
            assert not [f for f in SHEET_FORMS if f in text], (seat.number, text[:200])
        assert 'id="piece-' not in frame  # no card changed with the fate point
        assert "data-forms=" in str(region)
    region = render_region(live_context(None, table, seats[0], base_url=BASE_URL))
    url = re.search(r'id="piece-(s0-[^"]+)"[^>]*data-forms="([^"]+)"', str(region)).group(2)
    sheet = phone_of(seats[0]).get(url)
    assert sheet.status_code == 200
    html = sheet.content.decode()
    assert all(f in html for f in SHEET_FORMS[:4]) and f"Fate (of {fate})" in html
    missing = phone_of(seats[0]).get(url.replace("/s0-", "/s9-"))
    assert missing.status_code == 404
    assert 'data-code="piece_not_found"' in missing.content.decode()


def fan_out_renders(table, seats) -> tuple[dict, int, int]:
    """One fan-out of ``table``'s current state to every seat and a watcher, as
    ``tabletop.fanout.render_views`` renders it: ``({view: region}, blocks rendered from their
    inputs, blocks found already rendered)``."""
    table.refresh_from_db()
    shared: dict = {}
    renders, hits = blocks.input_renders, blocks.input_hits
    regions = {
        s.number if s is not None else "w": render_region(
            live_context(None, table, s, base_url=BASE_URL, seats=seats, shared=shared))
        for s in [*seats, None]
    }
    return regions, blocks.input_renders - renders, blocks.input_hits - hits


@pytest.mark.django_db
def test_a_demloc_tap_renders_only_the_blocks_whose_inputs_changed(make_table):
    """A bleeding token on one character changes its card, the log and the turn notes' newest
    line: every other block with declared inputs (each seat's turn bar, players panel, notice
    and pending slots, bottom bar, head) is the bytes already rendered at the last version, and
    the turn notes, the same for every seat with nothing of its own in them, are rendered once
    for all the views (docs/architecture.md, "The live region")."""
    table, seats = make_table("demloc", players=4)
    piece = live_reads.seat_view(table, seats[2])["my_pieces"][0]["id"]
    services.run_command(table, seats[2], Command(
        "demloc.tokens.adjust", {"piece": piece, "token": "bleeding", "delta": 1}))
    blocks.forget_public_blocks()
    first, rendered, _ = fan_out_renders(table, seats)
    declared = rendered
    assert declared >= 5 * 4  # head, turn bar, notes, slots, players panel, bar: per view
    services.run_command(table, seats[2], Command(
        "demloc.tokens.adjust", {"piece": piece, "token": "bleeding", "delta": -1}))
    after, rendered, kept = fan_out_renders(table, seats)
    assert rendered == 1, rendered  # dl-turn-notes, once: its newest log line
    assert kept >= declared - 5
    for key, region in after.items():
        ids = {bid for bid, _, _ in region.blocks}
        changed = {bid for bid, html, _ in region.blocks
                   if dict((b, h) for b, h, _ in first[key].blocks).get(bid) != html}
        assert changed == {"dl-turn-notes", "dl-log", f"piece-{piece}"}, (key, changed)
        assert "dl-turn" in ids and "dl-players" in ids


@pytest.mark.django_db
def test_a_fate_point_renders_the_turn_bar_and_players_panel_again(make_table):
    """A fate point shows in the acting seat's turn bar (its own fate) and in every view's
    players panel: those are rendered again, once per distinct input; the other seats' turn
    bars are the bytes already rendered."""
    table, seats = make_table("demloc", players=4)
    gain = Command("demloc.fate.gain", {"amount": 1, "reason": "the game"})
    services.run_command(table, seats[1], gain)  # Undo is offered from now on
    blocks.forget_public_blocks()
    fan_out_renders(table, seats)
    services.run_command(table, seats[1], gain)
    after, rendered, _ = fan_out_renders(table, seats)
    # seat 1's turn bar; 5 players panels (each seat's own +1 button, the watcher's none);
    # the turn notes' newest line says what it said (the same tap again); no bottom bar
    assert rendered == 1 + 5, rendered
    fate = {p["seat"]: p["fate"] for p in table.state["players"]}
    assert f'id="dl-my-fate" title="your fate points">your fate {fate[1]}<' in str(after[1])
    assert f'id="dl-fate-1">fate {fate[1]}<' in str(after[0])


def test_a_block_that_reads_what_it_did_not_declare_is_caught():
    """``CHECK_INPUTS`` (on in every test): a block reading a name or a field its inputs
    leave out renders differently in the whole context (each input's name holding the
    context's value of that name: the value it was picked from), and the render raises."""
    from jinja2 import DictLoader

    env = engines["jinja2"].env.overlay(loader=DictLoader({
        "good.html": '<p id="b">{{ v.a }}</p>',
        "bad.html": '<p id="b">{{ v.a }}{{ view.b }}</p>',
        "picked.html": '<p id="b">{{ view.a }}{{ view.b }}</p>',
    }))
    assert blocks.CHECK_INPUTS
    table = SimpleNamespace(pk=10**9)  # a table's blocks are kept: the check runs on a hit too
    context = {"view": {"a": 1, "b": 2}, "table": table, "live_blocks": {}}
    good = env.from_string('{{ inputs_block("good.html", v=view|pick("a")) }}')
    assert '<p id="b">1</p>' in good.render(context)
    assert '<p id="b">1</p>' in good.render(context)
    bad = env.from_string('{{ inputs_block("bad.html", v=view|pick("a")) }}')
    with pytest.raises(blocks.InputsLeftOut, match="reads what its inputs leave out"):
        bad.render(context)
    picked = env.from_string('{{ inputs_block("picked.html", view=view|pick("a")) }}')
    with pytest.raises(blocks.InputsLeftOut, match="reads what its inputs leave out"):
        picked.render(context)


def test_pick_keeps_the_named_fields_and_leaves_out_the_missing_ones():
    pick = blocks.pick

    view = {"a": 1, "b": {"x": 1, "y": 2}, "c": [{"x": 1, "z": 3}, {"x": 2}], "d": None}
    assert pick(view, "a c[x] e d") == {"a": 1, "c": [{"x": 1}, {"x": 2}], "d": None}
    assert pick(view, "b[y]") == {"b": {"y": 2}}
    assert pick([view, view], "a") == [{"a": 1}, {"a": 1}]
    assert pick(None, "a") is None and pick({}, "a") == {} and pick("", "a") == ""
    # A field named twice would keep only the second's fields (a block that read options[a]
    # and options[b] lost a): refused, the way to write it named.
    assert pick(view, "b[x,y]") == {"b": {"x": 1, "y": 2}}
    with pytest.raises(ValueError, match=r"'b' is named twice .* b\[a,b\]"):
        pick(view, "b[x] b[y]")


def test_a_fingerprint_tells_apart_what_renders_differently():
    """Equal inputs give equal bytes; a safe string, a plain one and a date are told apart; a
    value it cannot serialise exactly is refused (the block is then rendered every time)."""
    import datetime

    from django.utils.safestring import mark_safe

    assert blocks.fingerprint(({"a": [1, "x"]},)) == blocks.fingerprint(({"a": [1, "x"]},))
    assert blocks.fingerprint(("<b>",)) != blocks.fingerprint((mark_safe("<b>"),))
    assert blocks.fingerprint((1,)) != blocks.fingerprint((True,))
    day = datetime.date(2026, 12, 5)
    assert blocks.fingerprint((day,)) != blocks.fingerprint(("2026-12-05",))
    with pytest.raises(blocks.Uncacheable):
        blocks.fingerprint((object(),))


def test_collected_blocks_assemble_to_the_marker_cut_frame_and_a_stray_slot_refuses():
    """``blocks.collect`` + ``assemble`` give the same ``Frame`` as cutting a marked render
    (``blocks.frame``): the same text, blocks and skeleton; white space around a block stays in
    the skeleton. A slot that is no block's (``"\\0"`` in the render) makes ``assemble`` answer
    None, and ``tabletop.live.render_region`` then renders with markers."""
    card = '<div id="p-1">Korr</div>'
    turn = '<p id="turn">Turn 2</p>'
    sink: list = []
    skeleton = ('<main data-version="7">' + blocks.collect(sink, "\n  " + card + "\n", True)
                + "<hr>" + blocks.collect(sink, turn, False) + "</main>")
    marked = ('<main data-version="7">' + blocks.OPEN_PUBLIC + "\n  " + card + "\n"
              + blocks.CLOSE + "<hr>" + blocks.OPEN + turn + blocks.CLOSE + "</main>")
    got, cut = blocks.assemble(skeleton, sink), blocks.frame(marked)
    assert got is not None
    assert str(got) == str(cut) == f'<main data-version="7">\n  {card}\n<hr>{turn}</main>'
    assert got.blocks == cut.blocks == [("p-1", card, True), ("turn", turn, False)]
    assert got.skeleton == cut.skeleton
    assert blocks.assemble(skeleton + blocks.SLOT, sink) is None


@pytest.mark.django_db
def test_a_public_block_is_cut_once_per_state_and_every_seat_sends_the_same_string(make_table):
    """Another Guild's character card and the log are public blocks: every seated view of one
    state collects the very same element (one string, stripped and searched once, its hash
    worked out once for every phone's delta: ``tabletop.blocks.collect_public``), the watcher
    its own one; the next state's views cut the changed card and log again."""
    table, seats = make_table("demloc", players=4)
    blocks.forget_public_blocks()
    regions, _, _ = fan_out_renders(table, seats)
    seated = [regions[s.number] for s in seats]
    public = {bid for bid, _, is_public in seated[0].blocks if is_public}
    assert {"dl-log"} < public and any(b.startswith("piece-") for b in public), public
    for bid in public:
        found = [html for region in seated for b, html, is_public in region.blocks
                 if b == bid and is_public]
        assert len(found) >= 2, bid
        assert all(html is found[0] for html in found), bid
    watcher = dict((b, h) for b, h, _ in regions["w"].blocks)
    assert watcher["dl-log"] == dict((b, h) for b, h, _ in seated[0].blocks)["dl-log"]
    piece = live_reads.seat_view(table, seats[2])["my_pieces"][0]["id"]
    services.run_command(table, seats[2], Command(
        "demloc.tokens.adjust", {"piece": piece, "token": "bleeding", "delta": 1}))
    after, _, _ = fan_out_renders(table, seats)
    before_log = dict((b, h) for b, h, _ in seated[0].blocks)["dl-log"]
    logs = [dict((b, h) for b, h, _ in after[s.number].blocks)["dl-log"] for s in seats]
    assert logs[0] != before_log and all(html is logs[0] for html in logs)


@pytest.mark.django_db
def test_a_demloc_sheet_says_why_its_arcane_section_offers_no_summon(make_table):
    """5.1.5, 7.2.3.2: a Guild's pantheon with no daemon of its code's kabbalah: the Arcane
    section of the sheet says so in one line (where to get one), not a silent absence."""
    table, seats = make_table("demloc", players=2)
    region = render_region(live_context(None, table, seats[0], base_url=BASE_URL))
    url = re.search(r'id="piece-s0-vesna"[^>]*data-forms="([^"]+)"', str(region)).group(1)
    assert "data-arcane-missing" not in phone_of(seats[0]).get(url).content.decode()
    state = copy.deepcopy(table.state)
    next(p for p in state["players"] if p["seat"] == 0)["pantheon"] = []
    state["version"] = table.version + 1  # a new state: the views kept for the old one go
    table.state, table.version = state, table.version + 1
    table.save()
    html = phone_of(seats[0]).get(url).content.decode()
    assert re.search(r"data-arcane-missing>No daemon to summon: the Guild(&#x27;|&#39;)s pantheon "
                     r"has no \w+ daemon \(7\.2\.3\.2\)", html)
