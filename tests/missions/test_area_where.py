"""The deployment areas are worded from the mission's map as it is laid out (DemLoc rulebook
6.4.1 "Miniatures positioning phase"). Found by a new user: Six Bells to Dawn lays 3A and 4B
side by side in one row, yet its areas read "tile 1's top edge" and "the bottom tile". Pure."""

from missions.demo import DEMO_MISSIONS
from missions.rules.setup_map import area_where

ROW = {
    "columns": 2,
    "rows": 1,
    "tiles": [
        {"tile": 4, "side": "B", "col": 2, "row": 1},
        {"tile": 3, "side": "A", "col": 1, "row": 1},
    ],
}


def test_an_area_names_the_maps_edge_and_the_tiles_it_covers_6_4_1():
    top = {"x": 0, "y": 0, "w": 2, "h": 0.25}
    bottom = {"x": 0, "y": 0.75, "w": 2, "h": 0.25}
    assert area_where(ROW, top) == "the two rows along the map's top edge, across tiles 3A and 4B"
    assert area_where(ROW, bottom) == (
        "the two rows along the map's bottom edge, across tiles 3A and 4B"
    )
    assert area_where(ROW, {"x": 0, "y": 0, "w": 0.5, "h": 0.25}).endswith("across tile 3A")
    column = {"columns": 3, "rows": 3, "tiles": []}
    assert area_where(column, {"x": 1, "y": 1, "w": 0.5, "h": 0.5}) == "inside the map"


def test_every_demo_missions_areas_name_only_tiles_of_its_own_map_6_4_1():
    for spec in DEMO_MISSIONS:
        laid = {f"{t['tile']}{t['side']}" for t in spec["layout"]["tiles"]}
        for area in spec["deployment"]:
            assert "tile 1's" not in area["where"] and "bottom tile" not in area["where"]
            named = area["where"].split("across tile")[-1].lstrip("s ").replace(" and ", ", ")
            assert set(named.split(", ")) <= laid, (spec["name"], area)
