"""The rules reference players consult at the table (DemLoc rulebook 6.4.2 "consulting the
rules"): the turn structure and every standard weapon feature, arcane effect, pentacle effect
and personal ability of 8.1-8.4, written in our own words. Pure data.

Each entry: ``{"key": "weapon-shield", "title": "SHIELD x", "group": ..., "section": "8.1",
"text": ...}``. ``reference_key(kind, feature)`` gives the key a character panel links to.
"""

from __future__ import annotations

from .cards import parse_feature

TURN = "Turn structure"
WEAPON = "Weapon features (8.1)"
ARCANE = "Arcane power effects (8.2)"
PENTACLE = "Summoning pentacles (8.3)"
ABILITY = "Personal abilities (8.4)"
RULES = "Rules the app keeps"


def _e(key, title, group, section, text):
    return {"key": key, "title": title, "group": group, "section": section, "text": text}


ENTRIES = [
    _e(
        "turn",
        "A game turn",
        TURN,
        "7, 7.1",
        "Every turn has two phases. In the strategic phase each player, starting with the first player and going clockwise, activates characters to move freely, then shoot or use arcane powers. In the brawl phase the same order is used to make engaging moves and hand-to-hand attacks. A player passes when done; the phase ends when everyone has passed. The app shows who acts; tap Next to pass.",
    ),
    _e(
        "first-player",
        "First player",
        TURN,
        "7",
        "At the start of every turn the app draws a new first player. The previous first player is half as likely to be drawn as each other player: weight 1 against 2 (with two players, one chance in three against two in three).",
    ),
    _e(
        "free-movement",
        "Free movement",
        TURN,
        "7.2.1",
        "A character not engaged spends movement points square by square: 1 per square, 1 per quarter turn, 1 extra per square backwards or diagonally, at most 2 squares sideways. Once it has spent any movement point its movement token is turned to exhausted.",
    ),
    _e(
        "ability-test",
        "Ability test",
        TURN,
        "7.2.1",
        "Roll one standard die: at or under the tested ability passes. Before rolling, each fate point spent lowers the result by one, but it never goes under 1.",
    ),
    _e(
        "shooting",
        "Shooting",
        TURN,
        "7.2.2",
        "Declare a target in view and range, pass a ranged ability test (a failure sends the shot astray: the out-of-control card picks the square), then roll as many fighting dice as the ranged ability. Compare the total with the target's armor: lower does nothing, equal puts the weapon damage on the armor, greater puts weapon damage plus the difference, minus impact resistance, on the hit factor.",
    ),
    _e(
        "shooting-modifiers",
        "Shooting modifiers",
        TURN,
        "7.2.2.3",
        "+1 with the favourite weapon type; positioned shot (active token turned to exhausted): one enhanced die replaces a fighting die; -1 die per broken heart; -1 per element partly hiding the view; -1 when the shooter's movement token is already exhausted.",
    ),
    _e(
        "arcane-phase",
        "Arcane sub-phase",
        TURN,
        "7.2.3",
        "An activated character may channel mana (roll arcane dice, keep the cubes, note broken seals), use an arcane power by paying its mana (one extra mana per level if its token is exhausted), or summon a daemon.",
    ),
    _e(
        "possession",
        "Daemon possessed",
        RULES,
        "7.2.3",
        "Too many broken seals and a daemon takes the body: arcane 0 or 1 bears 1 seal, 2 bears 2, 3 bears 3, 4 bears 4. The possessed character acts no more, fights with hand-to-hand 1, moves each turn by the out-of-control card, and every turn takes a broken heart; with all its hearts broken it takes broken armor tokens, and with three of those it dies. An arcane test by a character whose control zone holds it can free it; freed with its fatal hearts already broken, it dies.",
    ),
    _e(
        "summoning",
        "Summoning a daemon",
        RULES,
        "7.2.3.2, 7.2.3.3",
        "A mercenary with an active token pays the summoning cost; the app draws a daemon of the code's kabbalah at the chosen level (or lower) from the guild's pantheon. Give it 1 to 3 heart tokens: the broken hearts it can take. The summoner cannot move while the daemon plays. A daemon with the same name already on the table is removed. If the daemon is killed, its summoner takes its heart tokens as broken hearts; if the summoner is killed, the daemon leaves. When a daemon leaves, the code turns back to standard and the summoner's token to exhausted.",
    ),
    _e(
        "brawl",
        "Brawl phase",
        TURN,
        "7.3",
        "Characters with an active token move only to engage an enemy, then fight. Attacker and defender roll fighting dice equal to their hand-to-hand ability; the higher total wins and the difference decides the damage.",
    ),
    _e(
        "brawl-modifiers",
        "Hand-to-hand modifiers",
        TURN,
        "7.3.2.1",
        "Each further attacker of the same player against the same enemy gets +1 more than the previous one; an attack from behind +2; favourite weapon +1; a charge adds an enhanced die; each broken heart removes a die.",
    ),
    _e(
        "brawl-effects",
        "Hand-to-hand effects",
        TURN,
        "7.3.2.2",
        "Attacker winning by 1: primary weapon damage; by 2: primary and secondary; by 3: primary twice and secondary; by 4: both twice; by 5 or more: both twice and a broken heart token. Defender winning by 1 to 5 or more: 1 to 5 general damages. Brawl damage always goes to the armor first.",
    ),
    _e(
        "turn-end",
        "End of the turn",
        TURN,
        "7.3.2.3",
        "When everyone has passed the brawl phase, tap Next turn: bleeding and poison act, effects for this turn expire, movement tokens go back to active, and a new first player is drawn. The game ends at the turn limit, when a player achieves the objective, when all agree to stop, or when only one player still has characters in play.",
    ),
    _e(
        "damage",
        "Damage, armor and hearts",
        RULES,
        "5.1.1, 6.4.2",
        "General damage fills the armor step: each time it reaches the armor factor, a broken armor token and the rest carries on. After three broken armor tokens everything reaches the hit factor. Hits skip the armor. Each time damage reaches the hit factor, a broken heart token; three broken hearts kill.",
    ),
    _e(
        "weapon-backstack",
        "BACKSTACK",
        WEAPON,
        "8.1",
        "Before taking the damage, the target steps back one square, chosen by its player. If it has nowhere to go, it takes double damage.",
    ),
    _e(
        "weapon-defensive",
        "DEFENSIVE x",
        WEAPON,
        "8.1",
        "When this character is attacked hand to hand, its player may add x to the defence total.",
    ),
    _e(
        "weapon-unstoppable",
        "UNSTOPPABLE x",
        WEAPON,
        "8.1",
        "When this character attacks hand to hand, its player may add x to the attack total.",
    ),
    _e(
        "weapon-perforating",
        "PERFORATING",
        WEAPON,
        "8.1",
        "Shots with this weapon ignore the target's impact resistance.",
    ),
    _e(
        "weapon-heavy",
        "HEAVY x",
        WEAPON,
        "8.1",
        "A character defending with this weapon rolls fewer fighting dice (the app removes x).",
    ),
    _e(
        "weapon-blooding",
        "BLOODING x",
        WEAPON,
        "8.1",
        "Each time the weapon deals damage, the victim gets x bleeding tokens. Bleeding tokens hit the character once per token every turn.",
    ),
    _e(
        "weapon-shield",
        "SHIELD x",
        WEAPON,
        "8.1",
        "Against shots, this character's armor counts x higher.",
    ),
    _e(
        "weapon-poisonous",
        "POISONOUS x",
        WEAPON,
        "8.1",
        "Each time the weapon deals damage, the victim gets x poison tokens unless already poisoned. A poisoned character gains a token every turn and dies when its tokens pass its hit factor.",
    ),
    _e(
        "arcane-care",
        "CARE x",
        ARCANE,
        "8.2",
        "The target loses up to x broken heart tokens. No use on characters already out of the game.",
    ),
    _e(
        "arcane-hit",
        "HIT x",
        ARCANE,
        "8.2",
        "x damage on the target, armor first (hit factor once three broken armor tokens are down).",
    ),
    _e(
        "arcane-arcane-hit",
        "ARCANE HIT x",
        ARCANE,
        "8.2",
        "x damage straight on the target's hit factor.",
    ),
    _e(
        "arcane-stunning",
        "STUNNING",
        ARCANE,
        "8.2",
        "The target's movement token is turned to exhausted.",
    ),
    _e("arcane-repair", "REPAIR x", ARCANE, "8.2", "The target loses up to x broken armor tokens."),
    _e(
        "arcane-poison",
        "POISON x",
        ARCANE,
        "8.2",
        "The target gets x poison tokens unless already poisoned; then one more every turn, death when they pass its hit factor.",
    ),
    _e(
        "arcane-vigor",
        "VIGOR x",
        ARCANE,
        "8.2",
        "For this turn the target's hand-to-hand ability is x higher (common mana cubes mark it).",
    ),
    _e(
        "arcane-weakness",
        "WEAKNESS x",
        ARCANE,
        "8.2",
        "For this turn the target's hand-to-hand ability is x lower, but it always rolls at least one die (dark mana cubes mark it).",
    ),
    _e(
        "pentacle-shield",
        "SHIELD x (pentacle)",
        PENTACLE,
        "8.3",
        "While the pentacle is active, the summoner's armor counts x higher against shots.",
    ),
    _e(
        "pentacle-defensive",
        "DEFENSIVE x (pentacle)",
        PENTACLE,
        "8.3",
        "While the pentacle is active, the summoner adds x to its defence totals.",
    ),
    _e(
        "pentacle-monstrous",
        "MONSTROUS x (pentacle)",
        PENTACLE,
        "8.3",
        "Enemies attacking the summoner roll x fewer dice, unless they are monstrous themselves.",
    ),
    _e(
        "pentacle-arcane-hit",
        "ARCANE HIT x (pentacle)",
        PENTACLE,
        "8.3",
        "In the hand-to-hand sub-phase, every character in contact with the summoner takes x damage on its hit factor.",
    ),
    _e(
        "pentacle-hit",
        "HIT x (pentacle)",
        PENTACLE,
        "8.3",
        "In the hand-to-hand sub-phase, every character in contact with the summoner takes x damage, armor first.",
    ),
    _e(
        "ability-monstrous",
        "MONSTROUS x",
        ABILITY,
        "8.4",
        "Passive. In fights, enemies roll x fewer dice to attack and to defend against it, unless they are monstrous too.",
    ),
    _e(
        "ability-fly",
        "FLY x",
        ABILITY,
        "8.4",
        "Activated. In a movement phase, move by spending x points ignoring control zones and difficult or blocking terrain; walls and windows still stop it.",
    ),
    _e(
        "ability-fury",
        "FURY",
        ABILITY,
        "8.4",
        "Activated on the app. For two turns the character's fighting dice count double (not the bonuses), and it takes a broken heart at the end of each of those turns.",
    ),
]

_BY_KEY = {e["key"]: e for e in ENTRIES}


def slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def reference_key(kind: str, feature: str) -> str | None:
    """The reference entry for ``feature`` (e.g. ``"SHIELD 1"``) of a ``kind``: ``"weapon"``,
    ``"arcane"``, ``"pentacle"`` or ``"ability"``; None for a unique feature."""
    name, _ = parse_feature(feature)
    key = f"{kind}-{slug(name)}"
    return key if key in _BY_KEY else None


def search(query: str) -> list[dict]:
    """Entries whose title or text contains every word of ``query`` (case-insensitive)."""
    words = query.lower().split()
    return [e for e in ENTRIES if all(w in (e["title"] + " " + e["text"]).lower() for w in words)]
