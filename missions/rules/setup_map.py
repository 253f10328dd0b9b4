"""The map as a picture (DemLoc rulebook 6.4.1 "map creation phase": "the app shows all
participants which tiles of the modular map must be used, which scenic elements the players
need and how all the parts must be assembled and positioned on the board ... and then shows the
players where to put the characters of the different Guilds"). Pure: no Django.

A definition's ``layout`` (validated by ``check_layout``) places the definition's ``tiles`` on a
grid and puts its scenery and deployment areas on them, in map units (a tile is 1 x 1; ``x``
from the left edge, ``y`` from the top)::

    {"columns": 2, "rows": 2,
     "tiles": [{"tile": 1, "side": "A", "col": 1, "row": 1, "rotation": 0}, ...],
     "scenery": [{"name": "Bell tower", "x": 1, "y": 1}, ...],
     "areas": [{"name": "North gate", "x": 0, "y": 0, "w": 2, "h": 0.25}, ...]}

``picture`` turns it into what ``missions/_map.html`` draws: an SVG in a 100-unit-per-tile
viewBox (it scales to the phone's width) with a text twin (title, description, numbered key).
"""

from __future__ import annotations

from math import ceil
from typing import Any, TypeGuard

MAX_GRID = 6
ROTATIONS = (0, 90, 180, 270)
UNIT = 100  # SVG units per tile
#: The smallest box the page draws a map in, in CSS px: a 360 px phone less the card's and
#: the folding's padding, and at most 60% of a 740 px tall screen (missions.css).
NARROW_PX = 260
LOW_PX = 400
MIN_TEXT_PX = 13


def _num(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def check_layout(
    layout: Any, tiles: list[dict], scenery: list[dict], deployment: list[dict]
) -> str | None:
    """The first problem of ``layout`` in words for the admin, or None. ``{}`` (no picture
    yet) is fine. Each of the definition's ``tiles`` is placed once, on its side, one per grid
    cell; scenery names come from ``scenery`` and areas from ``deployment``; everything lies
    on the map."""
    if layout in (None, {}):
        return None
    if not isinstance(layout, dict):
        return "The layout is an object: columns, rows, tiles, scenery, areas."
    cols, rows = layout.get("columns"), layout.get("rows")
    if not (_int(cols) and _int(rows) and 1 <= cols <= MAX_GRID and 1 <= rows <= MAX_GRID):
        return f"'columns' and 'rows' are whole numbers from 1 to {MAX_GRID}."
    placed = layout.get("tiles")
    if not isinstance(placed, list) or not placed:
        return "'tiles': place every tile of the map on the grid."
    wanted = {(t.get("tile"), t.get("side")) for t in tiles if isinstance(t, dict)}
    cells: set[tuple[int, int]] = set()
    seen: set[Any] = set()
    for i, t in enumerate(placed, 1):
        if not isinstance(t, dict):
            return f"Placed tile {i} is not an object."
        col, row = t.get("col"), t.get("row")
        if not (_int(col) and _int(row) and 1 <= col <= cols and 1 <= row <= rows):
            return f"Placed tile {i}: 'col' 1..{cols} and 'row' 1..{rows}."
        if (col, row) in cells:
            return f"Placed tile {i}: two tiles in column {col}, row {row}."
        cells.add((col, row))
        if (t.get("tile"), t.get("side")) not in wanted:
            return (
                f"Placed tile {i}: tile {t.get('tile')}{t.get('side')} is not in the map's tiles."
            )
        if t.get("tile") in seen:
            return f"Placed tile {i}: tile {t.get('tile')} is placed twice."
        seen.add(t.get("tile"))
        if t.get("rotation", 0) not in ROTATIONS:
            return f"Placed tile {i}: 'rotation' is 0, 90, 180 or 270."
    if len(seen) != len(wanted):
        return "Place every tile of the map's tiles on the grid."
    names = {str(e.get("name")) for e in scenery if isinstance(e, dict)}
    for i, e in enumerate(layout.get("scenery") or [], 1):
        if not isinstance(e, dict) or e.get("name") not in names:
            return f"Scenery {i}: 'name' is one of the scenery ({', '.join(sorted(names))})."
        x, y = e.get("x"), e.get("y")
        if not (_num(x) and _num(y) and 0 <= x <= cols and 0 <= y <= rows):
            return f"Scenery {i}: 'x' 0..{cols} and 'y' 0..{rows} (tile units from the top left)."
    areas = {str(a.get("name")) for a in deployment if isinstance(a, dict)}
    for i, a in enumerate(layout.get("areas") or [], 1):
        if not isinstance(a, dict) or a.get("name") not in areas:
            return f"Area {i}: 'name' is one of the deployment areas ({', '.join(sorted(areas))})."
        x, y, w, h = (a.get(k) for k in ("x", "y", "w", "h"))
        if not (_num(x) and _num(y) and _num(w) and _num(h)) or w <= 0 or h <= 0:
            return f"Area {i}: 'x', 'y', 'w' and 'h' are numbers (w and h above 0)."
        if x < 0 or y < 0 or x + w > cols or y + h > rows:
            return f"Area {i}: it must lie on the {cols} x {rows} map."
    return None


def area_where(layout: dict, area: dict) -> str:
    """Where the deployment ``area`` (``{"x", "y", "w", "h"}`` in tiles) lies on ``layout``'s
    map, in the words of the map as it is laid out (DemLoc rulebook 6.4.1 "Miniatures
    positioning phase": the app shows the areas): the map's edge it runs along and the tiles it
    covers, e.g. ``"the two rows along the map's top edge, across tiles 3A and 4B"``. An area
    on no edge is "inside the map". Pure."""
    cols, rows = layout["columns"], layout["rows"]
    x, y, w, h = area["x"], area["y"], area["w"], area["h"]
    if y <= 0:
        edge = "the map's top edge"
    elif y + h >= rows:
        edge = "the map's bottom edge"
    elif x <= 0:
        edge = "the map's left edge"
    elif x + w >= cols:
        edge = "the map's right edge"
    else:
        edge = ""
    tiles = [
        f"{t['tile']}{t['side']}"
        for t in sorted(layout.get("tiles") or [], key=lambda t: (t["row"], t["col"]))
        if t["col"] - 1 < x + w and x < t["col"] and t["row"] - 1 < y + h and y < t["row"]
    ]
    where = f"the two rows along {edge}" if edge else "inside the map"
    if not tiles:
        return where
    named = tiles[0] if len(tiles) == 1 else ", ".join(tiles[:-1]) + " and " + tiles[-1]
    return f"{where}, across tile{'s' if len(tiles) > 1 else ''} {named}"


def _fmt(v: float) -> str:
    return f"{v:g}"


def picture(definition: dict) -> dict | None:
    """What ``missions/_map.html`` draws for ``definition`` (a snapshot or the model's
    fields), or None without a ``layout``. Coordinates are SVG units (``UNIT`` per tile);
    ``font``: the label size, so that labels stay at least ``MIN_TEXT_PX`` in a
    ``NARROW_PX`` x ``LOW_PX`` box."""
    layout = definition.get("layout") or {}
    if not layout:
        return None
    cols, rows = layout["columns"], layout["rows"]
    width, height = cols * UNIT, rows * UNIT
    scale = min(NARROW_PX / width, LOW_PX / height)  # CSS px per SVG unit, at the least
    font = max(14, ceil(MIN_TEXT_PX / scale))
    where = {t["tile"]: t.get("where", "") for t in definition.get("tiles") or []}
    tiles = []
    for t in sorted(layout["tiles"], key=lambda t: (t["row"], t["col"])):
        x, y = (t["col"] - 1) * UNIT, (t["row"] - 1) * UNIT
        rot = t.get("rotation", 0)
        turned = f", turned {rot}°" if rot else ""
        tiles.append(
            {
                "x": x,
                "y": y,
                "cx": x + UNIT // 2,
                "cy": y + UNIT // 2,
                "label": f"{t['tile']}{t['side']}",
                "rotation": rot,
                # A small mark on the tile's top edge as printed, turned with the tile.
                "mark": f"rotate({rot} {x + UNIT // 2} {y + UNIT // 2})",
                "text": f"Tile {t['tile']} side {t['side']}: column {t['col']}, row "
                f"{t['row']}{turned}" + (f" ({where[t['tile']]})" if where.get(t["tile"]) else ""),
            }
        )
    scenery = []
    for i, e in enumerate(layout.get("scenery") or [], 1):
        scenery.append(
            {
                "n": i,
                "cx": round(e["x"] * UNIT, 1),
                "cy": round(e["y"] * UNIT, 1),
                "r": round(font * 0.75, 1),
                "name": e["name"],
                "text": f"{i}: {e['name']} at {_fmt(e['x'])} tiles from the left, "
                f"{_fmt(e['y'])} from the top",
            }
        )
    areas = []
    for a in layout.get("areas") or []:
        x, y, w, h = (round(a[k] * UNIT, 1) for k in ("x", "y", "w", "h"))
        areas.append(
            {
                "x": x,
                "y": y,
                "w": w,
                "h": h,
                "lx": round(x + w / 2, 1),
                "ly": round(y + h / 2, 1),
                "name": a["name"],
                "text": f"Deployment area {a['name']}",
            }
        )
    summary = (
        f"{cols} by {rows} tiles: "
        + "; ".join(t["text"] for t in tiles)
        + (". Scenery: " + "; ".join(e["text"] for e in scenery) if scenery else "")
        + (". Deployment: " + ", ".join(a["name"] for a in areas) if areas else "")
        + "."
    )
    return {
        "width": width,
        "height": height,
        "viewbox": f"0 0 {width} {height}",
        "font": font,
        "small": font,
        "tiles": tiles,
        "scenery": scenery,
        "areas": areas,
        "columns": cols,
        "rows": rows,
        "summary": summary,
    }
