"""What a seat sees of a mission being prepared (DemLoc rulebook 6.4.1): everything, except
another Guild's purse, dormitory and the amounts of sealed offers not yet settled."""

from __future__ import annotations

from tabletop.decider import copy_json

from .cards import codes_of
from .setup import (
    KINDS,
    STAGE_LABELS,
    available_feods,
    can_refresh,
    guild_label,
    hired_count,
    piece_id,
    seat_key,
    settled_holder,
    stages_for,
)
from .setup_map import picture
from .setup_script import public_definition, wave_turns
from .setup_stages import deployment_areas


def pull_cards(card: dict) -> list[str]:
    """The cards a player pulls from the Guild box with one chosen character (6.4.1 "Pulling
    cards": "the Mercenary cards with their related equipment"): each weapon card and every
    Arcane Code card it holds (5.1.5; a card stored before the codes list: its one code)."""
    return [w["name"] for w in card.get("weapons") or []] + [c["name"] for c in codes_of(card)]


def view(setup: dict, seat: int | None) -> dict:
    """What ``seat`` sees of the preparation: everything, except the amounts of sealed offers
    not yet settled (only whether each contender has offered)."""
    # Another Guild's dormitory, purse and costs are its own business: name, colour and fame
    # (which settles contested mercenaries) are public. Only the seat's own Guild is copied
    # whole (the Guilds' rosters are most of the preparation: copying them all to drop them
    # made the view several times slower).
    s = copy_json({k: v for k, v in setup.items() if k != "guilds"})
    s["guilds"] = {
        key: (
            {k: copy_json(v) for k, v in g.items() if k != "database_followers"}
            if key == seat_key(seat)
            else {"guild": {k: g["guild"].get(k) for k in ("id", "name", "colour", "fame")}}
        )
        for key, g in setup["guilds"].items()
    }
    # Future mission events are shown when they happen; a hidden turn limit never (6.4.2, 7).
    s["definition"] = public_definition(s["definition"])
    s["wave_turns"] = wave_turns(s["definition"])
    s["map"] = picture(s["definition"])
    s["costs"] = {k: v for k, v in s["costs"].items() if k == seat_key(seat)}
    for contest in s["contests"].values():
        contest["offered"] = [int(k) for k in contest["offers"]]
        contest["mine"] = seat in contest["seats"]
        contest["my_offer"] = contest["offers"].get(seat_key(seat)) if seat is not None else None
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
    s["waiting"] = [s["names"][seat_key(x)] for x in s["seats"] if x not in s["ready"]]
    mine = s["guilds"].get(seat_key(seat)) if seat is not None else None
    s["my_guild"] = mine
    s["my_picks"] = s["picks"].get(seat_key(seat), []) if seat is not None else []
    picked_ids = {p["id"] for p in s["my_picks"]}
    s["my_free_roster"] = [c for c in (mine or {}).get("roster", []) if c["id"] not in picked_ids]
    # 5.1.1: a mercenary a settled contest gave to another Guild is not offered again.
    for c in s["my_free_roster"]:
        holder = settled_holder(setup, c["name"]) if c.get("source") == "mercenary" else None
        if holder is not None and holder != seat:
            c["taken"] = guild_label(setup, holder)  # the page: "sides with <Guild>"
    s["settled_list"] = [
        {
            "name": name,
            "seat": held["seat"],
            "guild": guild_label(setup, held["seat"]),
            "mine": held["seat"] == seat,
            "paid": held["paid"],
        }
        for name, held in (setup.get("settled") or {}).items()
    ]
    s["slots"] = int(s["definition"].get("slots") or 4)
    s["slots_left"] = s["slots"] - len(s["my_picks"])
    s["my_feods"] = available_feods(setup, seat) if mine else 0
    owned = (setup["guilds"].get(seat_key(seat)) or {}).get("database_followers", [])
    s["pool"] = [
        {
            **f,
            "left": int(f.get("copies", 1)) - hired_count(setup, f["key"]),
            # 5.1.2: a Guild enlists only followers of its own card database.
            "owned": f.get("card_id") is None or f["card_id"] in owned,
        }
        for f in s["definition"].get("followers", [])
    ]
    # 5.1.2: a follower not in the Guild's card database comes with a redeemed set (the Gate).
    s["pool_unowned"] = bool(mine) and any(not f["owned"] for f in s["pool"])
    s["can_refresh"] = can_refresh(setup, seat)
    s["players"] = [
        {
            "seat": x,
            "name": s["names"][seat_key(x)],
            "guild": (s["guilds"].get(seat_key(x)) or {}).get("guild"),
            "ready": x in s["ready"],
            "picks": s["picks"][seat_key(x)],
            "colour": s["colours"].get(seat_key(x)),
        }
        for x in s["seats"]
    ]
    # 6.4.1 "Pulling cards": each character's card "with their related equipment" (5.1.4
    # weapons, 5.1.5 every Arcane Code it holds, not only the one in hand).
    s["my_pull"] = [{"name": p["name"], "cards": pull_cards(p["card"])} for p in s["my_picks"]]
    s["mana_needed"] = [
        {**p, "piece": piece_id(seat, p["id"]), "rolled": s["mana"].get(piece_id(seat, p["id"]))}
        for p in s["my_picks"]
        if p["card"].get("arcane", 0) > 0
    ]
    deploy = s["deploy"]
    s["my_deploy_turn"] = deploy["acting"] == seat and seat is not None
    s["acting_name"] = (
        s["names"].get(seat_key(deploy["acting"]), "") if deploy["acting"] is not None else ""
    )
    s["to_place"] = [p for p in s["my_picks"] if piece_id(seat, p["id"]) not in deploy["placed"]]
    # 6.4.1: the areas this Guild may deploy in now (``setup_stages.deployment_areas``).
    s["my_areas"] = deployment_areas(setup, seat) if seat is not None else []
    s["tokens_of"] = [
        {
            "seat": x,
            "name": s["names"][seat_key(x)],
            "colour": s["colours"].get(seat_key(x)),
            # 5.2: the Guild's own colour when an earlier seat had it (``assign_colours``): the
            # page says why the sub-bases are another colour (a new user's red became blue).
            "own_colour": _own_colour(s, x),
            "chars": [
                {
                    "name": p["name"],
                    "miniature": p.get("miniature", ""),
                    "token": s["tokens"].get(piece_id(x, p["id"])),
                    "placed": deploy["placed"].get(piece_id(x, p["id"])),
                }
                for p in s["picks"][seat_key(x)]
            ],
        }
        for x in s["seats"]
    ]
    return s


def _own_colour(s: dict, seat: int) -> str:
    """The colour seat ``seat``'s Guild chose (5.2) when the sub-bases it got are another one
    (``setup_stages.assign_colours``: an earlier seat had it), else ""."""
    guild = (s["guilds"].get(seat_key(seat)) or {}).get("guild") or {}
    own, got = guild.get("colour") or "", s["colours"].get(seat_key(seat))
    return own if own and got and own != got else ""

