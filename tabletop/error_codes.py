"""The catalogue of error codes (STYLE.md 5): code -> (class, default message).

One class, hence one HTTP status, per code: ``RuleViolation`` 400, ``NotAllowed`` 403,
``NotFound`` 404, ``Conflict`` 409. ``tests/tabletop/test_error_catalogue.py`` fails when a code
raised anywhere in the project is missing here, is raised with another class, or is asserted
by no test. The messages here are the usual wording; a raise may say more. Pure (no Django).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from tabletop.errors import Conflict, NotAllowed, NotFound, RuleViolation, TabletopError, Throttled

CATALOGUE: dict[str, tuple[type[TabletopError], str]] = {
    "already_acted": (RuleViolation, "You can only purge before any other action."),
    "already_struck": (
        RuleViolation,
        "…'s pentacle has struck in this hand-to-hand attack sub-phase already (8.3).",
    ),
    "already_activated": (RuleViolation, "… was already activated this phase (7.2): it cannot … until the next phase."),
    "already_assigned": (RuleViolation, "… already has its code and dice (7.2.3.2)."),
    "already_closed": (RuleViolation, "The mission is already closed."),
    "already_chosen": (RuleViolation, "… is already chosen."),
    "already_claimed": (RuleViolation, "That card is taken."),
    "already_declined": (RuleViolation, "You have already declined."),
    "already_done": (RuleViolation, "You have already set up your circle."),
    "already_left": (RuleViolation, "This Guild has left already."),
    "already_offered": (RuleViolation, "Your offer is already made."),
    "already_placed": (RuleViolation, "… is already placed."),
    "already_poisoned": (RuleViolation, "… is already poisoned: no new poison tokens (6.4.2)."),
    "already_possessed": (RuleViolation, "… is already possessed."),
    "already_ready": (RuleViolation, "You tapped Next: your choice is made."),
    "already_started": (RuleViolation, "The game has already started."),
    "already_summoning": (RuleViolation, "… already has a daemon in play."),
    "arcane_code_not_found": (NotFound, "No such arcane code in your Guild."),
    "armory_full": (RuleViolation, "The armory holds … weapons. Upgrade it to hold more."),
    "area_taken": (RuleViolation, "… is the deployment area of …: place it in … (6.4.1)."),
    "at_most_three": (RuleViolation, "At most 3 broken armor tokens."),
    "bad_action": (RuleViolation, "Choose which action card you played."),
    "bad_amount": (RuleViolation, "Add from -10 to 10, not 0."),
    "bad_area": (RuleViolation, "Place it in a deployment area: …."),
    "bad_card": (RuleViolation, "…: … must be a whole number."),
    "bad_cards": (RuleViolation, "Choose Courage cards you hold."),
    "bad_cell": (RuleViolation, "… is outside the …x… district."),
    "bad_cells": (RuleViolation, "Bad cells."),
    "bad_colour": (RuleViolation, "Choose red, blue, yellow or green."),
    "bad_command": (RuleViolation, "A command needs a type (a short string)."),
    "bad_count": (RuleViolation, "Enter what the arcane dice show."),
    "bad_declaration": (RuleViolation, "Bad declaration."),
    "bad_dice": (RuleViolation, "A fighting die shows 1 to …."),
    "bad_direction": (RuleViolation, "…: its second block is right or down."),
    "bad_effect": (RuleViolation, "Unknown effect."),
    "bad_extra": (RuleViolation, "Bad extra."),
    "bad_fate": (RuleViolation, "Fate points spent cannot be negative."),
    "bad_feature": (RuleViolation, "… is not a feature like 'SHIELD 1'."),
    "bad_feods": (RuleViolation, "Reserved feods are 0 or more."),
    "bad_guild": (RuleViolation, "A Guild needs an id."),
    "bad_half": (RuleViolation, "A small card goes upright at the top or inverted at the bottom."),
    "bad_heal_feods": (RuleViolation, "A healing cost is 0 or more feods."),
    "bad_hearts": (RuleViolation, "Give the daemon 1 to 3 heart tokens."),
    "bad_idempotency_key": (RuleViolation, "The request id must be 1-80 characters."),
    "bad_index": (RuleViolation, "Choose a card of the market."),
    "revoke_first": (NotAllowed, "A phone holds this seat: take the seat from its phone first, then give it."),
    "bad_input": (RuleViolation, "Mana is common (white) or dark (black)."),
    "bad_kind": (RuleViolation, "kind is one of …."),
    "bad_mercenary": (RuleViolation, "Mercenaries are chosen by id."),
    "bad_mission": (RuleViolation, "The mission has no known type."),
    "bad_mode": (RuleViolation, "Damage is general (armor first) or a hit."),
    "bad_move": (RuleViolation, "A seat moves one place up or down."),
    "bad_name": (RuleViolation, "A Guild name has … to … characters (yours: …)."),
    "bad_number": (RuleViolation, "…: numbers are written with 0-9."),
    "bad_opponent": (RuleViolation, "Choose another player to duel."),
    "bad_option": (RuleViolation, "Choose one of the answers."),
    "bad_order": (RuleViolation, "The first attacker is number 1."),
    "bad_outcome": (RuleViolation, "Choose who won the duel, or a tie."),
    "bad_parity": (RuleViolation, "Choose odd or even."),
    "bad_player_count": (RuleViolation, "Demon Espionage is for 3 to 6 players."),
    "bad_points": (RuleViolation, "Points from -50 to 50."),
    "bad_reason": (RuleViolation, "Unknown ledger reason …."),
    "bad_roll": (RuleViolation, "A d6 shows 1 to 6."),
    "bad_roster": (RuleViolation, "A guest Guild has 1 to … mercenaries."),
    "bad_seat_token": (NotFound, "This rejoin code is not valid any more."),
    "bad_seats": (RuleViolation, "Personal Demons is for 1 to 4 players."),
    "bad_shift": (RuleViolation, "There is no room to shift that way."),
    "bad_sin": (RuleViolation, "Choose glut, hate or want."),
    "bad_size": (RuleViolation, "Unknown card size."),
    "bad_slot": (RuleViolation, "A weapon goes in the primary or secondary space."),
    "bad_space": (RuleViolation, "Choose a space of the circle."),
    "bad_status": (RuleViolation, "Unknown status …."),
    "bad_step": (RuleViolation, "Remove damage from the armor or the hit step."),
    "bad_suit": (RuleViolation, "Name a suit."),
    "bad_suits": (RuleViolation, "… has no …."),
    "bad_target": (RuleViolation, "A character cannot free itself."),
    "bad_token": (RuleViolation, "Unknown token."),
    "bad_values": (RuleViolation, "Bad values."),
    "bad_vessel": (RuleViolation, "Choose a Vessel of this ritual."),
    "bad_wave": (RuleViolation, "Hold it back for one of the waves: turn … (6.4.1)."),
    "bonus_taken": (RuleViolation, "Only ONE bonus action per turn."),
    "building_max_level": (RuleViolation, "This building is already at its top level."),
    "calc_pending": (RuleViolation, "Apply or cancel the calculation on the table first."),
    "can_place": (RuleViolation, "This card has a legal place: place it."),
    "cannot_end": (
        RuleViolation,
        "The game ends by turn limit, objective, surrender or total elimination (7.3.2.3).",
    ),
    "cannot_escape": (RuleViolation, "… is a dignitary: dignitaries cannot escape (7.2.1)."),
    "cannot_summon": (RuleViolation, "Only mercenaries summon daemons (5.1.2)."),
    "card_banned": (RuleViolation, "Your curses forbid playing the … (it counts as …)."),
    "card_not_found": (NotFound, "No such card."),
    "characters_done": (
        RuleViolation,
        "Your characters are chosen: your Guild stays as it was brought for this mission.",
    ),
    "claim_pending": (RuleViolation, "An objective claim waits for the other players."),
    "code_already_held": (RuleViolation, "… already holds it."),
    "code_held_elsewhere": (RuleViolation, "… is held by …: take it back first."),
    "code_not_held": (RuleViolation, "… is on the library shelf."),
    "code_unknown": (RuleViolation, "That code does not exist. Check the card in the box."),
    "code_used": (RuleViolation, "That code has already been used."),
    "codes_full": (
        RuleViolation,
        "A character with arcane ability … holds at most … Arcane Codes.",
    ),
    "contested": (
        RuleViolation,
        "Settle the contested mercenary first (5.1.1): make your offer or free the slot.",
    ),
    "control_point_not_found": (NotFound, "No such control point."),
    "daemon_in_pantheon": (RuleViolation, "… is already in your pantheon."),
    "daemon_not_found": (NotFound, "No such daemon in your Guild."),
    "deck_empty": (RuleViolation, "Both piles of that deck are empty."),
    "deploying": (RuleViolation, "Place the miniatures first."),
    "discard_count": (RuleViolation, "Discard exactly … card(s) to keep …."),
    "duel_in_progress": (RuleViolation, "A duel is already under way."),
    "duplicate_mercenary": (RuleViolation, "… twice: two mercenaries of one name (5.1.1)."),
    "eater_attached": (RuleViolation, "An Eater is attached to this Demon: feed it first."),
    "event_closed": (RuleViolation, "This event is over: see what came of it."),
    "event_not_found": (NotFound, "No such event for your Guild."),
    "expedition_not_found": (NotFound, "No such expedition of your Guild."),
    "expedition_settled": (RuleViolation, "That party is already back."),
    "expedition_under_way": (RuleViolation, "Your mercenaries are already on their way to …."),
    "fame_too_low": (
        RuleViolation,
        "A level … mercenary joins a Guild with at least … fame (yours: …).",
    ),
    "feods_reserved": (RuleViolation, "… feods are reserved for the mission at …."),
    "follower_not_found": (NotFound, "No such follower in your Guild."),
    "follower_taken": (
        RuleViolation,
        "Every … card of this mission is already enlisted at the table (5.1.2).",
    ),
    "game_over": (RuleViolation, "This game is over."),
    "guest_guild_not_found": (NotFound, "No such guest Guild."),
    "guesthouse_full": (RuleViolation, "The guesthouse lodges … followers. Upgrade it first."),
    "guild_bound": (RuleViolation, "This seat has already brought its Guild."),
    "guild_exists": (RuleViolation, "You already lead a Guild."),
    "guild_not_found": (NotFound, "No such Guild."),
    "guild_twice": (RuleViolation, "… is already at this table: one Guild per player."),
    "guilds_missing": (RuleViolation, "Every player brings a Guild first."),
    "half_taken": (RuleViolation, "That half of the space is taken."),
    "hands_full": (
        RuleViolation,
        "Nothing can be held below a two-handed weapon: unequip it first.",
    ),
    "health_full": (RuleViolation, "Health cannot go above 5."),
    "hold_not_found": (NotFound, "This Guild is not at that mission."),
    "host_only": (NotAllowed, "Only the host (seat 1) can do that."),
    "host_stays": (RuleViolation, "The host's own seat cannot be removed."),
    "idempotency_key_reused": (Conflict, "That request id was already used for another command."),
    "income_not_found": (NotFound, "No such income period."),
    "keep_three": (RuleViolation, "Keep three Courage cards."),
    "keep_two": (RuleViolation, "Keep exactly two of your four hefty/colossal cards."),
    "level_limit_reached": (RuleViolation, "Your Guild may hold … mercenaries of level …."),
    "level_too_high": (
        RuleViolation,
        "… (level …) summons daemons of level … or lower (5.1.3, 7.2.3.2).",
    ),
    "library_full": (RuleViolation, "The library holds … Arcane Codes. Upgrade it to hold more."),
    "login_locked": (Throttled, "Too many failed logins: try again in … s."),
    "login_required": (NotAllowed, "Log in with your Guild Master account first."),
    "mana_missing": (RuleViolation, "Enter the arcane dice of …."),
    "mercenary_absent": (RuleViolation, "… is away from the Guild."),
    "mercenary_busy": (
        RuleViolation,
        "… is away: only active mercenaries in the dormitory can be sent.",
    ),
    "mercenary_dead": (RuleViolation, "… is dead and can never be used again."),
    "mercenary_injured": (RuleViolation, "… is injured: heal first."),
    "mercenary_not_found": (NotFound, "No such mercenary in your Guild."),
    "mercenary_taken": (
        RuleViolation,
        "… sides with … for this mission: a settled contest is final (5.1.1).",
    ),
    "mission_not_found": (NotFound, "No such mission."),
    "mission_over": (RuleViolation, "The mission is over."),
    "must_discard": (RuleViolation, "… cannot be placed: discard it."),
    "name_taken": (RuleViolation, "You already have a guest Guild of that name."),
    "no_ability": (RuleViolation, "… has no personal ability."),
    "no_arcane": (RuleViolation, "… has no arcane ability."),
    "no_arcane_ability": (
        RuleViolation,
        "Only characters with arcane ability above 0 use Arcane Codes.",
    ),
    "no_arcane_effect": (RuleViolation, "… carries no arcane effect token to cancel (7.2.3.5)."),
    "no_calc": (RuleViolation, "There is no calculation to apply."),
    "no_change": (RuleViolation, "The counter already runs for you."),
    "no_characters": (RuleViolation, "Choose at least one character."),
    "no_choice": (RuleViolation, "Nothing to keep now."),
    "no_claim": (RuleViolation, "Nobody claims the objective now."),
    "no_contest": (RuleViolation, "No contested mercenary of yours by that name."),
    "no_copy_left": (RuleViolation, "All your … copies of … are already in use."),
    "no_courage": (RuleViolation, "You have no Courage card to discard."),
    "no_daemon": (RuleViolation, "The pantheon has no … daemon of level … or lower."),
    "no_demon": (RuleViolation, "There is no Demon there to bind."),
    "no_discard": (RuleViolation, "You hold three Courage cards or fewer: keep them."),
    "no_duel": (RuleViolation, "No duel is under way."),
    "no_eater": (RuleViolation, "No such Eater there."),
    "no_fear": (RuleViolation, "You have no Fear left to face."),
    "no_fury": (RuleViolation, "… has no FURY."),
    "no_guild": (NotFound, "Found your Guild first."),
    "no_guild_here": (RuleViolation, "This seat has brought no Guild to the mission."),
    "no_mana": (RuleViolation, "… needs an arcane die in its mana pool for the test (7.2.3)."),
    "no_objective": (RuleViolation, "This mission has no control objective."),
    "no_offer": (RuleViolation, "No colossal ability waits for your choice."),
    "no_pentacle": (RuleViolation, "No summoning pentacle is active."),
    "no_power": (RuleViolation, "… has no arcane power to use now."),
    "no_relic": (RuleViolation, "This mission has no relic."),
    "no_room": (RuleViolation, "You need an empty space or half-space to summon a Fragment."),
    "no_such_character": (RuleViolation, "No such character at this table."),
    "no_such_follower": (RuleViolation, "That follower is not offered for this mission."),
    "no_such_seat": (NotFound, "There is no such seat."),
    "no_vessel": (RuleViolation, "The Vessel Stack is empty."),
    "no_waves": (RuleViolation, "Only a wave mission holds characters back."),
    "no_weapon": (RuleViolation, "… needs a weapon (5.1.4)."),
    "nobody_ready": (
        RuleViolation,
        "Nobody in … can play a mission yet: enlist mercenaries in the Dormitory first and arm "
        "them in the Armory.",
    ),
    "not_a_daemon": (RuleViolation, "… is not a summoned daemon (7.2.3.2)."),
    "not_a_mission": (RuleViolation, "This table has no mission."),
    "not_a_player": (NotAllowed, "Only a player of this mission can continue it."),
    "not_active": (RuleViolation, "Channelling needs an active movement token."),
    "not_bound": (RuleViolation, "That Demon is not bound to you."),
    "not_chosen": (RuleViolation, "That character is not in your slots."),
    "not_closed": (RuleViolation, "Close this mission first."),
    "not_eater": (RuleViolation, "Play an Eater."),
    "not_ended": (RuleViolation, "The mission has not ended yet."),
    "not_enough_blood_stones": (RuleViolation, "This costs … blood stones; your Guild has …."),
    "not_enough_fate": (RuleViolation, "Not enough fate points."),
    "not_enough_feods": (
        RuleViolation,
        "This mission would charge … feods; your Guild has … to spend now.",
    ),
    "not_enough_mana": (RuleViolation, "… lacks … mana."),
    "not_enough_players": (RuleViolation, "… needs at least … players."),
    "not_enough_sin": (RuleViolation, "You need … …; you have …."),
    "not_found": (NotFound, "No such table, or it is not yours to see."),
    "piece_not_found": (NotFound, "No such character at this table."),
    "not_in_database": (
        RuleViolation,
        "… is not in your database: redeem the code of its set at the City Gate.",
    ),
    "not_in_hand": (RuleViolation, "That card is not in your hand."),
    "not_in_play": (RuleViolation, "… is no longer in play."),
    "not_injured": (RuleViolation, "… is not injured."),
    "not_now": (RuleViolation, "No ritual is being performed."),
    "not_permanent": (RuleViolation, "… only joins for one mission at a time."),
    "not_possessed": (RuleViolation, "… is not possessed."),
    "not_ranged": (RuleViolation, "… is not a ranged weapon."),
    "not_seated": (NotFound, "No such mission, or no seat of yours at its table."),
    "not_setup": (RuleViolation, "Setup channelling happens before the first turn is played."),
    "not_started": (RuleViolation, "The game has not started yet."),
    "not_three_of_a_kind": (RuleViolation, "Summon with three cards of one suit or one rank."),
    "not_turn_end": (RuleViolation, "An objective is achieved at the end of the turn (7.3.2.3)."),
    "not_your_action": (NotAllowed, "The last action is …'s: only they can undo it."),
    "not_your_bonus": (RuleViolation, "Wait: bonus actions go from the Leader clockwise."),
    "not_your_character": (RuleViolation, "… belongs to another player."),
    "not_your_fight": (RuleViolation, "Only the players in this fight confirm it."),
    "not_your_phase": (RuleViolation, "Wait for the acting player to pass."),
    "not_your_prompt": (RuleViolation, "Another player must answer."),
    "not_your_seat": (NotAllowed, "Join the table with your own account first."),
    "not_your_table": (NotAllowed, "That seat is not at this table."),
    "not_your_turn": (RuleViolation, "… places a miniature now."),
    "not_yours": (RuleViolation, "That is not one of your Personal Demons."),
    "nothing_drawn": (RuleViolation, "You have no summoned card to place."),
    "nothing_happened": (RuleViolation, "That changes nothing."),
    "cannot_revert": (
        RuleViolation,
        "A power whose kill reached a daemon and its summoner stands: no defend test.",
    ),
    "nothing_to_defend": (
        RuleViolation,
        "No arcane power targeted … this phase (or it was already tested).",
    ),
    "nothing_to_redo": (RuleViolation, "Nothing to redo."),
    "nothing_to_remove": (RuleViolation, "No such cube to remove."),
    "nothing_to_undo": (
        RuleViolation,
        "Nothing to undo (the last action showed hidden information or started the game).",
    ),
    "object_taken": (RuleViolation, "… picked up or put down an object this turn (7.2.1): it cannot shoot or use an arcane power until the next turn."),
    "off_circle": (RuleViolation, "Cards must lie within the sixteen spaces."),
    "on_big_card": (RuleViolation, "Regular cards may not be placed on hefty or colossal cards."),
    "on_fear": (RuleViolation, "No card may ever be played on top of a Fear."),
    "on_mission": (
        RuleViolation,
        "… is at the table in …: they cannot be … until the mission is closed (6.4).",
    ),
    "over_empty": (RuleViolation, "Personal Demons may not be placed over empty spaces."),
    "over_face_down": (RuleViolation, "Personal Demons may not be placed over face-down cards."),
    "over_wrong_size": (RuleViolation, "Personal Demons go only over regular-sized cards."),
    "overlap": (RuleViolation, "… and … share …."),
    "own_claim": (
        RuleViolation, "The other players confirm your claim; to take it back, tap Undo."
    ),
    "pact_not_met": (RuleViolation, "Your Pact is not met yet."),
    "pantheon_full": (RuleViolation, "A pantheon holds … daemons."),
    "party_empty": (RuleViolation, "Choose at least one active mercenary to send."),
    "party_too_large": (RuleViolation, "A party has at most … mercenaries."),
    "passive_ability": (RuleViolation, "… is passive: it needs no activation (5.1.1)."),
    "placement_possible": (RuleViolation, "… can be placed, so it may not be discarded."),
    "point_already_held": (RuleViolation, "… is already yours."),
    "position_used": (
        RuleViolation,
        "The Waning: you already took that position in this set of three rounds.",
    ),
    "possessed": (RuleViolation, "Possessed."),
    "primary_slot_empty": (RuleViolation, "Equip the top (primary) space before the lower one."),
    "raffle_done": (RuleViolation, "The control spot is already drawn."),
    "raffle_missing": (RuleViolation, "The control spot has not been drawn yet."),
    "rank_mismatch": (RuleViolation, "Exorcise it with a … from your hand."),
    "requirements_unmet": (RuleViolation, "You lack the seals this card requires."),
    "ritual_fails": (RuleViolation, "Play 1 to 4 cards that meet the corners."),
    "royal_face_down": (RuleViolation, "Cards from the Royal deck may never be placed face down."),
    "seat_has_account": (NotAllowed, "… plays with their own account: they bring their Guild."),
    "seat_not_found": (NotFound, "Choose the friend's seat."),
    "server_only": (RuleViolation, "Close the mission from the resolution page."),
    "setup_first": (RuleViolation, "The mission is being prepared (…): finish that first."),
    "slot_occupied": (RuleViolation, "The … space already holds a weapon."),
    "slots_full": (
        RuleViolation,
        "The dormitory is full (… slots). Upgrade it or dismiss someone.",
    ),
    "small_on_card": (RuleViolation, "Small cards may not be placed on top of other cards."),
    "stale_version": (Conflict, "Someone acted just before you: look, then tap again."),
    "suit_mismatch": (RuleViolation, "Feed the Eater a card of its suit."),
    "summoning": (RuleViolation, "… cannot move while its daemon plays (7.2.3.2)."),
    "table_full": (RuleViolation, "… seats at most …."),
    "table_started": (RuleViolation, "The game has started: seats are fixed."),
    "take_pending": (RuleViolation, "First take a card from the hand you see."),
    "throttled": (Throttled, "Too many tries: try again in … s."),
    "too_large": (RuleViolation, "That command is too large."),
    "too_late": (RuleViolation, "You declined and a later player has acted."),
    "too_many_copies": (RuleViolation, "The game has only … … card(s)."),
    "too_many_dice": (RuleViolation, "… can roll … arcane dice now."),
    "training": (RuleViolation, "A training mission has no raffle (6.4)."),
    "turn_limit": (RuleViolation, "Turn … was the last: end the game."),
    "turn_not_over": (RuleViolation, "Finish the strategic and brawl phases first."),
    "turn_over": (RuleViolation, "The turn is over: tap Next turn."),
    "two_handed_needs_free_hands": (
        RuleViolation,
        "A two-handed weapon needs both spaces free: unequip the other weapon first.",
    ),
    "two_handed_needs_top": (RuleViolation, "A two-handed weapon only goes in the top space."),
    "type_limit_reached": (RuleViolation, "Your Guild may hold … … mercenaries."),
    "unknown_building": (RuleViolation, "There is no building called …."),
    "unknown_command": (RuleViolation, "Unknown command …."),
    "unknown_game": (NotFound, "There is no game called …."),
    "variant_unsupported": (RuleViolation, "Three's Company is for three players."),
    "vessel_undeclared": (RuleViolation, "Declare a suit and a rank for each Vessel."),
    "wait_placement": (
        RuleViolation,
        "Wait until the drawn card is placed and every choice is made.",
    ),
    "weapon_already_equipped": (RuleViolation, "… already holds this weapon."),
    "weapon_equipped_elsewhere": (RuleViolation, "… is held by …: unequip it first."),
    "weapon_not_equipped": (RuleViolation, "… is in the armory."),
    "weapon_not_found": (NotFound, "No such weapon in your Guild."),
    "wild_colour_needed": (RuleViolation, "Choose the colour of your all-purple seal."),
    "wrong_card": (RuleViolation, "Play a Mimic."),
    "wrong_kabbalah": (RuleViolation, "… summons … daemons only."),
    "wrong_phase": (RuleViolation, "Not now: this is the … phase."),
    "wrong_sin": (RuleViolation, "This card must be paid with …."),
    "wrong_stage": (RuleViolation, "Wrong stage."),
    "wrong_step": (RuleViolation, "That is not possible at this step of the ritual."),
}


#: The names a code is raised with: the classes (``TabletopError`` itself takes a ``code=``);
#: a subclass defined in the scanned source counts as the first of these it derives from
#: (``guilds.services.reserves.OnMission`` is a ``RuleViolation``), except a direct subclass of
#: ``TabletopError`` with its own status (``Throttled``), which counts as itself.
RAISERS = frozenset({"RuleViolation", "NotAllowed", "NotFound", "Conflict", "TabletopError"})
#: Helpers that raise a code handed to them: name -> (position of the code argument, class).
CODE_ARGS = {
    "require": (1, "RuleViolation"),  # Decision.require / the games' require(cond, code, msg)
    "get_owned": (2, "NotFound"),  # guilds.services._common.get_owned(queryset, pk, code)
    "Readiness": (1, "RuleViolation"),  # guilds.services.dormitory.Readiness(ok, code, msg)
}


def _codes(node: ast.AST | None) -> list[str]:
    """The literal codes ``node`` can be: a string, or a conditional of strings."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _codes(node.body), _codes(node.orelse)
        return body + orelse if body and orelse else []
    return []


def _name(node: ast.AST) -> str | None:
    return getattr(node, "id", None) or getattr(node, "attr", None)


def codes_raised_in(*paths: Path) -> dict[str, set[tuple[str, str]]]:
    """Every code the Python source under ``paths`` (files or folders; ``migrations`` skipped)
    raises, read from the source: the first argument of ``RuleViolation``/``NotAllowed``/
    ``NotFound``/``Conflict`` (or of a subclass defined there), the code argument of the
    ``CODE_ARGS`` helpers, and every ``code=`` keyword; a code may be a literal or a
    conditional of literals. ``{code: {(class name, "path:line")}}`` (``TabletopError(code=)``
    counts as ``RuleViolation``, its default class). A code computed any other way is not
    seen: write codes literally. Used by the catalogue test and the API schema."""
    found: dict[str, set[tuple[str, str]]] = defaultdict(set)
    files = sorted(
        f
        for p in paths
        for f in ([p] if p.is_file() else p.rglob("*.py"))
        if "migrations" not in f.parts
    )
    trees = [(path, ast.parse(path.read_text())) for path in files]
    base = {name: name for name in RAISERS}
    grown = True
    while grown:  # subclasses of subclasses
        grown = False
        for _, tree in trees:
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in base:
                    roots = [base[b] for b in map(_name, node.bases) if b in base]
                    if roots:
                        own = roots[0] == "TabletopError"
                        base[node.name], grown = node.name if own else roots[0], True
    for path, tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            codes: list[str] = []
            cls = None
            if name in base and node.args:
                cls, codes = base[name], _codes(node.args[0])
            elif name in CODE_ARGS and len(node.args) > CODE_ARGS[name][0]:
                cls, codes = CODE_ARGS[name][1], _codes(node.args[CODE_ARGS[name][0]])
            for kw in node.keywords:
                if kw.arg == "code" and _codes(kw.value):
                    codes = _codes(kw.value)
                    cls = cls if name in base else "RuleViolation"
            kind = "RuleViolation" if cls in (None, "TabletopError") else str(cls)
            for code in codes:
                found[code].add((kind, f"{path}:{node.lineno}"))
    return found
