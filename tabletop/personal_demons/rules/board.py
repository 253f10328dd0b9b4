"""The summoning circle: spaces, card sizes, sigils, seals and requirements.

Pure functions on JSON-able dicts (Personal Demons rulebook, "Placement Rules", "Forming Seals",
"Playing on top of other cards", "Requirements", "Scoring").

Shapes used throughout:

- A *space* is ``[row, col]`` with ``0 <= row, col < 4``; a *point* is ``[row, col]`` of the grid
  lines (``0..4``): space ``[r, c]`` has corners ``tl=[r, c]``, ``tr=[r, c+1]``, ``bl=[r+1, c]``,
  ``br=[r+1, c+1]``.
- A *card* (content) has ``id``, ``size`` (``regular``, ``small``, ``hefty``, ``colossal``),
  ``sigils`` ``[tl, tr, bl, br]`` each ``"blue"``, ``"red"``, ``"yellow"``, ``"purple"`` or
  ``None`` (no sigil), ``value``, ``types``, ``requirements`` (list of ``"blue"``, ``"red"``,
  ``"yellow"``, ``"any"``; ``"any"`` is Pandemonial). Small cards only use ``tl`` and ``tr``.
- A *board* is ``{"placements": [...], "seals": [...], "next": int}``. A placement is
  ``{"pid", "card", "size", "spaces": [[r, c], ...], "half": "top"|"bottom"|None,
  "face_up": bool, "fear": bool}``, listed bottom to top. A seal is ``{"sid", "colour",
  "active", "point": [r, c] | None, "on": pid | None}``: on a grid point, or on the back of a
  face-down card (``on``).
- The *geometry* (board data, see ``data/board_default.json``) lists the seal points, each with
  four slots ``{"space", "corner", "print"?}``; ``print`` is a colour printed on the board (the
  built-in wild corners), visible while no card covers that corner of that space.
"""

from __future__ import annotations

from collections import Counter

from tabletop.errors import RuleViolation

COLOURS = ("blue", "red", "yellow")
CORNERS = ("tl", "tr", "bl", "br")
SIZE_SHAPES = {"regular": (1, 1), "hefty": (1, 2), "colossal": (2, 2)}
ROWS = COLS = 4


def empty_board() -> dict:
    """A board with no cards and no seals."""
    return {"placements": [], "seals": [], "next": 1}


def corner_point(space, corner: str) -> tuple[int, int]:
    """The grid point of ``corner`` (tl/tr/bl/br) of ``space``."""
    r, c = space
    return (r + (1 if corner in ("bl", "br") else 0), c + (1 if corner in ("tr", "br") else 0))


def footprint(spaces) -> tuple[int, int, int, int]:
    """``(r0, c0, r1, c1)``: the first and last row and column of a set of spaces."""
    rows = [s[0] for s in spaces]
    cols = [s[1] for s in spaces]
    return min(rows), min(cols), max(rows), max(cols)


def placement_points(placement: dict) -> list[tuple[int, int]]:
    """Every grid point a placement touches (its corners and any point inside or on its edges).

    A small card touches the two points along its half: top ``[r, c], [r, c+1]``, bottom
    ``[r+1, c], [r+1, c+1]``."""
    if placement["size"] == "small":
        (r, c) = placement["spaces"][0]
        row = r if placement["half"] == "top" else r + 1
        return [(row, c), (row, c + 1)]
    r0, c0, r1, c1 = footprint(placement["spaces"])
    return [(r, c) for r in range(r0, r1 + 2) for c in range(c0, c1 + 2)]


def tops(board: dict) -> dict[tuple[int, int], list[dict]]:
    """The visible (top) placements of each space: ``{(r, c): [placement, ...]}``; one regular,
    hefty or colossal placement, or one or two small cards, or nothing."""
    result: dict[tuple[int, int], list[dict]] = {}
    for p in board["placements"]:
        for s in p["spaces"]:
            key = (s[0], s[1])
            if p["size"] == "small" and result.get(key) and result[key][0]["size"] == "small":
                result[key] = [*result[key], p]
            else:
                result[key] = [p]
    return result


def slot_sigil(board: dict, cards: dict, top: dict, slot: dict):
    """``(colour | None, pid | None)`` that fills one quarter of a seal point: the top card's
    corner sigil when that corner of the card lies on the point, else the board print when the
    corner of the space is uncovered, else nothing."""
    space = tuple(slot["space"]) if slot.get("space") is not None else None
    corner: str = slot.get("corner") or ""
    layer = top.get(space, []) if space is not None else []
    if not layer:
        return slot.get("print"), None
    first = layer[0]
    if first["size"] == "small":
        want = "top" if corner in ("tl", "tr") else "bottom"
        for p in layer:
            if p["half"] == want:
                sig = cards[p["card"]]["sigils"]
                # A small card upright shows its tl/tr on the space's tl/tr; inverted (bottom),
                # its tr lands on the space's bl and its tl on the space's br.
                index = {"tl": 0, "tr": 1, "bl": 1, "br": 0}[corner]
                return sig[index], p["pid"]
        return slot.get("print"), None
    if not first["face_up"]:
        return None, first["pid"]
    point = corner_point(space, corner)
    r0, c0, r1, c1 = footprint(first["spaces"])
    corners = {(r0, c0): 0, (r0, c1 + 1): 1, (r1 + 1, c0): 2, (r1 + 1, c1 + 1): 3}
    if point not in corners:
        return None, first["pid"]
    return cards[first["card"]]["sigils"][corners[point]], first["pid"]


def sigil_at(board: dict, cards: dict, geometry: dict, point) -> tuple[list, list]:
    """``(colours, pids)`` of the four quarters at a seal point (``None`` for a missing one)."""
    top = tops(board)
    for entry in geometry["points"]:
        if tuple(entry["point"]) == tuple(point):
            pairs = [slot_sigil(board, cards, top, s) for s in entry["slots"]]
            return [a for a, _ in pairs], [b for _, b in pairs]
    raise KeyError(f"no seal point {point!r} in this circle")  # seal points come from geometry


def sigil_colour(colours: list) -> str | None:
    """What a sigil seals as (rulebook "Forming Seals"): ``"blue"``/``"red"``/``"yellow"``,
    ``"purple"`` when entirely wild (the player chooses), or ``None`` when incomplete (a missing
    quarter) or invalid (more than one non-purple colour)."""
    if any(c is None for c in colours):
        return None
    plain = {c for c in colours if c != "purple"}
    if not plain:
        return "purple"
    if len(plain) == 1:
        return plain.pop()
    return None


def seal_at(board: dict, point) -> dict | None:
    """The seal on grid point ``point`` or None."""
    for s in board["seals"]:
        if s["point"] is not None and tuple(s["point"]) == tuple(point):
            return s
    return None


def formable_seals(board: dict, cards: dict, geometry: dict) -> list[tuple[tuple[int, int], str]]:
    """Seal points without a seal whose sigil is complete and valid, in reading order:
    ``[((r, c), colour_or_purple), ...]``."""
    top = tops(board)
    found = []
    for entry in sorted(geometry["points"], key=lambda e: tuple(e["point"])):
        point = tuple(entry["point"])
        if seal_at(board, point) is not None:
            continue
        colours = [slot_sigil(board, cards, top, s)[0] for s in entry["slots"]]
        colour = sigil_colour(colours)
        if colour is not None:
            found.append((point, colour))
    return found


def touched_pids(board: dict, cards: dict, geometry: dict, seal: dict) -> list[str]:
    """The placements a seal touches (rulebook "Score active seals"): the cards whose corners
    meet at its point, each once; a seal on a face-down card touches that card."""
    if seal["point"] is None:
        return [seal["on"]]
    _, pids = sigil_at(board, cards, geometry, seal["point"])
    seen: list[str] = []
    for pid in pids:
        if pid is not None and pid not in seen:
            seen.append(pid)
    return seen


def placement_by_pid(board: dict, pid: str) -> dict:
    """The placement ``pid`` of ``board`` (a pid the state itself holds: ``KeyError``, a bug,
    when it is missing)."""
    for p in board["placements"]:
        if p["pid"] == pid:
            return p
    raise KeyError(f"no placement {pid!r} in this circle")


def seals_removed_by(board: dict, placement: dict) -> list[int]:
    """Seal ids removed when ``placement`` (already in ``board`` on top) is revealed or placed:
    seals on any grid point it touches, and seals on the backs of cards it covers (rulebook
    "Playing on top of other cards"; FAQ "face-down card on top of a face-down card")."""
    points = set(placement_points(placement))
    covered = {p["pid"] for p in covered_by(board, placement)}
    return [
        s["sid"]
        for s in board["seals"]
        if (s["point"] is not None and tuple(s["point"]) in points) or s["on"] in covered
    ]


def covered_by(board: dict, placement: dict) -> list[dict]:
    """The placements that were on top of the spaces ``placement`` now covers (none for a small
    card, which never goes on top of another card)."""
    if placement["size"] == "small":
        return []
    before = {
        **board,
        "placements": [p for p in board["placements"] if p["pid"] != placement["pid"]],
    }
    top = tops(before)
    seen: list[dict] = []
    for s in placement["spaces"]:
        for p in top.get((s[0], s[1]), []):
            if p not in seen:
                seen.append(p)
    return seen


def check_placement(
    board: dict,
    cards: dict,
    card: dict,
    anchor,
    *,
    face_up: bool,
    half: str | None = None,
    top: dict | None = None,
) -> list[list[int]]:
    """The spaces a card would occupy at ``anchor`` ([row, col], its top-left space), or raise
    ``RuleViolation`` (rulebook "Placement Rules"):

    - regular (Round I-III and Royal deck): an empty space, or on top of one face-down or
      face-up regular card, or of one or two small cards; never on a Fear, hefty or colossal card.
      Royal-deck cards never face down (``royal_face_down``).
    - small (Fragment deck): ``half`` ``"top"`` (upright) or ``"bottom"`` (inverted) of an empty
      space or of the empty half of a space holding one small card; never on top of a card.
    - hefty (1x2) / colossal (2x2): on top of exactly two / four face-up regular demon cards, one
      per space, inside the 16 spaces; never over a Fear, an empty space, a face-down, small,
      hefty or colossal card.

    ``top``: ``tops(board)`` when the caller already has it (``legal_anchors`` tries 16 spaces).
    """
    size = card["size"]
    if not (
        isinstance(anchor, (list, tuple))
        and len(anchor) == 2
        and all(isinstance(x, int) for x in anchor)
    ):
        raise RuleViolation("bad_space", "Choose a space of the circle.")
    r, c = anchor
    rows, cols = card.get("shape") or SIZE_SHAPES.get(size, (1, 1))
    if size == "small":
        rows, cols = 1, 1
    if not (0 <= r and 0 <= c and r + rows <= ROWS and c + cols <= COLS):
        raise RuleViolation("off_circle", "Cards must lie within the sixteen spaces.")
    spaces = [[r + i, c + j] for i in range(rows) for j in range(cols)]
    top = tops(board) if top is None else top
    if size == "small":
        if half not in ("top", "bottom"):
            raise RuleViolation(
                "bad_half", "A small card goes upright at the top or inverted at the bottom."
            )
        layer = top.get((r, c), [])
        if layer and layer[0]["size"] != "small":
            raise RuleViolation(
                "small_on_card", "Small cards may not be placed on top of other cards."
            )
        if any(p["half"] == half for p in layer):
            raise RuleViolation("half_taken", "That half of the space is taken.")
        return spaces
    if size == "regular":
        if card.get("deck") == "royal" and not face_up:
            raise RuleViolation(
                "royal_face_down", "Cards from the Royal deck may never be placed face down."
            )
        layer = top.get((r, c), [])
        if layer:
            first = layer[0]
            if first["fear"]:
                raise RuleViolation("on_fear", "No card may ever be played on top of a Fear.")
            if first["size"] in ("hefty", "colossal"):
                raise RuleViolation(
                    "on_big_card", "Regular cards may not be placed on hefty or colossal cards."
                )
        return spaces
    if size in ("hefty", "colossal"):
        for s in spaces:
            layer = top.get((s[0], s[1]), [])
            if not layer:
                raise RuleViolation(
                    "over_empty", "Personal Demons may not be placed over empty spaces."
                )
            first = layer[0]
            if first["fear"]:
                raise RuleViolation("on_fear", "Personal Demons may not be placed over Fears.")
            if first["size"] != "regular":
                raise RuleViolation(
                    "over_wrong_size", "Personal Demons go only over regular-sized cards."
                )
            if not first["face_up"]:
                raise RuleViolation(
                    "over_face_down", "Personal Demons may not be placed over face-down cards."
                )
        # One card per space: a regular card covers exactly one space.
        return spaces
    raise RuleViolation("bad_size", "Unknown card size.")


def legal_anchors(board: dict, cards: dict, card: dict, *, face_up: bool) -> list:
    """All legal ``(anchor, half)`` for a card (``half`` None unless small)."""
    result = []
    top = tops(board)
    halves = ("top", "bottom") if card["size"] == "small" else (None,)
    for r in range(ROWS):
        for c in range(COLS):
            for half in halves:
                try:
                    check_placement(board, cards, card, [r, c], face_up=face_up, half=half, top=top)
                except RuleViolation:
                    continue
                result.append(([r, c], half))
    return result


def seal_colours(board: dict) -> Counter:
    """How many seals of each colour are on the board, in any state (active, cracked, on a
    face-down card)."""
    return Counter(s["colour"] for s in board["seals"])


def meets(requirements: list, colours: Counter, wild: int = 0) -> bool:
    """Whether seals ``colours`` (a Counter of colour -> count) plus ``wild`` seals that count as
    any one colour each satisfy ``requirements`` (rulebook "Requirements"): each coloured
    requirement needs its own seal of that colour; each ``"any"`` (Pandemonial) one additional
    seal of any colour. Seals are never spent."""
    need = Counter(requirements)
    missing = sum(max(0, need[c] - colours.get(c, 0)) for c in COLOURS)
    if missing > wild:
        return False
    return sum(colours.values()) + wild >= sum(need.values())


def seal_scores(board: dict, cards: dict, geometry: dict) -> list[dict]:
    """The scoring of active seals (rulebook "Score active seals"): from the top-left across and
    down, each active seal scores the values of all cards it touches. Returns ``[{"sid",
    "point", "values", "points"}]``; cracked seals are left out (they score nothing)."""
    out = []
    for seal in sorted(
        (x for x in board["seals"] if x["point"] is not None), key=lambda x: tuple(x["point"])
    ):
        if not seal["active"]:
            continue
        pids = touched_pids(board, cards, geometry, seal)
        values = [cards[placement_by_pid(board, pid)["card"]]["value"] for pid in pids]
        out.append(
            {
                "sid": seal["sid"],
                "point": list(seal["point"]),
                "values": values,
                "points": sum(values),
            }
        )
    return out
