"""The rules reference players consult at the table (DemLoc rulebook 6.4.2 "Consulting the
rules and the appendix": "they can consult the updated rulebook and search its rules also
through the use of keywords"): every chapter of the rulebook (2 to 8) in our own words, with
what the app does for each rule and the readings it chose where the rulebook is unclear. Pure
data; the page ``/missions/reference/`` searches it in the browser (works with no network once
loaded), ``search`` is the same search in Python.

Each entry: ``{"key": "weapon-shield", "title": "SHIELD x", "group": ..., "section": "8.1",
"text": ...}``; ``section`` lists the rulebook sections it explains, comma-separated.
``reference_key(kind, feature)`` gives the key a character panel links to.
"""

from __future__ import annotations

from .cards import parse_feature

GAME = "The game and the app (2-4, 6.1-6.3)"
COMPONENTS = "Components (5)"
MISSION = "A mission with the app (6.4)"
TURN = "The turn (7, 7.1)"
STRATEGIC = "Strategic phase (7.2)"
ARCANE_PHASE = "Arcane sub-phase (7.2.3)"
BRAWL = "Brawl phase (7.3)"
WEAPON = "Weapon features (8.1)"
ARCANE = "Arcane power effects (8.2)"
PENTACLE = "Summoning pentacles (8.3)"
ABILITY = "Personal abilities (8.4)"
READINGS = "Where the rulebook is unclear: the app's readings"

#: The groups in the order the page shows them.
GROUPS = (
    GAME,
    COMPONENTS,
    MISSION,
    TURN,
    STRATEGIC,
    ARCANE_PHASE,
    BRAWL,
    WEAPON,
    ARCANE,
    PENTACLE,
    ABILITY,
    READINGS,
)


def _e(key, title, group, section, text):
    return {"key": key, "title": title, "group": group, "section": section, "text": text}


ENTRIES = [
    # ------------------------------------------------------------ 2-4, 6.1-6.3
    _e(
        "game",
        "What DemLoc is",
        GAME,
        "2, 2.1, 3",
        "A competitive game for 2 to 4 Guild Masters in the cursed city of DemLoc. Between "
        "sessions each player runs a Guild on the app; at the table the players fight missions "
        "with miniatures while the app keeps the characters, the turns and the arithmetic. The "
        "aim is the most famous and richest Guild: every mission pays fame and feods (gold), "
        "and killing the enemy is not always the goal.",
    ),
    _e(
        "box",
        "The introductory box",
        GAME,
        "4",
        "Rise of Guilds holds two basic Guild sets (hunter, belligerent, sorcerer, miserable, "
        "and a card with the code that founds a Guild on the app), the Sons of Loch "
        "mercenaries, 25 followers, weapon, skill and arcane code cards, fighting, enhanced, "
        "arcane, six- and ten-sided dice, 14 double-sided tiles, scenery, mana cubes and "
        "tokens. A second Guild set can be kept to build guest Guilds for friends (the Guest "
        "Guilds page).",
    ),
    _e(
        "modes",
        "Individual and group game",
        GAME,
        "6.1",
        "The individual game happens only on the app: manage the Guild, its buildings, explore "
        "and take control zones of the city. The group game is played around one table: "
        "missions that win or lose control zones, fame and feods.",
    ),
    _e(
        "first-access",
        "First access",
        GAME,
        "6.2",
        "Make an account, then found your first Guild with the code of your account card. At "
        "the first visit the Guild page offers a short tour (skip it, or reopen it with the "
        "Tour link). City Gate: type a set's code to add its cards to your database. "
        "Dormitory, Armory, Arcane Library: take mercenaries, weapons and arcane codes into "
        "the Guild and equip them. Buildings: upgrade them. Map of DemLoc: send mercenaries "
        "into the city.",
    ),
    _e(
        "city",
        "Exploring and conquering the city",
        GAME,
        "6.2",
        "Send ready mercenaries to a control point of the map. Explore an unknown point: when "
        "they come back it is known. Acquire a known point: if it succeeds the Guild's ensign "
        "flies there, its bonuses apply and it pays fame, feods or blood stones from time to "
        "time; a failure says what happened and how to try again. More mercenaries make the "
        "task shorter and likelier to succeed. Random events of the city may ask for an "
        "answer; one that touches your Guild must be answered (or gets its default).",
    ),
    _e(
        "box-and-app",
        "The app and the Guild box",
        GAME,
        "5.8, 6.3",
        "The cards in your Guild box must match what the app says your Guild has. The Guild "
        "box roster page lists every mercenary with its weapons and codes, and who cannot go "
        "on a mission and why: check it before a game night.",
    ),
    # ------------------------------------------------------------ 5
    _e(
        "cards",
        "Cards",
        COMPONENTS,
        "5.1",
        "Cards are the characters (mercenaries, followers, daemons), the weapons they carry and "
        "the arcane codes they cast from. A set's code puts its cards in your database; only "
        "the cards your Guild took in (dormitory, armory, library, guesthouse, pantheon) go to "
        "a mission.",
    ),
    _e(
        "mercenary",
        "Mercenary cards",
        COMPONENTS,
        "5.1.1",
        "Armor factor: the damage the armor takes before each broken armor token, and what a "
        "shot must reach. Impact resistance (arrows): taken off shot damage. Hit factor: the "
        "damage before each broken heart token; three broken hearts kill. Movement: points to "
        "spend in a movement sub-phase. Hand-to-hand and ranged abilities: the fighting dice "
        "rolled. Arcane ability: the arcane dice the character may hold, and the broken seals "
        "it bears. Also its level, its favourite weapon type, its weapon couplings and its "
        "personal ability (passive, or activated with fate points).",
    ),
    _e(
        "uniqueness",
        "One mercenary of a name",
        COMPONENTS,
        "5.1.1",
        "Two mercenaries with the same name never play in one mission. When two Guilds choose "
        "the same one, each makes a sealed offer of feods: the highest offer gets him; equal "
        "offers go to the Guild with more fame; still equal, the app draws.",
    ),
    _e(
        "dormitory",
        "Slots, types and levels",
        COMPONENTS,
        "5.1.1",
        "The dormitory has slots for mercenaries; its level, the Guild's fame and the areas "
        "where it holds control points (its home areas) limit how many of each type "
        "(sorcerer, hunter, belligerent, miserable) and of each level it can enlist. Upgrade "
        "the dormitory to raise them.",
    ),
    _e(
        "follower",
        "Followers",
        COMPONENTS,
        "5.1.2",
        "Support characters; several of one name may play. They cannot be equipped: their "
        "weapons (upper one primary) are printed on the card. A '2 + 1' ability means roll 2 "
        "dice and add 1. Arcane followers bring the arcane code the app names but never "
        "summon. Before a mission the app offers followers for feods, shared by every player "
        "at the table; followers enlisted permanently live in the Guesthouse and cost nothing.",
    ),
    _e(
        "daemon",
        "Daemons",
        COMPONENTS,
        "5.1.3",
        "Summoned by mercenaries with arcane knowledge. The Guild's daemonic pantheon holds the "
        "daemons it may get; the app draws one at random from the kabbalah of the summoner's "
        "code. One daemon of a name plays at a time: if another summoning draws the same one, "
        "the new one replaces the old (the app tells both players).",
    ),
    _e(
        "weapon",
        "Weapon cards",
        COMPONENTS,
        "5.1.4",
        "Type (bows, gunpowder, swords, axes, naked hands, knife, hammers, shields, spears), "
        "characteristic (normal, valuable, arcane), damage, grip and features. Two one-handed "
        "weapons can be held: the top one is primary. A two-handed weapon goes on top with "
        "nothing below. Ranged weapons have a range and two damages: the first for shooting, "
        "the second in a brawl. A mercenary needs at least one weapon to go on a mission; new "
        "weapons are bought into the Armory with feods.",
    ),
    _e(
        "arcane-code",
        "Arcane Code cards",
        COMPONENTS,
        "5.1.5",
        "Each code belongs to a kabbalah. Standard side: two arcane powers, each with a mana "
        "cost by colour, a range and an effect, and the cost to summon a daemon of its "
        "kabbalah. After a summoning the card is turned to its post-summoning side: the "
        "summoning pentacle and its effect. Codes join the Guild's Arcane Library and go to "
        "characters with an arcane ability, at most as many as that ability.",
    ),
    _e(
        "miniatures",
        "Miniatures and sub-bases",
        COMPONENTS,
        "5.2",
        "Miniatures are generic: a mercenary miniature of the right type, a follower's own, "
        "one daemon miniature for any daemon. Each Guild has its sub-base colour (the app "
        "keeps the colours at the table distinct) and numbers its characters; the movement "
        "token with the same number goes on the character's card.",
    ),
    _e(
        "dice",
        "Dice",
        COMPONENTS,
        "5.3",
        "Fighting dice for shooting and brawls; enhanced dice in some situations (a positioned "
        "shot, a charge); arcane dice to channel mana: common (white), dark (black) or a "
        "broken seal; standard six-sided dice for ability tests; the ten-sided die for the "
        "out-of-control card. The players roll real dice and type the faces into the app.",
    ),
    _e(
        "tiles",
        "Map tiles and scenery",
        COMPONENTS,
        "5.4, 5.5",
        "Tiles have an outside side (A) and an inside side (B, walls, doors and windows). The "
        "mission's map phase says which tiles, which side and where, which scenery (trees, "
        "columns, barrels, doors) goes where, and the deployment areas. Optional barrels and "
        "palisades are taken now and placed during deployment.",
    ),
    _e(
        "out-of-control",
        "Out-of-control card",
        COMPONENTS,
        "5.6",
        "Lay the card on the character with its marker towards you and roll the d10: the "
        "number shows the direction of the effect (a stray shot, a possessed character's "
        "move). 5: no effect. 10: roll again. The app rolls it and says the direction.",
    ),
    _e(
        "tokens",
        "Tokens",
        COMPONENTS,
        "5.7",
        "Few tokens: the app keeps the effects. Movement tokens (active or exhausted) pair a "
        "card with its miniature and show who may still move; relic tokens are the objects of "
        "a Retrieve the relic mission; mana cubes (white, black) show the mana a character "
        "channelled.",
    ),
    # ------------------------------------------------------------ 6.4
    _e(
        "collective",
        "Starting a mission",
        MISSION,
        "6.4",
        "Only Guild Masters with a Guild play. Around one table, each phone joins with the "
        "table's code and brings its Guild. Training mission: nothing is won or lost, no "
        "control zone, nobody really dies. Standard mission: control zones, fame and feods "
        "change and the dead stay dead. While a mission runs the Guild's characters are "
        "frozen; the Guild changes when the mission is closed.",
    ),
    _e(
        "phases",
        "Preparing a mission",
        MISSION,
        "6.4.1",
        "Every phase moves on when all players tapped Next. Raffle (standard only): the control "
        "spot, free or held by a player. Objective: the mission kind, its goal, turn limit and "
        "special rules. Map: tiles, scenery, deployment areas. Characters: fill your slots "
        "with ready mercenaries, guesthouse followers or followers bought for this mission. "
        "Then pull the cards from the Guild box, roll each arcane character's dice for its "
        "starting mana (broken seals have no effect now), put the sub-bases on, and deploy "
        "one miniature at a time, clockwise from the first player.",
    ),
    _e(
        "waves",
        "Wave missions",
        MISSION,
        "6.4.1, 6.4.2",
        "In a wave mission some characters wait in the Guild box, each for one of the "
        "mission's waves. The app tells the players at which turn to pull their cards and "
        "where to place their miniatures.",
    ),
    _e(
        "resolution",
        "Resolution",
        MISSION,
        "6.4.1",
        "When the mission ends the app shows the winner, the fame and feods won or lost, "
        "items, and what became of every character: escaped, injured (with what it needs to "
        "come back) or dead (listed in the dormitory, never usable again). A standard mission "
        "gives or takes the control spot. Then play another mission or go back to the Guild.",
    ),
    _e(
        "app-screen",
        "The app during a mission",
        MISSION,
        "6.4.2",
        "Tap a character to see its statistics with the hits and effects on it. Assign damage "
        "(general damage goes to the armor first, hits go straight to the hit factor), broken "
        "seals, bleeding, poison, the summoning and possessed effects; only what was assigned "
        "can be removed, never below 0. The fate points counter pays activated abilities and "
        "lowers test rolls; the kill counter counts the enemies killed by kind and level for "
        "the rewards.",
    ),
    _e(
        "next-turn",
        "Next turn and the end buttons",
        MISSION,
        "6.4.2",
        "Next turn once both phases are passed. A limited mission ends after its last turn; "
        "some missions do not show how many turns there are, and the app says when they are "
        "over. In a mission with an objective a player who reached it taps Objective achieved "
        "at the end of the turn, instead of Next turn, and the other players confirm it (or "
        "dispute it: play on). In a mission where an area must be held, start and suspend the "
        "objective control counter; the app ends the mission when it is held long enough. "
        "Some missions show events that change the mission (a new objective, a closed area, "
        "reinforcements, a changed turn limit) at the start of a turn: follow what the app "
        "says.",
    ),
    _e(
        "reference-search",
        "This reference",
        MISSION,
        "6.4.2",
        "Type a word (poison, shield, escape, first player...) in the search box: the entries "
        "are filtered in the page itself, with no network needed once it is loaded. Each entry "
        "names its rulebook section; the weapon, power and ability names on a character's sheet "
        "link here.",
    ),
    # ------------------------------------------------------------ 7, 7.1
    _e(
        "turn",
        "A game turn",
        TURN,
        "7, 7.1",
        "Every turn has two phases. In the strategic phase each player, starting with the first "
        "player and going clockwise, activates characters to move freely, then shoot or use "
        "arcane powers. In the brawl phase the same order is used to make engaging moves and "
        "hand-to-hand attacks. A player passes when done; the phase ends when everyone has "
        "passed. The app shows who acts; tap Next to pass.",
    ),
    _e(
        "first-player",
        "First player",
        TURN,
        "7",
        "At the start of every turn the app draws a new first player. The previous first player "
        "is half as likely to be drawn as each other player: weight 1 against 2 (with two "
        "players, one chance in three against two in three).",
    ),
    _e(
        "mission-end",
        "How a mission ends",
        TURN,
        "7, 7.3.2.3",
        "A player reaches the goal; the turns run out (the number of turns is not always "
        "shown); every player agrees to stop (surrender); or total elimination: only one "
        "player still has characters in play at the end of a turn. Elimination is seen when "
        "it happens, also in the last turn of a limited mission, and then the last one "
        "standing wins.",
    ),
    _e(
        "basic-rule",
        "The basic rule",
        TURN,
        "7",
        "When a card contradicts this manual, the Abilities and Weapons chapter (8) wins. Where "
        "the manual contradicts itself the table chooses with a table option (see the readings "
        "at the end).",
    ),
    _e(
        "control-zone",
        "Control zone",
        TURN,
        "7.1.1",
        "The squares around a character except the three behind it (its orientation is the "
        "arrow on its sub-base). An enemy inside your control zone is engaged by you; you can "
        "engage without being engaged. Long-range engagement weapons have a larger zone. Walls, "
        "windows and the map's edges cut the zone; doors do not. Judged on the board.",
    ),
    # ------------------------------------------------------------ 7.2
    _e(
        "strategic",
        "Strategic phase",
        STRATEGIC,
        "7.2",
        "In turn order each player activates characters: each moves, then may shoot or use the "
        "arcane sub-phase, in that order. An activated character is not activated again until "
        "the next phase. Pass when done.",
    ),
    _e(
        "free-movement",
        "Free movement",
        STRATEGIC,
        "7.2.1",
        "A character not engaged spends movement points square by square: 1 per square, 1 per "
        "quarter turn, 1 extra per square backwards or diagonally, at most 2 squares sideways. "
        "Once it has spent any movement point its movement token is turned to exhausted.",
    ),
    _e(
        "terrain",
        "Terrain",
        STRATEGIC,
        "7.2.1",
        "Free terrain costs 1 per square. Barrels and small walls: 1 more, and you cannot stop "
        "on them. Walls and windows cannot be crossed; doors cost nothing extra. Trees, "
        "columns, palisades and other characters cannot be crossed nor stood on. A move stops "
        "as soon as an enemy engages the character; points are rounded down.",
    ),
    _e(
        "evasive",
        "Evasive movement",
        STRATEGIC,
        "7.2.1",
        "An engaged character may try to move away in the free movement sub-phase: it must "
        "pass a hand-to-hand ability test first, then it spends its movement points.",
    ),
    _e(
        "ability-test",
        "Ability test",
        STRATEGIC,
        "7.2.1",
        "Roll one standard die: at or under the tested ability passes. Before rolling, each fate "
        "point spent lowers the result by one, but it never goes under 1.",
    ),
    _e(
        "objects",
        "Objects",
        STRATEGIC,
        "7.2.1",
        "Objects are the mission's tokens (not weapons or codes). To pick one up or put it "
        "down, the character stands on its square, ends its movement and spends 1 point; it "
        "cannot shoot or use arcane powers that turn (the app refuses them once the relic is "
        "taken or put down on the app). Only objects carried by mercenaries count for the "
        "objective, not those of followers.",
    ),
    _e(
        "escape",
        "Escape",
        STRATEGIC,
        "7.2.1",
        "Any character except a dignitary may escape the board, only from its own deployment "
        "area: through its windows on an inside tile, over the board's edge on an outside "
        "tile. Mark it escaped on the app: it leaves the game and counts for the resolution. "
        "A possessed character that leaves the board stays in the Guild but costs fame.",
    ),
    _e(
        "shooting",
        "Shooting",
        STRATEGIC,
        "7.2.2, 7.2.2.2, 7.2.2.4",
        "Declare one target in view and range, pass a ranged ability test (a failure sends the "
        "shot astray: the out-of-control card picks the square next to the target, and whoever "
        "stands there is the new target), then roll as many fighting dice as the ranged "
        "ability. Compare the total with the target's armor: lower does nothing, equal puts "
        "the weapon damage on the armor, greater puts weapon damage plus the difference, minus "
        "impact resistance, on the hit factor.",
    ),
    _e(
        "shooting-view",
        "Shooting view and range",
        STRATEGIC,
        "7.2.2, 7.2.2.1",
        "The shooter sees 180 degrees in front of it; the line runs from the centre of its "
        "square to the centre of the target's. Range counts 1 per square, 1 more per diagonal "
        "square, rounded down. Trees, columns, walls and characters on the line stop the shot "
        "(an ally just in front of the shooter does not). Barrels and small walls on the line "
        "give -1 each, unless touching the shooter. Judged on the board: tell the app how many "
        "elements partly hide the view.",
    ),
    _e(
        "shooting-modifiers",
        "Shooting modifiers",
        STRATEGIC,
        "7.2.2.3",
        "+1 with the favourite weapon type; positioned shot (active token turned to "
        "exhausted): one enhanced die replaces a fighting die; -1 die per broken heart; -1 "
        "per element partly hiding the view; -1 when the shooter's movement token is already "
        "exhausted.",
    ),
    _e(
        "damage",
        "Damage, armor and hearts",
        STRATEGIC,
        "5.1.1, 6.4.2, 7.2.2.4",
        "General damage fills the armor step: each time it reaches the armor factor, a broken "
        "armor token and the rest carries on. After three broken armor tokens everything "
        "reaches the hit factor (and shots no longer subtract impact resistance). Hits skip "
        "the armor. Each time damage reaches the hit factor, a broken heart token; three "
        "broken hearts kill.",
    ),
    # ------------------------------------------------------------ 7.2.3
    _e(
        "arcane-phase",
        "Arcane sub-phase",
        ARCANE_PHASE,
        "7.2.3",
        "An activated character may channel mana, use an arcane power by paying its mana, or "
        "summon a daemon. Besides, a character with arcane ability may make an arcane test "
        "with a die of its mana pool.",
    ),
    _e(
        "channel",
        "Channelling mana",
        ARCANE_PHASE,
        "7.2.3",
        "With an active movement token, roll some of the character's arcane dice (never more "
        "than its arcane ability, counting the cubes it holds). Take a white cube per common "
        "mana and a black cube per dark mana. Each broken seal goes on the app, and the die "
        "that showed it is removed for the rest of the mission.",
    ),
    _e(
        "power",
        "Using an arcane power",
        ARCANE_PHASE,
        "7.2.3.1",
        "Pay the power's cost in mana of the right colours (cubes back to the reserve), then "
        "apply its effect to the target. With an exhausted movement token it costs one more "
        "mana per level of the character. Range and line follow the shooting rules, but only "
        "what fully hides the view stops a power; a fighting character targets inside its "
        "control zone.",
    ),
    _e(
        "summoning",
        "Summoning a daemon",
        ARCANE_PHASE,
        "7.2.3.2, 7.2.3.3",
        "A mercenary with an active token pays the summoning cost; the app draws a daemon of "
        "the code's kabbalah at the chosen level (or lower) from the guild's pantheon; the level "
        "asked for is at most the summoner's own (table option). Give it "
        "1 to 3 heart tokens: the broken hearts it can take. The summoner cannot move while "
        "the daemon plays. A daemon with the same name already on the table is removed. If "
        "the daemon is killed, its summoner takes its heart tokens as broken hearts; if the "
        "summoner is killed, the daemon leaves. When a daemon leaves, the code turns back to "
        "standard and the summoner's token to exhausted.",
    ),
    _e(
        "blood-pact",
        "Special blood pact rule",
        ARCANE_PHASE,
        "7.2.3.4",
        "Listed in the rulebook's contents, but this edition prints no rule for it: the app "
        "has nothing to apply.",
    ),
    _e(
        "arcane-test",
        "Arcane test",
        ARCANE_PHASE,
        "7.2.3.5",
        "An ability test on the arcane ability, using one arcane die of the character's mana "
        "pool. Several per turn, never twice for the same situation. Passed, it defends "
        "against an arcane attack aimed at it this phase (the power does nothing: the app takes "
        "back what it did), removes one arcane effect token (VIGOR, WEAKNESS, POISON) "
        "from a character in its control zone or itself, or frees a possessed character in its "
        "control zone. Broken seals rolled in a test have no effect.",
    ),
    _e(
        "possession",
        "Daemon possessed",
        ARCANE_PHASE,
        "7.2.3, 7.2.3.5",
        "Too many broken seals and a daemon takes the body: arcane 0 or 1 bears 1 seal, 2 bears "
        "2, 3 bears 3, 4 bears 4. The possessed character acts no more, fights with "
        "hand-to-hand 1, moves each turn by the out-of-control card, and every turn takes a "
        "broken heart; with all its hearts broken it takes broken armor tokens, and with three "
        "of those it dies. If its move takes it off the board, mark it escaped: it stays in the "
        "Guild but costs fame. An arcane test by a character whose control zone holds it can "
        "free it; freed with its fatal hearts already broken, it dies. A card effect can "
        "possess or free a character too: the app shows the card's instructions on its sheet "
        "and on the turn bar.",
    ),
    # ------------------------------------------------------------ 7.3
    _e(
        "brawl",
        "Brawl phase",
        BRAWL,
        "7.3, 7.3.2",
        "Characters with an active token move only to engage an enemy, then fight. Attacker "
        "and defender roll fighting dice equal to their hand-to-hand ability; the higher total "
        "wins and the difference decides the damage. Only the character that engaged attacks; "
        "the other defends, and a defender that wins hurts the attacker too.",
    ),
    _e(
        "engaging",
        "Engaging movement",
        BRAWL,
        "7.3.1",
        "Only characters that declare an attack move, with their movement points, to engage; "
        "engaging ends the move. An engaged character may move to engage again, spending at "
        "most 1 point inside the zone of the enemy it was engaged with. A charge adds an "
        "enhanced die to the attack.",
    ),
    _e(
        "first-impact",
        "First impact zone",
        BRAWL,
        "7.3.1",
        "Long-range engagement weapons extend the control zone with a first impact zone. A "
        "character in it at the start of the engaging movement may move closer to its enemy; "
        "a character engaged in the first impact zone only defends and deals no damage even if "
        "it wins.",
    ),
    _e(
        "brawl-modifiers",
        "Hand-to-hand modifiers",
        BRAWL,
        "7.3.2.1",
        "Each further attacker of the same player against the same enemy gets +1 more than the "
        "previous one; an attack from behind (from the three squares behind the target) +2; "
        "favourite weapon +1; a charge adds an enhanced die; each broken heart removes a die. "
        "The defender adds its favourite weapon and its effects.",
    ),
    _e(
        "brawl-effects",
        "Hand-to-hand effects",
        BRAWL,
        "7.3.2.2",
        "Attacker winning by 1: primary weapon damage; by 2: primary and secondary; by 3: "
        "primary twice and secondary; by 4: both twice; by 5 or more: both twice and a broken "
        "heart token. Defender winning by 1 to 5 or more: 1 to 5 general damages. A tie: "
        "nothing. Brawl damage always goes to the armor first.",
    ),
    _e(
        "scenery-destroy",
        "Destroying scenery",
        BRAWL,
        "7.3.2",
        "Instead of its attack, a character may try to destroy a barrel or a fence in its "
        "control zone: a hand-to-hand ability test with +2. Passed, the element leaves the "
        "board.",
    ),
    _e(
        "turn-end",
        "End of the turn",
        BRAWL,
        "7.3.2.3",
        "When everyone has passed the brawl phase, tap Next turn: bleeding and poison act, "
        "effects for this turn expire, movement tokens go back to active, and a new first "
        "player is drawn. The game ends at the turn limit, when a player achieves the "
        "objective, when all agree to stop, or when only one player still has characters in "
        "play.",
    ),
    # ------------------------------------------------------------ 8.1
    _e(
        "weapon-backstack",
        "BACKSTACK",
        WEAPON,
        "8.1",
        "Before taking the damage, the target steps back one square, chosen by its player. If "
        "it has nowhere to go, it takes double damage.",
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
        "A character defending with this weapon rolls fewer fighting dice. The card says x, the "
        "text of 8.1 says one die: the app removes x (HEAVY 1 is one die).",
    ),
    _e(
        "weapon-blooding",
        "BLOODING x",
        WEAPON,
        "8.1",
        "Each time the weapon deals damage, the victim gets x bleeding tokens. Bleeding tokens "
        "hit the character once per token at the start of every turn. A defender that wins a "
        "fight hurts with its primary weapon (table option).",
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
        "Each time the weapon deals damage, the victim gets x poison tokens unless already "
        "poisoned. A poisoned character gains a token at the end of every turn and dies when its "
        "tokens pass its hit factor. A defender that wins a fight hurts with its primary weapon "
        "(table option).",
    ),
    # ------------------------------------------------------------ 8.2
    _e(
        "arcane-care",
        "CARE x",
        ARCANE,
        "8.2",
        "The target loses up to x broken heart tokens. No use on characters already out of the "
        "game.",
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
        "The target gets x poison tokens unless already poisoned; then one more at the end of "
        "every turn, "
        "death when they pass its hit factor.",
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
        "For this turn the target's hand-to-hand ability is x lower, but it always rolls at "
        "least one die (dark mana cubes mark it).",
    ),
    # ------------------------------------------------------------ 8.3
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
        "In the hand-to-hand sub-phase, every character in contact with the summoner takes x "
        "damage on its hit factor.",
    ),
    _e(
        "pentacle-hit",
        "HIT x (pentacle)",
        PENTACLE,
        "8.3",
        "In the hand-to-hand sub-phase, every character in contact with the summoner takes x "
        "damage, armor first.",
    ),
    # ------------------------------------------------------------ 8.4
    _e(
        "ability-monstrous",
        "MONSTROUS x",
        ABILITY,
        "8.4",
        "Passive (spelled MONSTRUOUS on some cards). In fights, enemies roll x fewer dice to "
        "attack and to defend against it, unless they are monstrous too.",
    ),
    _e(
        "ability-fly",
        "FLY x",
        ABILITY,
        "8.4",
        "Activated. In a movement phase, move by spending x points ignoring control zones and "
        "difficult or blocking terrain; walls and windows still stop it.",
    ),
    _e(
        "ability-fury",
        "FURY",
        ABILITY,
        "8.4",
        "Activated on the app. For two turns the character's fighting dice count double (not "
        "the bonuses), and it takes a broken heart at the end of each of those turns.",
    ),
    # ------------------------------------------------------------ readings
    _e(
        "reading-seals",
        "Possessed at the limit or past it",
        READINGS,
        "6.4.2, 7.2.3",
        "6.4.2 says a character is possessed when its broken seals reach the limit, 7.2.3 when "
        "they exceed it. Table option, default: exceed (7.2.3 is the chapter that defines "
        "possession).",
    ),
    _e(
        "reading-bleeding-poison",
        "When bleeding and poison act",
        READINGS,
        "6.4.2, 7, 8.1, 8.2",
        "6.4.2 puts bleeding at the end of the turn and poison at its start; 8.1 and 8.2 put "
        "bleeding at the start and poison at the end. Both are table options (defaults under "
        "Table options below); the basic rule of chapter 7 points to chapter 8.",
    ),
    _e(
        "reading-free",
        "The +3 to free a possessed character",
        READINGS,
        "7.2.3.5",
        "Read literally, adding 3 to the die makes freeing impossible below arcane 4. By "
        "default the app reads the +3 as a help (the ability counts 3 more); the page shows "
        "the highest roll that frees before the roll. Table option.",
    ),
    _e(
        "reading-seal-dice",
        "A die that showed a broken seal",
        READINGS,
        "7.2.3",
        "Removed for the rest of the mission by default, as the text says; a table option "
        "lets it be rolled again.",
    ),
    _e(
        "reading-elimination",
        "Elimination with 3 or 4 players",
        READINGS,
        "7, 7.3.2.3",
        "Chapter 7 ends the game when the characters of one or more players are all gone; "
        "7.3.2.3 when only one player has any left. Table option, default 7.3.2.3.",
    ),
    _e(
        "reading-brawl-4",
        "Winning a brawl by 4",
        READINGS,
        "7.3.2.2",
        "The text says primary weapon doubled plus the secondary; the table says both doubled. "
        "The app follows the table (both doubled), the row the players look at.",
    ),
    _e(
        "reading-heavy",
        "HEAVY x and the favourite weapon in a brawl",
        READINGS,
        "8.1, 7.3.2.1",
        "HEAVY x is read literally: the character who carries the heavy weapon rolls x fewer "
        "dice when it defends (never fewer than one). The favourite weapon bonus (+1) counts "
        "in a brawl when the primary weapon is of the mercenary's favourite type, attacking "
        "or defending.",
    ),
    _e(
        "reading-daemon-level",
        "The daemon level asked for",
        READINGS,
        "5.1.3, 7.2.3.2",
        "The player names the level of the daemon to summon, but the Arcane Code's cost does "
        "not grow with it, so asking for 5 would always draw the strongest. By default the "
        "level asked for is at most the summoner's own level (mercenaries and daemons share "
        "the level indicator, 5.1.3). Table option.",
    ),
    _e(
        "reading-defender-weapon",
        "BLOODING and POISONOUS of a winning defender",
        READINGS,
        "7.3.2.2, 8.1",
        "8.1: every time damage is inflicted with the weapon; 7.3.2: a defender that wins "
        "injures its opponent. By default the defender's 1 to 5 damages carry its primary "
        "weapon's BLOODING and POISONOUS. Table option.",
    ),
    _e(
        "reading-scenery",
        "The +2 to destroy scenery",
        READINGS,
        "7.3.2",
        "Worded like the +3 to free a possessed character and read the same way by default: "
        "the ability counts 2 more. The page shows the highest roll that passes. Table option.",
    ),
    _e(
        "reading-activations",
        "Activations",
        READINGS,
        "7.2, 7.3",
        "Once activated, a character is not activated again until the next phase: the app "
        "refuses a second shot, arcane action (channel, power, summon), attack or hand-to-hand "
        "test of the same character in one phase. The arcane test is not an activation. Table "
        "option (not tracked).",
    ),
    _e(
        "reading-first-player",
        "Less likely first player",
        READINGS,
        "7",
        "The rulebook does not say how much less likely: the app gives the previous first "
        "player weight 1 and every other player weight 2.",
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


def search_text(entry: dict) -> str:
    """What the search looks in (lower case): the title, the section numbers and the text; the
    page puts the same string in each entry's ``data-search``."""
    return f"{entry['title']} {entry['section']} {entry['text']}".lower()


def search(query: str) -> list[dict]:
    """Entries whose title, sections or text contain every word of ``query``
    (case-insensitive), in page order; every entry for an empty query."""
    words = query.lower().split()
    return [e for e in ENTRIES if all(w in search_text(e) for w in words)]


def grouped() -> list[tuple[str, list[dict]]]:
    """``[(group, [entry, ...]), ...]`` in the page's order (``GROUPS``)."""
    return [(g, [e for e in ENTRIES if e["group"] == g]) for g in GROUPS]
