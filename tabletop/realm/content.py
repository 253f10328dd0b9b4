"""Demo content for Pixel Demon's Realm: 21 demons (2 of them Affliction-only), the Acolyte Pact (two sides), 7 secret pacts
and 12 afflictions (pure data, no Django).

The rulebook does not print the demon cards, pacts or afflictions; these are our own, written so
that every curse or pact the app can check carries machine-readable ``effects``/``conditions``
(see ``tabletop.realm.rules.cards``). The admin edits the same shapes in the database
(``tabletop.realm.models``); a table copies the content into its opening event, so a later edit
never changes a game already started.
"""

from __future__ import annotations


def _demon(id, name, title, corners, curse, effects=(), lasting=False, lore="", affliction_only=False):
    return {
        "id": id,
        "name": name,
        "title": title,
        "lore": lore or f"{name} waited in the Realm for a careless summoner.",
        "curse": curse,
        "lasting": lasting,
        "corners": list(corners),
        "effects": [dict(e) for e in effects],
        "affliction_only": affliction_only,
    }


DEMONS = [
    _demon(
        "d01",
        "Ossuarch",
        "Lord of the Bone Choir",
        ["S", "8", "C", "4"],
        "Your Skulls are all 8s.",
        [{"op": "suit_as_rank", "suit": "S", "rank": "8"}],
        True,
        "It hums in the marrow of every skull it owns.",
    ),
    _demon(
        "d02",
        "Octavia Null",
        "The Eighth Silence",
        ["V", "3", "D", "8"],
        "Your 8s are all 3s.",
        [{"op": "rank_as_rank", "from": "8", "to": "3"}],
        True,
        "Where she walks, eights forget themselves.",
    ),
    _demon(
        "d03",
        "Tri-Hex",
        "Warden of the Third Door",
        ["C", "3", "V", "9"],
        "You cannot play 3s.",
        [{"op": "cannot_play_rank", "rank": "3"}],
        True,
        "Three knocks and the door stays shut forever.",
    ),
    _demon(
        "d04",
        "Mother Wick",
        "Keeper of the Last Flame",
        ["C", "C", "5", "7"],
        "Draw 2 cards.",
        [{"op": "draw", "count": 2}],
        False,
        "Her candles burn down only in houses she favours.",
    ),
    _demon(
        "d05",
        "Gutterjaw",
        "The Famished",
        ["S", "D", "6", "2"],
        "Discard 2 random cards from your hand.",
        [{"op": "discard_random", "count": 2}],
        False,
        "It ate a village and complained of hunger.",
    ),
    _demon(
        "d06",
        "Seraphel",
        "The Fallen Virgin",
        ["V", "V", "10", "4"],
        "You cannot play Virgins.",
        [{"op": "cannot_play_suit", "suit": "V"}],
        True,
        "She once sang in a choir above; now she sings below.",
    ),
    _demon(
        "d07",
        "Knife-Saint Vorn",
        "Patron of Quiet Murders",
        ["D", "D", "7", "9"],
        "Each opponent draws 1 card.",
        [{"op": "opponents_draw", "count": 1}],
        False,
        "Prayers to Vorn are whispered through clenched teeth.",
    ),
    _demon(
        "d08",
        "The Hollow Bride",
        "Widow of Every Groom",
        ["V", "S", "5", "10"],
        "Return every Vessel in your hand to the Vessel Stack.",
        [{"op": "return_vessels"}],
        False,
        "Her veil hides nothing; that is what frightens them.",
    ),
    _demon(
        "d09",
        "Cindermaw",
        "Devourer of Tapers",
        ["C", "D", "2", "6"],
        "Your Candles are all Daggers.",
        [{"op": "suit_as_suit", "from": "C", "to": "D"}],
        True,
        "Wax runs from its jaws like molten steel.",
    ),
    _demon(
        "d10",
        "Lady Quill",
        "Scribe of Broken Oaths",
        ["V", "C", "8", "2"],
        "Reset your hand to 4 cards instead of 5.",
        [{"op": "hand_size", "size": 4}],
        True,
        "Every contract she writes has one more clause than you read.",
    ),
    _demon(
        "d11",
        "Mawrgrave",
        "The Open Tomb",
        ["S", "S", "3", "7"],
        "Draw 1 card.",
        [{"op": "draw", "count": 1}],
        False,
        "Its mouth is a grave that was never filled.",
    ),
    _demon(
        "d12",
        "Ruin Harlequin",
        "Jester of Ash",
        ["D", "V", "4", "9"],
        "Speak only in rhymes until your next turn.",
        [],
        False,
        "It laughs at the same joke for a thousand years.",
    ),
    _demon(
        "d13",
        "Pale Tollman",
        "Collector at the Bridge",
        ["S", "C", "9", "5"],
        "Your 2s are all 10s.",
        [{"op": "rank_as_rank", "from": "2", "to": "10"}],
        True,
        "Every soul pays the toll; few pay it in coin.",
    ),
    _demon(
        "d14",
        "Vesper Thorn",
        "Thorn in the Evening Prayer",
        ["V", "D", "6", "3"],
        "Each opponent draws 2 cards.",
        [{"op": "opponents_draw", "count": 2}],
        False,
        "Roses grow wherever she bled.",
    ),
    _demon(
        "d15",
        "Grimalkin Rex",
        "Cat-King of Crossroads",
        ["C", "S", "4", "10"],
        "Your Daggers are all Skulls.",
        [{"op": "suit_as_suit", "from": "D", "to": "S"}],
        True,
        "Nine lives, all of them stolen.",
    ),
    _demon(
        "d16",
        "Abyssal Clerk",
        "Notary of the Pit",
        ["D", "C", "5", "8"],
        "Stand up whenever you draw a card, until your next turn.",
        [],
        False,
        "He stamps each damned soul in triplicate.",
    ),
    _demon(
        "d17",
        "Nightglass",
        "Mirror Without Reflection",
        ["V", "S", "2", "7"],
        "You cannot play 7s.",
        [{"op": "cannot_play_rank", "rank": "7"}],
        True,
        "Look into it and something else looks back.",
    ),
    _demon(
        "d18",
        "Brother Ember",
        "Last Monk of the Burning Abbey",
        ["C", "V", "6", "9"],
        "Discard 1 random card from your hand.",
        [{"op": "discard_random", "count": 1}],
        False,
        "He kept the fire going after the abbey was gone.",
    ),
    _demon(
        "d19",
        "The Weeping Blade",
        "Sorrow Forged",
        ["D", "S", "10", "3"],
        "Draw 3 cards.",
        [{"op": "draw", "count": 3}],
        False,
        "A sword that cries for every wound it makes.",
    ),
    # Curses that relate only to Affliction Cards (the plague doctor symbol, rulebook
    # "Afflictions"): the players follow them by hand, no machine effects.
    _demon(
        "d20",
        "Doctor Miasma",
        "Physician of the Beaked Mask",
        ["S", "V", "8", "4"],
        "Until your next turn, every player must obey your Affliction as well as their own.",
        [],
        False,
        "His cures spread faster than any plague.",
        affliction_only=True,
    ),
    _demon(
        "d21",
        "The Contagion",
        "Fever Given Form",
        ["C", "D", "9", "3"],
        "Choose a player: until your next turn, they obey your Affliction instead of theirs.",
        [],
        False,
        "It passes from hand to hand like a secret.",
        affliction_only=True,
    ),
]

PACTS = [
    {
        "id": "acolyte-a",
        "name": "Acolyte Pact",
        "side": "A",
        "acolyte": True,
        "text": "Bind 3 Demons.",
        "conditions": [{"kind": "demons", "at_least": 3}],
    },
    {
        "id": "acolyte-b",
        "name": "Acolyte Pact",
        "side": "B",
        "acolyte": True,
        "text": "Bind 2 Demons, one of them your Personal Demon.",
        "conditions": [{"kind": "demons", "at_least": 2}, {"kind": "personal", "at_least": 1}],
    },
    {
        "id": "lust",
        "name": "Lust",
        "side": "",
        "acolyte": False,
        "text": "Your bound Demons show at least 3 Virgins.",
        "conditions": [{"kind": "suit", "suit": "V", "at_least": 3}],
    },
    {
        "id": "wrath",
        "name": "Wrath",
        "side": "",
        "acolyte": False,
        "text": "Your bound Demons show at least 3 Daggers.",
        "conditions": [{"kind": "suit", "suit": "D", "at_least": 3}],
    },
    {
        "id": "gluttony",
        "name": "Gluttony",
        "side": "",
        "acolyte": False,
        "text": "Your bound Demons show at least 3 Skulls.",
        "conditions": [{"kind": "suit", "suit": "S", "at_least": 3}],
    },
    {
        "id": "sloth",
        "name": "Sloth",
        "side": "",
        "acolyte": False,
        "text": "Your bound Demons show at least 3 Candles.",
        "conditions": [{"kind": "suit", "suit": "C", "at_least": 3}],
    },
    {
        "id": "greed",
        "name": "Greed",
        "side": "",
        "acolyte": False,
        "text": "The numbers on your bound Demons add up to 30 or more.",
        "conditions": [{"kind": "rank_sum", "at_least": 30}],
    },
    {
        "id": "envy",
        "name": "Envy",
        "side": "",
        "acolyte": False,
        "text": "Bind your Personal Demon and one other Demon.",
        "conditions": [{"kind": "personal", "at_least": 1}, {"kind": "demons", "at_least": 2}],
    },
    {
        "id": "pride",
        "name": "Pride",
        "side": "",
        "acolyte": False,
        "text": "Your bound Demons show all four suits.",
        "conditions": [{"kind": "distinct_suits", "at_least": 4}],
    },
]

AFFLICTIONS = [
    {"id": f"a{n:02d}", "name": name, "text": text}
    for n, (name, text) in enumerate(
        [
            ("Stutter", "Repeat the first word of every sentence."),
            ("Lefty", "Play and draw cards only with your left hand."),
            ("Echo", "Repeat the last word anyone else says to you."),
            ("Nameless", "You may not say anyone's name."),
            ("Whisperer", "Speak only in whispers."),
            ("Pointer", "You may not point at anything."),
            ("Polite", "End every sentence with 'my liege'."),
            ("Forgetful", "Ask 'whose turn is it?' at the start of each of your turns."),
            ("Giggler", "Laugh whenever someone binds a Demon."),
            ("Stargazer", "Never look at a player who is talking to you."),
            ("Narrator", "Speak of yourself only in the third person."),
            ("Mute", "You may not say the word 'card'."),
        ],
        start=1,
    )
]


def demo_content() -> dict:
    """A fresh copy of the demo content: ``{"demons": [...], "pacts": [...],
    "afflictions": [...]}`` (lists of dicts in the shapes of ``tabletop.realm.rules.cards``)."""
    return {
        "demons": [
            dict(d, corners=list(d["corners"]), effects=[dict(e) for e in d["effects"]])
            for d in DEMONS
        ],
        "pacts": [dict(p, conditions=[dict(c) for c in p["conditions"]]) for p in PACTS],
        "afflictions": [dict(a) for a in AFFLICTIONS],
    }
