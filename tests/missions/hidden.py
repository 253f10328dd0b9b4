"""What a seat may not see of a DemLoc mission, for the playouts' secrecy checks
(docs/architecture.md "The event-sourced table": hidden information exists only in the view of
the seat that owns it).

``hide_from(state, seat, rnd)`` returns ``state`` with every secret that is not ``seat``'s
changed (``seat`` None: a phone that only watches, from whom everything is hidden), so the
seat's view (``DemlocRuleset.view``) and page must come out the same from both states:

- another Guild's purse, dormitory, card database, pantheon and fate points as brought to the
  table (6.4.1: each Guild chooses its characters from its own dormitory and pays from its own
  purse; the pantheon and fate points become public with the pieces, at the first turn);
- the amounts of the sealed offers for a contested mercenary that are not yet settled, and
  another Guild's costs while the mission is prepared (5.1.1: the best offer wins; who
  offered is public, how much only once it is settled);
- a hidden turn limit, until the turns are over or the mission ended (7: "the app will report
  that the turns available to the players are over"), with the limit a future mission event
  brings (6.4.2);
- the mission events that have not happened yet (6.4.2: the players see each one when it
  happens), and one more invented for the occasion.

The changed values are unlikely numbers and words (``PURSE``, ``OFFER``, ``SECRET``), so a
page that shows one can be searched for them too.
"""

from __future__ import annotations

import random
from typing import Any

from missions.rules.common import TURN_END
from tabletop.decider import copy_json

#: A purse no test Guild has (and its neighbours: one per Guild).
PURSE = 7_349_261
#: A sealed offer nobody makes.
OFFER = 6_071_943
#: Words in a future mission event.
SECRET = "Hidden-4417"
#: A card id no catalogue has.
CARD = 9_990_417


def limit_secret(state: dict) -> bool:
    """Whether the turn limit is a secret now: hidden (7), the mission not ended and its last
    turn not over (``missions.rules.view``'s ``turns_over``)."""
    setup = state.get("setup") or {}
    hidden = bool(state.get("turn_limit_hidden")) or bool(
        (setup.get("definition") or {}).get("turn_limit_hidden")
    )
    if not hidden or state.get("ended") is not None:
        return False
    limit, turn = int(state.get("turn_limit") or 0), int(state.get("turn") or 0)
    return not (limit and turn >= limit and state.get("phase") == TURN_END)


def hide_from(state: dict, seat: int | None, rnd: random.Random | None = None) -> dict:
    """``state`` (a DemLoc state, changed in place and returned: pass a copy) with the secrets
    of everyone but ``seat`` changed (the module's docstring lists them). ``rnd`` draws the
    false turn limit (always after the current turn, or none), the default one seeded by the
    state's version. Usable as ``tabletop.testing.playout``'s ``perturb``."""
    rnd = rnd or random.Random(int(state.get("version") or 0))
    mine = None if seat is None else str(seat)
    turn = int(state.get("turn") or 0)
    setup = state.get("setup")
    if setup:
        preparing = setup.get("stage") != "play"
        for n, (key, bound) in enumerate(sorted(setup.get("guilds", {}).items())):
            if key == mine:
                continue
            bound["guild"]["feods"] = PURSE + n
            bound["database_followers"] = [*bound.get("database_followers", []), CARD]
            picked = {p["id"] for p in setup.get("picks", {}).get(key, [])}
            # The dormitory's characters not chosen (a chosen one shows in its slots).
            bound["roster"] = [c for c in bound.get("roster", []) if c["id"] in picked]
            bound["roster"].append(_secret_card(n))
            if preparing:
                bound["pantheon"] = [{"name": SECRET, "kabbalah": SECRET, "level": 9}]
                bound["fate_points"] = 77 + n
        for contest in setup.get("contests", {}).values():
            for key in contest.get("offers", {}):
                if key != mine:
                    contest["offers"][key] = OFFER
        if preparing:
            for key in setup.get("costs", {}):
                if key != mine:
                    setup["costs"][key] = {"hires": OFFER, "offers": OFFER}
        definition = setup.get("definition") or {}
        for ev in definition.get("events") or []:
            if preparing or int(ev["turn"]) > turn:
                _hide_event(ev)
        definition["events"] = [
            *(definition.get("events") or []),
            {"turn": max(turn + 1, 2), "kind": "rule", "text": SECRET},
        ]
    if limit_secret(state):
        false = rnd.choice([0, turn + 1, turn + 2, turn + 5])
        state["turn_limit"] = false
        # The table's options in play (``setup_stages.opening_events`` sets them from the
        # definition; the preparation's ``setup.options`` are the lobby's, without it).
        if "turn_limit" in (state.get("options") or {}):
            state["options"]["turn_limit"] = str(false)
        if setup and setup.get("definition"):
            setup["definition"]["turn_limit"] = false
    return state


def hidden_view(ruleset, state: dict, seat: int | None, rnd: random.Random | None = None) -> Any:
    """``seat``'s view of ``state`` with the others' secrets changed (``hide_from`` on a copy):
    equal to its view of ``state`` unless the view shows a secret."""
    return ruleset.view(hide_from(copy_json(state), seat, rnd), seat)


def _hide_event(ev: dict) -> None:
    ev["text"] = SECRET
    if ev.get("kind") == "objective":
        ev["objective"] = SECRET
    elif ev.get("kind") == "turn_limit":
        ev["turn_limit"] = 29
    elif ev.get("kind") == "area_closed":
        ev["area"] = SECRET


def _secret_card(n: int) -> dict:
    """A character in a dormitory nobody else may read."""
    return {
        "id": f"m{CARD}{n}",
        "source": "mercenary",
        "ref": CARD,
        "name": f"{SECRET} {n}",
        "ready": True,
        "card": {"id": f"m{CARD}{n}", "name": f"{SECRET} {n}", "kind": "mercenary", "level": 1},
    }


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two JSON values differ (``"setup.guilds.1.guild.feods: 40 != 7349261"``), the
    first 5: what a failed secrecy check names."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted({*a, *b}, key=str):
            if k not in a or k not in b:
                out.append(f"{path}{k}: only in one")
            else:
                out += differences(a[k], b[k], f"{path}{k}.")
        return out[:5]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        pairs = enumerate(zip(a, b, strict=True))
        return [d for i, (x, y) in pairs for d in differences(x, y, f"{path}{i}.")][:5]
    return [] if a == b else [f"{path.rstrip('.')}: {str(a)[:80]} != {str(b)[:80]}"]
