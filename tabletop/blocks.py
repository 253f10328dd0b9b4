"""The live region as blocks: render once what every seat sees, send only what changed.

The live region (``tabletop/table.html#live``) is made of blocks, each one element with a
stable id (the turn bar, each character card, the log, the players panel, a seat's own
controls...), marked in the Jinja2 templates of the live region with ``public_block`` and
``inputs_block`` (``tabletop.jinja``, which render them through ``render_public`` and
``render_inputs`` here). docs/architecture.md, "The live region":

- a *public* block (``{% call public_block("id") %}``) shows nothing that differs between the
  seats: it is rendered once per table state for the seats and once for the watchers (a
  seated phone may have controls a watcher must not: DemLoc's card effects on another's
  character) (``public_blocks``: kept per table and version in this process, so the acting
  phone's answer and the fan-out share it) and the same bytes go to every phone of each;
- any other block is rendered per view (a seat's own cards, its controls and prompts);
- a frame to a phone is the blocks whose bytes changed since the frame it was sent last, as
  htmx out-of-band swaps by id, behind a ``<!--delta FROM TO-->`` header (``delta``): the page
  applies it only when it shows version FROM (frontend/app.js), otherwise it fetches the whole
  region. When anything outside the blocks changed (a block appeared or went, the status, the
  seat) the frame is the whole region, as it is for a phone that connects, is behind or wakes.

What changed is found by comparing the bytes of each block with the last ones sent (their
hashes), never guessed from the events, so a frame cannot leave a stale block behind:
tests/tabletop/test_live_blocks.py assembles each phone's page from its frames over random
playouts of every game and compares it with a fresh render.

A block may declare its inputs (``inputs_block("missions/live/dl-turn.html",
view=view|pick("turn phase"), ...)``): it is then rendered from those values alone (a context holding nothing else), so
its bytes are a function of them, and they are rendered only when the values changed: the
bytes are kept per table in this process (``kept_block``, ``keep_block``), keyed by the
values' exact serialisation (``fingerprint``), and any view of the table whose values are the
same (another seat's, the next version's) reuses them. Phoenix LiveView's change tracking,
made explicit: a block that reads a value it did not declare renders without it, which
``CHECK_INPUTS`` (on in the tests) catches by rendering it again in the whole context.
"""

from __future__ import annotations

import datetime
import marshal
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

#: Around each block's element in a render (``OPEN_PUBLIC``: a public block); taken out
#: before anything is sent.
OPEN, OPEN_PUBLIC, CLOSE = "<!--b-->", "<!--b p-->", "<!--/b-->"
_ID = re.compile(r'\sid="([^"]+)"')
_VERSION = re.compile(r'data-version="\d+"')
DELTA = re.compile(r"^<!--delta (\d+) (\d+)-->")

_PUBLIC: OrderedDict[int, tuple] = OrderedDict()
_PUBLIC_LOCK = threading.Lock()
#: Tables whose public blocks (of their newest state) this process keeps.
PUBLIC_KEPT = 256
#: Public blocks rendered / found already rendered in this process (tests, bench).
public_renders = 0
public_hits = 0


def narrow(text: str) -> str:
    """``text`` with every character above U+00FF written as a numeric character reference
    (``"\u2192"`` -> ``"&#8594;"``), which a browser reads as that character in text and in
    attribute values alike (the live region has no ``<script>``, ``<style>`` or
    ``<textarea>``, where it would not): what a phone shows is the same. Why: CPython keeps a
    string in 1 byte a character only when every character is below U+0100, so a single "○"
    (a DemLoc card's pips), "−" or "↶" made a kept card, block or region take 2 bytes a
    character (4 for an emoji in a name); every HTML string the live path keeps is narrowed
    once, when it is rendered (docs/performance.md "DemLoc at an evening's scale", sitting of 2026-12-07 05:57). ``text``
    itself (its type kept: a ``Kept`` card) when there is nothing to narrow, the usual case
    (an ASCII string says so in constant time), else a plain ``str``."""
    if text.isascii():
        return text
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("latin-1", "xmlcharrefreplace").decode("latin-1")
    return text


def public_blocks(table) -> dict:
    """The dict of public blocks (``{block id: html}``) of ``table`` at its version, shared by
    every render of that state in this process; only the newest state of each table is kept
    (an older one gets a dict of its own); a fresh dict in the lobby (seats and options change
    there without a new version)."""
    if table.status == "lobby" or table.pk is None:
        return {}
    state = (table.version, table.status)
    with _PUBLIC_LOCK:
        kept = _PUBLIC.get(table.pk)
        if kept is not None and kept[0] == state:
            _PUBLIC.move_to_end(table.pk)
            return kept[1]
        if kept is not None and kept[0] > state:
            return {}  # an older state than the one kept: rendered on its own
        blocks: dict = {}
        _PUBLIC[table.pk] = (state, blocks)
        _PUBLIC.move_to_end(table.pk)
        while len(_PUBLIC) > PUBLIC_KEPT:
            _PUBLIC.popitem(last=False)
    return blocks


def forget_public_blocks() -> None:
    """Drop every kept public block and every block kept by its inputs (tests that compare
    with a fresh render)."""
    with _PUBLIC_LOCK:
        _PUBLIC.clear()
        _INPUTS.clear()


_INPUTS: OrderedDict[int, OrderedDict] = OrderedDict()
#: Tables whose blocks rendered from declared inputs this process keeps, and how many blocks
#: of each (least recently used dropped first: about two table states' worth of views).
INPUT_TABLES_KEPT = 256
INPUT_BLOCKS_KEPT = 64
#: Blocks rendered from their inputs / found already rendered (tests, bench).
input_renders = 0
input_hits = 0
#: Render every block with declared inputs a second time in the whole context and raise when
#: the two differ (the block reads something it did not declare). Tests only: it doubles the
#: cost of those blocks.
CHECK_INPUTS = False


class Uncacheable(ValueError):  # noqa: N818 - a value outside the fingerprint's types
    """A block's input holds a value ``fingerprint`` cannot serialise exactly."""


def fingerprint(values: tuple) -> bytes:
    """The exact serialisation of a block's input values (``marshal``, version 2: no
    back-references, so equal values give equal bytes): two inputs with the same bytes
    render the same block. Plain JSON-like values (dict, list, tuple, str, int, float, bool,
    None) as they are; a safe string, a date or a time tagged with its type; anything else
    raises ``Uncacheable`` (the block is then rendered every time)."""
    try:
        return b"m" + marshal.dumps(values, 2)
    except ValueError:
        return b"p" + marshal.dumps(_plain(values), 2)


def _plain(value):
    if value is None or type(value) in (str, int, float, bool, bytes):
        return value
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, str):  # a subclass: a safe string is not escaped, a plain one is
        return ("\0" + type(value).__name__, value.encode("utf-8", "surrogatepass"))
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return ("\0" + type(value).__name__, value.isoformat(), str(value.tzinfo)
                if isinstance(value, (datetime.datetime, datetime.time)) else "")
    raise Uncacheable(type(value).__name__)


def kept_block(table_pk: int, node, key: bytes) -> str | None:
    """The HTML kept for the block ``node`` (a template node: the same block of the same
    template, never one of a template loaded again) of table ``table_pk`` with input
    ``key`` (``fingerprint``), or None."""
    global input_hits
    with _PUBLIC_LOCK:
        table = _INPUTS.get(table_pk)
        found = table.get((id(node), key)) if table is not None else None
        if found is None or found[0] is not node:
            return None
        table.move_to_end((id(node), key))
        _INPUTS.move_to_end(table_pk)
        input_hits += 1
        return found[1]


def keep_block(table_pk: int, node, key: bytes, html: str) -> None:
    """Keep ``html``, the block ``node`` of table ``table_pk`` rendered from input ``key``."""
    global input_renders
    with _PUBLIC_LOCK:
        input_renders += 1
        table = _INPUTS.get(table_pk)
        if table is None:
            table = _INPUTS[table_pk] = OrderedDict()
            while len(_INPUTS) > INPUT_TABLES_KEPT:
                _INPUTS.popitem(last=False)
        _INPUTS.move_to_end(table_pk)
        table[(id(node), key)] = (node, html)
        while len(table) > INPUT_BLOCKS_KEPT:
            table.popitem(last=False)


def render_public(cache: dict | None, bid: str, seated: bool, render: Callable[[], str]) -> str:
    """The public block ``bid`` of the table state whose public blocks are ``cache``
    (``public_blocks``; None outside the live region: rendered, kept nowhere), rendered by
    ``render()`` once for the seats (``seated``) and once for the watchers: a seated phone
    may have controls on another's card that a watcher, who sends nothing, must not."""
    global public_renders, public_hits
    if cache is None:
        return render()
    bid += "|seat" if seated else "|watch"
    html = cache.get(bid)
    if html is None:
        html = cache[bid] = narrow(render())
        public_renders += 1
    else:
        public_hits += 1
    return html


class InputsLeftOut(ValueError):  # noqa: N818 - a template's fault, named by what it did
    """A block with declared inputs read something else (``CHECK_INPUTS``)."""


def render_inputs(table_pk: int | None, node, values: dict, render: Callable[[dict], str],
                  whole: Callable[[], str] | None = None) -> str:
    """The block ``node`` (a loaded template: the same object for every render of it) of
    table ``table_pk`` rendered by ``render(values)`` from its declared inputs alone, or the
    bytes kept for the same values (``fingerprint``; ``kept_block``); ``table_pk`` None:
    rendered, kept nowhere (outside the live region). With ``CHECK_INPUTS``, ``whole()``
    renders it again in the whole context and ``InputsLeftOut`` is raised when the two
    differ: the block reads what it did not declare."""
    key = None
    if table_pk is not None:
        try:
            key = fingerprint(tuple(values.values()))
        except Uncacheable:
            key = None
    html = kept_block(table_pk, node, key) if key is not None else None
    if html is None:
        html = narrow(render(values))
        if key is not None:
            keep_block(table_pk, node, key, html)
    if CHECK_INPUTS and whole is not None:
        full = narrow(whole())
        if full != html:
            raise InputsLeftOut(f"block {getattr(node, 'name', node)!r} reads what its inputs "
                                f"leave out: rendered from them\n{html}\nin the whole "
                                f"context\n{full}")
    return html


@lru_cache(maxsize=512)
def _fields(spec: str) -> tuple:
    """``"a b[c,d]"`` -> ``(("a", None), ("b", (("c", None), ("d", None))))``. Raises
    ``ValueError`` for a field named twice (``"b[c] b[d]"``: the second would replace the
    first; ``"b[c,d]"`` picks both)."""
    out: list = []
    for token in spec.split():
        name, _, sub = token.partition("[")
        if any(name == seen for seen, _ in out):
            raise ValueError(f"{name!r} is named twice in {spec!r}: name its fields once, "
                             f"{name}[a,b]")
        out.append((name, _fields(sub.rstrip("]").replace(",", " ")) if sub else None))
    return tuple(out)


def _pick(value, fields: tuple):
    if not value or isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return [_pick(v, fields) for v in value]
    out = {}
    is_dict = isinstance(value, dict)
    for name, sub in fields:
        if is_dict:
            if name not in value:
                continue  # left out, as the whole value leaves it out (never None)
            found = value[name]
        else:
            found = getattr(value, name, _pick)
            if found is _pick:
                continue
            if callable(found):  # as a template calls it (a model's get_FOO_display)
                found = found()
        out[name] = found if sub is None else _pick(found, sub)
    return out


def pick(value, spec: str):
    """The fields of ``value`` named in ``spec`` (space-separated; ``name[a,b]`` picks ``a``
    and ``b`` of that field's value): a dict of them, for a dict or an object (a method is
    called, as a template would); each element picked for a list; a missing field is left
    out; an empty value (None, ``{}``, ``""``) as it is. A block's input (``inputs_block``):
    what the block reads and nothing more, so the block is rendered again only when one of
    those changed."""
    return _pick(value, _fields(str(spec or "")))


def bar_fresh(game, view) -> bool:
    """Whether the bottom bar of ``game`` is rendered in the whole context at ``view``
    (``fresh``): a game bar without ``bar_reads``, or whose ``bar_fresh(view)`` says so
    (``tabletop.rules.Ruleset.bar_reads``)."""
    if not getattr(game, "bar_template", ""):
        return False
    if not getattr(game, "bar_reads", ""):
        return True
    fresh = getattr(game, "bar_fresh", None)
    return bool(fresh(view)) if fresh is not None else False


class Frame(str):
    """A rendered live region (the HTML a phone is sent, markers taken out), with ``blocks``
    (``[(id, html, public)]`` in page order) and ``skeleton`` (a hash of everything outside the
    blocks, the version left out)."""

    blocks: list
    skeleton: int


def frame(marked: str) -> Frame:
    """The ``Frame`` of a render with block markers (``OPEN`` ... ``CLOSE``), ``narrow``ed."""
    marked = narrow(marked)
    blocks = []
    parts = []
    last = 0
    find = marked.find
    while True:
        at = find("<!--b", last)
        if at < 0:
            break
        public = marked.startswith(OPEN_PUBLIC, at)
        begin = at + (len(OPEN_PUBLIC) if public else len(OPEN))
        end = find(CLOSE, begin)
        # the element alone is the block (htmx swaps the element, not the white space)
        content = marked[begin:end]
        html = content.strip()
        head = content[:len(content) - len(content.lstrip())]
        tail = content[len(content.rstrip()):]
        parts.append(marked[last:at] + head)
        found = _ID.search(html, 0, 300)
        blocks.append((found.group(1) if found else "", html, public))
        parts.append("\0")
        parts.append(tail)
        last = end + len(CLOSE)
    parts.append(marked[last:])
    skeleton = "".join(parts)
    out = Frame(_join(parts, blocks))
    out.blocks = blocks
    out.skeleton = hash(_VERSION.sub("", skeleton, count=1)) ^ hash(tuple(b[0] for b in blocks))
    return out


#: The placeholder of a block in a render that collects its blocks (``collect``): never in
#: the HTML (no stored text holds it: ``services._UNSTORABLE``; the templates write none).
SLOT = "\0"
#: The context's name of the list a render collects its blocks into (``collect``;
#: ``tabletop.live.render_region``); without it a block is written with its markers.
SINK = "_live_block_sink"


def collect(sink: list, content: str, public: bool) -> str:
    """Add the block ``content`` (its element, maybe with white space around) to ``sink`` as
    ``frame`` would find it between its markers, and return what stands in the render in its
    place: the white space around the element and ``SLOT``. A render that collects its blocks
    (``assemble``) neither writes the blocks' HTML into the template's output nor searches
    it for markers afterwards: the same ``Frame``, byte for byte, for less work."""
    entry, out = _cut(content, public)
    sink.append(entry)
    return out


class Kept(str):
    """A block's HTML kept by a cache across renders and views (a DemLoc card,
    ``missions.jinja.piece_card``; ``Kept.of``): the element alone (the string itself, cut
    once: its id and the white space around it kept beside it), so every frame, view and
    table state that shows it holds this very string (its hash worked out once) instead of a
    stripped copy of its own, and the cache holds one copy: a card is about 18 KB, kept
    once per process instead of once per frame kept (``tabletop.live.render_region``) and per
    table state's public blocks. Written whole (``whole``) where a render writes the block
    with its markers (``tabletop.jinja``) or as it is (``__html__``)."""

    bid: str
    head: str
    tail: str
    out: str  # what stands in a render that collects its blocks (``collect``)

    @classmethod
    def of(cls, content: str) -> Kept:
        """The ``Kept`` of the block ``content`` (its element, maybe with white space),
        ``narrow``ed."""
        content = narrow(content)
        kept = cls(content.strip())
        kept.head = content[:len(content) - len(content.lstrip())]
        kept.tail = content[len(content.rstrip()):] if kept else ""
        kept.out = kept.head + SLOT + kept.tail
        found = _ID.search(kept, 0, 300)
        kept.bid = found.group(1) if found else ""
        return kept

    def whole(self) -> str:
        """The block as rendered: its element with the white space around it."""
        return self.head + self + self.tail

    def __html__(self) -> str:
        return self.whole()


def _cut(content: str, public: bool) -> tuple[tuple, str]:
    """``((id, element, public), what stands in the render)`` of the block ``content``
    (``collect``); a ``Kept`` one is cut once."""
    if type(content) is Kept:
        return (content.bid, content, public), content.out
    html = content.strip()
    if len(html) == len(content):
        out = SLOT
    else:
        head = content[:len(content) - len(content.lstrip())]
        out = head + SLOT + content[len(content.rstrip()):]
    html = narrow(html)
    found = _ID.search(html, 0, 300)
    return (found.group(1) if found else "", html, public), out


def collect_public(cache: dict | None, bid: str, seated: bool, sink: list, content: str) -> str:
    """``collect`` of the public block ``bid`` whose HTML ``content`` is the one kept in
    ``cache`` (``render_public``): cut once per table state and kind of view (seated or
    watching), so every view of that state collects the very same element string (its hash,
    which ``shown`` and ``delta`` compare, is worked out once) instead of a copy of its own
    stripped and searched again. Kept beside the block under a tuple key (never a block's
    id, which is a string); taken only when it was cut from this very ``content``."""
    if cache is None:
        return collect(sink, content, True)
    key = ("cut", bid, seated)
    kept = cache.get(key)
    if kept is None or kept[0] is not content:
        kept = cache[key] = (content, *_cut(content, True))
    sink.append(kept[1])
    return kept[2]


def assemble(skeleton: str, sink: list) -> Frame | None:
    """The ``Frame`` of a render whose blocks were collected into ``sink`` (``collect``):
    ``skeleton`` is the render, a ``SLOT`` where each block stands; None when the slots do
    not match the blocks (the caller then renders with markers: ``frame``). The skeleton is
    ``narrow``ed, as each block was when collected: the frame is 1 byte a character."""
    skeleton = narrow(skeleton)
    parts = skeleton.split(SLOT)
    if len(parts) != len(sink) + 1:
        return None
    pieces = [parts[0]]
    for (_bid, html, _public), part in zip(sink, parts[1:], strict=True):
        pieces.append(html)
        pieces.append(part)
    out = Frame("".join(pieces))
    out.blocks = sink
    out.skeleton = hash(_VERSION.sub("", skeleton, count=1)) ^ hash(tuple(b[0] for b in sink))
    return out


def _join(parts: list, blocks: list) -> str:
    it = iter(blocks)
    return "".join(next(it)[1] if p == "\0" else p for p in parts)


def strip(marked: str) -> str:
    """``marked`` with the block markers taken out (a whole page)."""
    return marked.replace(OPEN, "").replace(OPEN_PUBLIC, "").replace(CLOSE, "")


@dataclass(slots=True)
class Shown:
    """What one phone was sent last: the version, the skeleton's hash and each block's."""

    version: int
    skeleton: int
    blocks: dict


def shown(version: int, region) -> Shown | None:
    """What a phone shows after being sent ``region`` (a ``Frame``) at ``version``; None
    when ``region`` is not a ``Frame`` (a refreshed lobby region: the next frame is whole)."""
    if not isinstance(region, Frame):
        return None
    return Shown(version, region.skeleton, {bid: hash(html) for bid, html, _ in region.blocks})


def delta(before: Shown | None, version: int, region) -> str | None:
    """The frame that takes a page showing ``before`` to ``region`` at ``version``: the header
    and the changed blocks (``<!--delta FROM TO-->`` then each block's element, which htmx
    swaps by id); None when only the whole region will do (nothing known of the page, a
    change outside the blocks, or not newer)."""
    if (before is None or not isinstance(region, Frame) or region.skeleton != before.skeleton
            or version <= before.version):
        return None
    old = before.blocks
    changed = [html for bid, html, _ in region.blocks if old.get(bid) != hash(html)]
    return f"<!--delta {before.version} {version}-->" + "".join(changed)
