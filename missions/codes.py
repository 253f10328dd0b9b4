"""The error codes of DemLoc missions: every code raised in ``missions`` (the DemLoc rules and
the mission lifecycle), with its class (hence its HTTP status) and its usual message (a raise
may say more). ``tabletop.error_codes.catalogue()`` gathers the ``CODES`` of every app; the
tests check them against the source (``tests/tabletop/test_error_catalogue.py``;
docs/architecture.md, "Interfaces and errors").

``RULES``: the refusals of the DemLoc rules (``missions.rules``); ``LIFECYCLE``: those only the
mission lifecycle gives (``missions.services``, the pages). ``COMMAND_CODES``: what a DemLoc
table command may answer besides the kit's codes: the rules' refusals and the Guild hold's
(``missions.services.on_command_applied`` runs in the command's transaction). ``API_CODES``:
what the mission API may answer besides the kit's (``missions.api``, ``missions.services``,
``missions.report``). Both for the API schema (``tabletop.openapi``).
"""

from __future__ import annotations

from guilds.codes import HOLD_CODES
from tabletop.errors import NotAllowed, NotFound, RuleViolation, TabletopError

RULES: dict[str, tuple[type[TabletopError], str]] = {
    "already_struck": (
        RuleViolation,
        "…'s pentacle has struck in this hand-to-hand attack sub-phase already (8.3).",
    ),
    "ability_used": (RuleViolation, "… was already used this phase: once per phase, its effect lasts the phase (5.1.1, 7.2)."),
    "already_activated": (RuleViolation, "… was already activated this phase (7.2): it cannot … until the next phase."),
    "already_assigned": (RuleViolation, "… already has its code and dice (7.2.3.2)."),
    "already_chosen": (RuleViolation, "… is already chosen."),
    "already_left": (RuleViolation, "This Guild has left already."),
    "already_offered": (RuleViolation, "Your offer is already made."),
    "already_placed": (RuleViolation, "… is already placed."),
    "already_poisoned": (RuleViolation, "… is already poisoned: no new poison tokens (6.4.2)."),
    "already_possessed": (RuleViolation, "… is already possessed."),
    "already_ready": (RuleViolation, "You tapped Next: your choice is made."),
    "already_summoning": (RuleViolation, "… already has a daemon in play."),
    "area_taken": (RuleViolation, "… is the deployment area of …: place it in … (6.4.1)."),
    "at_most_three": (RuleViolation, "At most 3 broken armor tokens."),
    "bad_area": (RuleViolation, "Place it in a deployment area: …."),
    "bad_card": (RuleViolation, "…: … must be a whole number."),
    "bad_count": (RuleViolation, "Enter what the arcane dice show."),
    "bad_dice": (RuleViolation, "A fighting die shows 1 to …."),
    "bad_effect": (RuleViolation, "Unknown effect."),
    "bad_extra": (RuleViolation, "Bad extra."),
    "bad_fate": (RuleViolation, "Fate points spent cannot be negative."),
    "bad_feature": (RuleViolation, "… is not a feature like 'SHIELD 1'."),
    "bad_guild": (RuleViolation, "A Guild needs an id."),
    "bad_hearts": (RuleViolation, "Give the daemon 1 to 3 heart tokens."),
    "bad_input": (RuleViolation, "Mana is common (white) or dark (black)."),
    "bad_mission": (RuleViolation, "The mission has no known type."),
    "bad_mode": (RuleViolation, "Damage is general (armor first) or a hit."),
    "bad_option": (RuleViolation, "Choose one of the answers."),
    "bad_order": (RuleViolation, "The first attacker is number 1."),
    "bad_roll": (RuleViolation, "A d6 shows 1 to 6."),
    "bad_step": (RuleViolation, "Remove damage from the armor or the hit step."),
    "bad_target": (RuleViolation, "A character cannot free itself."),
    "bad_token": (RuleViolation, "Unknown token."),
    "bad_wave": (RuleViolation, "Hold it back for one of the waves: turn … (6.4.1)."),
    "calc_pending": (RuleViolation, "Apply or cancel the calculation on the table first."),
    "cannot_end": (
        RuleViolation,
        "The game ends by turn limit, objective, surrender or total elimination (7.3.2.3).",
    ),
    "cannot_escape": (RuleViolation, "… is a dignitary: dignitaries cannot escape (7.2.1)."),
    "cannot_summon": (RuleViolation, "Only mercenaries summon daemons (5.1.2)."),
    "characters_done": (
        RuleViolation,
        "Your characters are chosen: your Guild stays as it was brought for this mission.",
    ),
    "claim_pending": (RuleViolation, "An objective claim waits for the other players."),
    "contested": (
        RuleViolation,
        "Settle the contested mercenary first (5.1.1): make your offer or free the slot.",
    ),
    "deploying": (RuleViolation, "Place the miniatures first."),
    "duplicate_mercenary": (RuleViolation, "… twice: two mercenaries of one name (5.1.1)."),
    "follower_taken": (
        RuleViolation,
        "Every … card of this mission is already enlisted at the table (5.1.2).",
    ),
    "guild_bound": (RuleViolation, "This seat has already brought its Guild."),
    "guild_twice": (RuleViolation, "… is already at this table: one Guild per player."),
    "guilds_missing": (RuleViolation, "Every player brings a Guild first."),
    "level_too_high": (
        RuleViolation,
        "… (level …) summons daemons of level … or lower (5.1.3, 7.2.3.2).",
    ),
    "mana_missing": (RuleViolation, "Enter the arcane dice of …."),
    "mercenary_taken": (
        RuleViolation,
        "… sides with … for this mission: a settled contest is final (5.1.1).",
    ),
    "mission_over": (RuleViolation, "The mission is over."),
    "no_ability": (RuleViolation, "… has no personal ability."),
    "no_arcane": (RuleViolation, "… has no arcane ability."),
    "no_arcane_effect": (RuleViolation, "… carries no arcane effect token to cancel (7.2.3.5)."),
    "no_calc": (RuleViolation, "There is no calculation to apply."),
    "no_change": (RuleViolation, "The counter already runs for you."),
    "no_characters": (RuleViolation, "Choose at least one character."),
    "no_claim": (RuleViolation, "Nobody claims the objective now."),
    "no_contest": (RuleViolation, "No contested mercenary of yours by that name."),
    "no_daemon": (RuleViolation, "The pantheon has no … daemon of level … or lower."),
    "no_fury": (RuleViolation, "… has no FURY."),
    "no_guild_here": (RuleViolation, "This seat has brought no Guild to the mission."),
    "no_mana": (RuleViolation, "… needs an arcane die in its mana pool for the test (7.2.3): channel first."),
    "no_objective": (RuleViolation, "This mission has no control objective."),
    "no_pentacle": (RuleViolation, "No summoning pentacle is active."),
    "no_power": (RuleViolation, "… has no arcane power to use now."),
    "no_relic": (RuleViolation, "This mission has no relic."),
    "no_such_character": (RuleViolation, "No such character at this table."),
    "no_such_follower": (RuleViolation, "That follower is not offered for this mission."),
    "no_shot_now": (RuleViolation, "… adds dice to a shot: only in the shooting sub-phase of the strategic phase (7.2.2)."),
    "no_waves": (RuleViolation, "Only a wave mission holds characters back."),
    "no_weapon": (RuleViolation, "… needs a weapon (5.1.4)."),
    "not_a_daemon": (RuleViolation, "… is not a summoned daemon (7.2.3.2)."),
    "no_effect": (RuleViolation, "No effect on …: … (8.2)."),
    "not_a_mission": (RuleViolation, "This table has no mission."),
    "not_active": (RuleViolation, "Channelling needs an active movement token."),
    "not_chosen": (RuleViolation, "That character is not in your slots."),
    "not_ended": (RuleViolation, "The mission has not ended yet."),
    "not_enough_fate": (RuleViolation, "Not enough fate points."),
    "not_enough_feods": (
        RuleViolation,
        "This mission would charge … feods; your Guild has … to spend now.",
    ),
    "not_enough_mana": (RuleViolation, "… lacks … mana."),
    "not_in_database": (
        RuleViolation,
        "… is not in your database: redeem the code of its set at the City Gate.",
    ),
    "not_in_play": (RuleViolation, "… is no longer in play."),
    "not_possessed": (RuleViolation, "… is not possessed."),
    "not_ranged": (RuleViolation, "… is not a ranged weapon."),
    "not_seated": (NotFound, "No such mission, or no seat of yours at its table."),
    "not_setup": (RuleViolation, "Setup channelling happens before the first turn is played."),
    "not_turn_end": (RuleViolation, "An objective is achieved at the end of the turn (7.3.2.3)."),
    "not_your_character": (RuleViolation, "… belongs to another player."),
    "not_your_fight": (RuleViolation, "Only the players in this fight confirm it."),
    "not_your_phase": (RuleViolation, "Wait for the acting player to pass."),
    "not_your_turn": (RuleViolation, "… places a miniature now."),
    "cannot_revert": (
        RuleViolation,
        "A power whose kill reached a daemon and its summoner stands: no defend test.",
    ),
    "nothing_to_defend": (
        RuleViolation,
        "No arcane power targeted … this phase (or it was already tested).",
    ),
    "nothing_to_remove": (RuleViolation, "No such cube to remove."),
    "object_taken": (RuleViolation, "… picked up or put down an object this turn (7.2.1): it cannot shoot or use an arcane power until the next turn."),
    "own_claim": (
        RuleViolation, "The other players confirm your claim; to take it back, tap Undo."
    ),
    "passive_ability": (RuleViolation, "… is passive: it needs no activation (5.1.1)."),
    "possessed": (RuleViolation, "Possessed."),
    "raffle_done": (RuleViolation, "The control spot is already drawn."),
    "raffle_missing": (RuleViolation, "The control spot has not been drawn yet."),
    "server_only": (RuleViolation, "Close the mission from the resolution page."),
    "setup_first": (RuleViolation, "The mission is being prepared (…): finish that first."),
    "slots_full": (
        RuleViolation,
        "The dormitory is full (… slots). Upgrade it or dismiss someone.",
    ),
    "summoner_defends": (
        RuleViolation,
        "…'s daemon plays: … only defends in a fight, it cannot attack (7.2.3.2).",
    ),
    "summoning": (RuleViolation, "… cannot move while its daemon plays (7.2.3.2)."),
    "too_many_dice": (RuleViolation, "… can roll … arcane dice now."),
    "training": (RuleViolation, "A training mission has no raffle (6.4)."),
    "turn_limit": (RuleViolation, "Turn … was the last: end the game."),
    "turn_not_over": (RuleViolation, "Finish the strategic and brawl phases first."),
    "turn_over": (RuleViolation, "The turn is over: tap Next turn."),
    "wrong_kabbalah": (RuleViolation, "… summons … daemons only."),
    "wrong_phase": (RuleViolation, "Not now: this is the … phase."),
}

LIFECYCLE: dict[str, tuple[type[TabletopError], str]] = {
    "already_closed": (RuleViolation, "The mission is already closed."),
    "bad_number": (RuleViolation, "…: numbers are written with 0-9."),
    "login_required": (NotAllowed, "Log in with your Guild Master account first."),
    "mission_not_found": (NotFound, "No such mission."),
    "no_guild": (NotFound, "Found your Guild first."),
    "nobody_ready": (
        RuleViolation,
        "Nobody in … can play a mission yet: enlist mercenaries in the Dormitory first and arm "
        "them in the Armory.",
    ),
    "not_a_player": (NotAllowed, "Only a player of this mission can continue it."),
    "not_closed": (RuleViolation, "Close this mission first."),
    "not_your_seat": (NotAllowed, "Join the table with your own account first."),
    "piece_not_found": (NotFound, "No such character at this table."),
    "seat_has_account": (NotAllowed, "… plays with their own account: they bring their Guild."),
    "seat_not_found": (NotFound, "Choose the friend's seat."),
}

CODES: dict[str, tuple[type[TabletopError], str]] = {**RULES, **LIFECYCLE}

COMMAND_CODES = frozenset(RULES) | frozenset(HOLD_CODES)

API_CODES = frozenset(
    {
        "already_closed", "bad_mode", "login_required", "mission_not_found", "no_guild",
        "no_guild_here", "nobody_ready", "not_a_player", "not_closed", "not_ended", "not_seated",
        "not_your_seat", "seat_has_account",
    }
)
