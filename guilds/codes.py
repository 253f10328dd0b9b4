"""The error codes of the Guilds: every code raised in ``guilds`` (the guild services, the rules
they call, the API and the pages), with its class (hence its HTTP status) and its usual message
(a raise may say more). ``tabletop.error_codes.catalogue()`` gathers the ``CODES`` of every app;
the tests check them against the source (``tests/tabletop/test_error_catalogue.py``;
docs/architecture.md, "Interfaces and errors").

``API_CODES``: what the guild API may answer (one list for the whole API): the codes raised in
``guilds.services``, ``guilds.api`` and ``guilds.city_api``. The refusals raised only inside
``guilds.rules`` / ``guilds.city_rules`` (``RULES_ONLY``) are left out, as the schema always
left them out, though a service that calls those rules may answer them too.
``HOLD_CODES``: what the mission-hold services may refuse with (``guilds.services.holds``).
"""

from __future__ import annotations

from tabletop.errors import NotFound, RuleViolation, TabletopError

CODES: dict[str, tuple[type[TabletopError], str]] = {
    "arcane_code_not_found": (NotFound, "No such arcane code in your Guild."),
    "armory_full": (RuleViolation, "The armory holds … weapons. Upgrade it to hold more."),
    "bad_colour": (RuleViolation, "Choose red, blue, yellow or green."),
    "bad_feods": (RuleViolation, "Reserved feods are 0 or more."),
    "bad_form_key": (RuleViolation, "This form is broken: reload the page and tap again."),
    "bad_heal_feods": (RuleViolation, "A healing cost is 0 or more feods."),
    "bad_kind": (RuleViolation, "kind is one of …."),
    "bad_mercenary": (RuleViolation, "Mercenaries are chosen by id."),
    "bad_name": (RuleViolation, "A Guild name has … to … characters (yours: …)."),
    "bad_option": (RuleViolation, "Choose one of the answers."),
    "bad_reason": (RuleViolation, "Unknown ledger reason …."),
    "bad_roster": (RuleViolation, "A guest Guild has 1 to … mercenaries."),
    "bad_slot": (RuleViolation, "A weapon goes in the primary or secondary space."),
    "bad_status": (RuleViolation, "Unknown status …."),
    "building_max_level": (RuleViolation, "This building is already at its top level."),
    "card_not_found": (NotFound, "No such card."),
    "code_already_held": (RuleViolation, "… already holds it."),
    "code_held_elsewhere": (RuleViolation, "… is held by …: take it back first."),
    "code_not_held": (RuleViolation, "… is on the library shelf."),
    "code_unknown": (RuleViolation, "That code does not exist. Check the card in the box."),
    "code_used": (RuleViolation, "That code has already been used."),
    "codes_full": (
        RuleViolation,
        "A character with arcane ability … holds at most … Arcane Codes.",
    ),
    "control_point_not_found": (NotFound, "No such control point."),
    "daemon_in_pantheon": (RuleViolation, "… is already in your pantheon."),
    "daemon_not_found": (NotFound, "No such daemon in your Guild."),
    "duplicate_mercenary": (RuleViolation, "… twice: two mercenaries of one name (5.1.1)."),
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
    "guest_guild_not_found": (NotFound, "No such guest Guild."),
    "guesthouse_full": (RuleViolation, "The guesthouse lodges … followers. Upgrade it first."),
    "guild_exists": (RuleViolation, "You already lead a Guild."),
    "guild_not_found": (NotFound, "No such Guild."),
    "hands_full": (
        RuleViolation,
        "Nothing can be held below a two-handed weapon: unequip it first.",
    ),
    "hold_not_found": (NotFound, "This Guild is not at that mission."),
    "income_not_found": (NotFound, "No such income period."),
    "level_limit_reached": (RuleViolation, "Your Guild may hold … mercenaries of level …."),
    "library_full": (RuleViolation, "The library holds … Arcane Codes. Upgrade it to hold more."),
    "mercenary_absent": (RuleViolation, "… is away from the Guild."),
    "mercenary_busy": (
        RuleViolation,
        "… is away: only active mercenaries in the dormitory can be sent.",
    ),
    "mercenary_dead": (RuleViolation, "… is dead and can never be used again."),
    "mercenary_injured": (RuleViolation, "… is injured: heal first."),
    "mercenary_not_found": (NotFound, "No such mercenary in your Guild."),
    "name_taken": (RuleViolation, "You already have a guest Guild of that name."),
    "no_arcane_ability": (
        RuleViolation,
        "Only characters with arcane ability above 0 use Arcane Codes.",
    ),
    "no_copy_left": (RuleViolation, "All your … copies of … are already in use."),
    "no_guild": (NotFound, "Found your Guild first."),
    "no_weapon": (RuleViolation, "… needs a weapon (5.1.4)."),
    "not_enough_blood_stones": (RuleViolation, "This costs … blood stones; your Guild has …."),
    "not_enough_feods": (
        RuleViolation,
        "This mission would charge … feods; your Guild has … to spend now.",
    ),
    "not_in_database": (
        RuleViolation,
        "… is not in your database: redeem the code of its set at the City Gate.",
    ),
    "not_injured": (RuleViolation, "… is not injured."),
    "not_permanent": (RuleViolation, "… only joins for one mission at a time."),
    "on_mission": (
        RuleViolation,
        "… is at the table in …: they cannot be … until the mission is closed (6.4).",
    ),
    "pantheon_full": (RuleViolation, "A pantheon holds … daemons."),
    "party_empty": (RuleViolation, "Choose at least one active mercenary to send."),
    "party_too_large": (RuleViolation, "A party has at most … mercenaries."),
    "point_already_held": (RuleViolation, "… is already yours."),
    "primary_slot_empty": (RuleViolation, "Equip the top (primary) space before the lower one."),
    "slot_occupied": (RuleViolation, "The … space already holds a weapon."),
    "slots_full": (
        RuleViolation,
        "The dormitory is full (… slots). Upgrade it or dismiss someone.",
    ),
    "two_handed_needs_free_hands": (
        RuleViolation,
        "A two-handed weapon needs both spaces free: unequip the other weapon first.",
    ),
    "two_handed_needs_top": (RuleViolation, "A two-handed weapon only goes in the top space."),
    "type_limit_reached": (RuleViolation, "Your Guild may hold … … mercenaries."),
    "unknown_building": (RuleViolation, "There is no building called …."),
    "weapon_already_equipped": (RuleViolation, "… already holds this weapon."),
    "weapon_equipped_elsewhere": (RuleViolation, "… is held by …: unequip it first."),
    "weapon_not_equipped": (RuleViolation, "… is in the armory."),
    "weapon_not_found": (NotFound, "No such weapon in your Guild."),
}

RULES_ONLY = frozenset(
    {
        "bad_slot", "building_max_level", "codes_full", "fame_too_low", "hands_full",
        "level_limit_reached", "no_arcane_ability", "party_empty", "party_too_large",
        "primary_slot_empty", "slot_occupied", "slots_full", "two_handed_needs_free_hands",
        "two_handed_needs_top", "type_limit_reached",
    }
)

API_CODES = frozenset(CODES) - RULES_ONLY

#: Every code the mission-hold services (``mission_hold_bind``, ``mission_hold_sync``,
#: ``mission_hold_release``) may refuse with, the readiness codes of
#: ``mercenary_can_go_on_mission`` included: a DemLoc table command that moves a hold may
#: answer these (``missions.services.on_command_applied``, ``missions.codes.COMMAND_CODES``).
#: Checked against the source by ``tests/tabletop/test_api_schema_codes.py``.
HOLD_CODES = (
    "guild_not_found", "hold_not_found", "mercenary_not_found", "bad_feods",
    "not_enough_feods", "on_mission", "feods_reserved",
    "mercenary_absent", "mercenary_injured", "mercenary_dead", "no_weapon",
)
