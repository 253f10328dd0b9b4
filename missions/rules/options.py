"""The DemLoc table options (DemLoc rulebook 5.1.1, 6.4.2, 7, 7.2.3, 7.3.2, 8.1, 8.2): what the host
chooses in the lobby where the rulebook reads two ways or says nothing, each with its choices,
its default and the sections behind it. ``DemlocRuleset.options_schema`` (the kit's lobby form,
``tabletop.rules.Ruleset``); ``DemlocRuleset.setup`` fills in the defaults and writes the
chosen options into the opening event, so a table keeps the options it was opened with.

Shape: ``{name: {"label": str, "choices": [[value, words], ...], "default": value, "help"?:
str}}``; every value a string (a form's value).
"""

from __future__ import annotations

OPTIONS_SCHEMA = {
    "seals": {
        "label": "Possessed when the broken seals...",
        "choices": [
            ["exceeded", "exceed the limit (7.2.3)"],
            ["reaches", "reach the limit (6.4.2)"],
        ],
        "default": "exceeded",
    },
    # "The basic rule" (ch. 7): "In case of contradictions, players must
    # always follow the instructions provided in the Abilities and Weapons chapter" (8): 8.1
    # BLOODING "At the beginning of the turn, the bleeding tokens assign as many hits" and 8.1
    # POISONOUS / 8.2 POISON "At the end of each turn ... he will automatically gain an
    # additional one" are the defaults; 6.4.2 ("At the end of the turn ... bleeding", "At the
    # beginning of each turn ... a new poisoning token") stays a table option. A table opened
    # before this change keeps the options written in its opening event.
    "bleeding": {
        "label": "Bleeding hits at the...",
        "choices": [["start", "start of the turn (8.1)"], ["end", "end of the turn (6.4.2)"]],
        "default": "start",
        "help": "8.1 (the Abilities and Weapons chapter, which the basic rule of chapter 7 "
        "follows) says the start; 6.4.2 says the end.",
    },
    "poison": {
        "label": "Poison grows at the...",
        "choices": [["end", "end of the turn (8.1, 8.2)"], ["start", "start of the turn (6.4.2)"]],
        "default": "end",
        "help": "8.1 and 8.2 (followed by the basic rule of chapter 7) say the end; 6.4.2 "
        "says the start.",
    },
    "free_possessed": {
        "label": "Freeing a possessed character: the +3 of 7.2.3.5 is...",
        "choices": [
            ["bonus", "a help (ability + 3)"],
            ["penalty", "added to the die (as printed)"],
        ],
        # Read literally, the +3 makes freeing impossible for arcane 1-3 (the
        # die must be at most the ability) and needs a 1 at arcane 4; the rulebook offers
        # freeing as a purpose of the test, so the default reads it as a help.
        "default": "bonus",
        "help": "Read literally the +3 makes freeing impossible below arcane 4; the default "
        "reads it as a help. The page shows the highest roll that frees before the roll.",
    },
    "seal_dice": {
        "label": "An arcane die that shows a broken seal while channelling is...",
        "choices": [
            ["removed", "removed for the mission (7.2.3)"],
            ["kept", "rolled again later"],
        ],
        "default": "removed",
    },
    "daemon_level": {
        "label": "The daemon level a summoner may ask for is...",
        "choices": [
            ["summoner", "at most the summoner's own level (5.1.3, 7.2.3.2)"],
            ["any", "any level, 1 to 5 (as printed)"],
        ],
        # 7.2.3.2 lets the player "indicate ... the power level of the daemon
        # to be summoned" and draws "in the lower hierarchy" when there is none, but the cost
        # printed on the Arcane Code does not grow with the level, so read alone asking for 5
        # always draws the strongest daemon. 5.1.3 gives mercenaries and daemons the same level
        # indicator of "overall power": by default a summoner calls no daemon above its level.
        "default": "summoner",
        "help": "The rulebook prices a summoning by the Arcane Code, not by the level: the "
        "default caps the level asked for at the summoner's own level.",
    },
    "hand_test": {
        "label": "Destroying scenery: the +2 of 7.3.2 is...",
        "choices": [
            ["bonus", "a help (ability + 2)"],
            ["penalty", "added to the die (as printed)"],
        ],
        # Worded like the +3 of 7.2.3.5 ("adding +2 to the result obtained by rolling the
        # die"); read the same way by default (free_possessed), so a barrel is within reach.
        "default": "bonus",
    },
    "defender_weapon": {
        "label": "A defender that wins a fight (7.3.2.2) deals its weapon's BLOODING/POISONOUS...",
        "choices": [
            ["primary", "with its primary weapon (8.1)"],
            ["none", "never: only the attacker's weapons"],
        ],
        # 8.1 BLOODING x: "Every time the player inflicts damages on a character with a weapon
        # with this ability"; 7.3.2: "even if the defender wins the fight he has the
        # possibility of injuring his opponent". The defender's 1-5 damages are dealt in the
        # fight with the weapon it holds, its primary (the one the table's difference-1 row
        # names for the attacker).
        "default": "primary",
    },
    "activations": {
        "label": "Activations (7.2, 7.3)",
        "choices": [
            ["once", "a character is activated once per phase"],
            ["free", "not tracked by the app"],
        ],
        "default": "once",
        "help": '7.2: "once a character has been activated it cannot be activated again until '
        'the next game phase": one shot, arcane action or brawl attack per phase.',
    },
    # 5.1.1 "abilities with activation ... There is no limit to the abilities that can be
    # activated in each turn (however, always take into consideration the information of the
    # specific personal abilities shown on the card)". Whether "no limit" covers one ability
    # used again in the same phase is not said; a card's effect lasts its phase ("Roll one extra
    # fighting die in this shooting sub-phase"), so by default each ability is used once per
    # phase (``missions.rules.abilities``); a table that reads "no limit" literally lets an
    # ability be paid again, each use counting (Steady Aim twice: two extra dice).
    "ability_uses": {
        "label": "An activated ability (5.1.1) may be used...",
        "choices": [
            ["phase", "once per phase: its effect lasts the phase"],
            ["free", "again and again, each use paid: no limit (5.1.1)"],
        ],
        "default": "phase",
        "help": '5.1.1: "There is no limit to the abilities that can be activated in each turn '
        '(however, always take into consideration the information of the specific personal '
        'abilities shown on the card)". The default reads it as different abilities without '
        "limit, each once per phase; the other choice lets one ability be paid again.",
    },
    "turn_limit": {
        "label": "Turn limit",
        "choices": [["0", "none"], ["3", "3"], ["4", "4"], ["6", "6"], ["8", "8"], ["10", "10"]],
        "default": "0",
    },
    "turn_limit_hidden": {
        "label": "The turn limit is...",
        "choices": [["0", "shown"], ["1", "hidden: the app says when the turns are over (7)"]],
        "default": "0",
    },
    "objective_turns": {
        "label": "Objective control: turns to hold",
        "choices": [["0", "no control objective"], ["2", "2"], ["3", "3"], ["4", "4"]],
        "default": "0",
    },
    "elimination": {
        "label": "Total elimination ends the game when...",
        "choices": [
            ["last", "only one player has characters left (7.3.2.3)"],
            ["any", "any player of 3 or 4 is wiped out (7)"],
        ],
        "default": "last",
        "help": "Chapter 7 and 7.3.2.3 differ for 3-4 players; with 'any' the winner is the "
        "last one standing, else by the kills as the option below says.",
    },
    # Found by a new user: a kill counted only when someone tapped "Count a kill", so a table
    # that did not know the control got a wrong winner on kills. 6.4.2 "Kill counter: Here the
    # player can enter the number and type of enemies he has eliminated": the app applies the
    # shots, fights and powers, so by default it counts their kills itself
    # (``missions.rules.score``); "Count a kill" stays for what it cannot know (a bleeding
    # death). A table opened before this option keeps counting by hand only.
    "kills": {
        "label": "Kills are counted...",
        "choices": [
            ["app", "by the app from shots and brawls"],
            ["hand", "by hand only (Count a kill)"],
        ],
        "default": "app",
        "help": "The app counts a kill when a shot, a fight, an arcane power or a pentacle it "
        "applies kills an enemy character. Deaths it cannot attribute (bleeding, possession, "
        "poison as the option below says) are entered with 'Count a kill'.",
    },
    # 6.4.2's kill counter says "enemies he has eliminated"; whether a poison death (8.1
    # POISONOUS, 8.2 POISON: a token more each turn until they exceed the hit factor) is the
    # poisoner's elimination is not said. A character takes poison once (no new tokens while
    # poisoned), so the attack that poisoned it is known when the app applied it: by default
    # its death counts for that attacker's player (found by a new user: poison deaths were
    # counted by hand). With "hand", or poison put on by hand, "Count a kill" as before. A
    # table opened before this option counts them by hand.
    "poison_kills": {
        "label": "A death by poison counts as a kill...",
        "choices": [
            ["poisoner", "of the player whose attack poisoned it"],
            ["hand", "of nobody (enter it with Count a kill)"],
        ],
        "default": "poisoner",
        "help": "With kills counted by the app: the shot, fight or arcane power that put the "
        "poison tokens on (8.1 POISONOUS, 8.2 POISON). Poison added by hand counts for nobody.",
    },
    # Who wins when nobody reached the objective (turn limit, agreement to stop, one of 3-4
    # wiped out): the rulebook does not say (6.4.2 "Kill counter ... essential for awarding
    # feods and fame bonus"). By kill fame, a mission paying kills only in feods ends "2 kills
    # to 0" as a draw; by default the kills are counted. A table opened before this option
    # keeps the kill fame.
    "kills_win": {
        "label": "With no objective reached, the winner is the player with...",
        "choices": [
            ["count", "the most kills (the kill counter, 6.4.2)"],
            ["fame", "the most fame from kills (the mission's kill rewards)"],
        ],
        "default": "count",
        "help": "At a turn limit, an agreement to stop or when one of 3-4 players is wiped "
        "out, among the players with characters in play. Equal: a draw.",
    },
    # 7.3.2.3 "Opponent surrender: when a player decides to stop the game, he/she can ask the
    # other players the possibility to end the mission. If all the other players agree, it is
    # possible to tap end game". Whether the one who asked loses is not said.
    "surrender": {
        "label": "When everyone agrees to stop (7.3.2.3), the player who asked first...",
        "choices": [
            ["agreement", "does not lose: the mission is won as at a turn limit"],
            ["loses", "surrenders: loses the mission and pays the defeat"],
        ],
        "default": "agreement",
        "help": "The first player to tap Agree to stop in the turn is the one who asked.",
    },
    # 7.3.2.3: "When all players have finished their brawl phase, the turn is over ... The
    # players can then tap the "new turn" button ... or ... "end game"": the end game comes
    # after a turn is over, so by default an agreement to stop closes the turn in progress
    # with its end-of-turn effects (poison grows, 8.1, 8.2). "Opponent surrender" does not say
    # whether a table that stops mid-turn plays them: players could differ.
    "stop_turn_end": {
        "label": "When everyone agrees to stop mid-turn (7.3.2.3), the turn in progress...",
        "choices": [
            ["close", "ends first: its end-of-turn effects apply (poison grows)"],
            ["none", "stops where it is: no end-of-turn effects"],
        ],
        "default": "close",
        "help": "7.3.2.3 ends a game once a turn is over; the Agree to stop that ends the "
        "mission says which.",
    },
    # No rulebook number: 6.4.2 "players check the counter of fate points they can spend" and
    # 5.1.1 price abilities in fate points, but no page says how many a player starts with.
    "fate_points": {
        "label": "Fate points each player starts a mission with",
        "choices": [[str(n), str(n)] for n in range(0, 7)],
        "default": "3",
        "help": "The rulebook gives no number; 3 pays one or two activated abilities.",
    },
    # 7.2.1: an object is "placed on top of the card of the character who performed the action
    # of collecting"; "Only objects owned by the mercenaries are considered in determining the
    # winner". A killed mercenary owns nothing: by default its relic tokens fall where it died
    # (as a deposit: "placed on the board in the same space occupied by the character"). A table
    # opened before this option keeps counting them.
    "relic_death": {
        "label": "A relic carried by a mercenary who is killed...",
        "choices": [
            ["dropped", "falls where it died: it no longer counts (7.2.1)"],
            ["kept", "still counts for its Guild"],
        ],
        "default": "dropped",
    },
    # 7.2.2.4 "equal to the armor factor ... the character's armor absorbed the impact"; the
    # table: "Weapon damage assigned to the armor of the target character (if still present)".
    # Damage assigned to the armor carries over from one armor step to the next and, after the
    # third broken armor token, to the hit factor (6.4.2 general damage). By default an equal
    # shot never wounds: what is left once the armor is gone is lost. A table opened before
    # this option lets it carry over.
    "equal_shot": {
        "label": "An equal shot (7.2.2.4) whose damage breaks the last armor...",
        "choices": [
            ["armor", "stays in the armor: the armor absorbed it, no wound"],
            ["carry", "carries over to the hit factor like any damage"],
        ],
        "default": "armor",
    },
    "objective_claim": {
        "label": "Objective achieved is...",
        "choices": [
            ["confirm", "claimed by a player, confirmed by the others"],
            ["claimer", "tapped by the player who reached it (7.3.2.3)"],
        ],
        "default": "confirm",
        "help": "7.3.2.3: at the end of the turn 'the player who has reached the mission "
        "objective can tap end game'. The claim decides the winner and the app cannot see the "
        "board, so by default the other players confirm it, as they do a surrender.",
    },
    "control": {
        "label": "Who may change a character",
        "choices": [["owner", "its player"], ["anyone", "any player (one shared phone)"]],
        "default": "owner",
    },
}


__all__ = ["OPTIONS_SCHEMA"]
