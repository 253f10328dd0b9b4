"""Driving a mission through the real write paths (services and run_command), as phones do."""

from guilds import models as gm
from guilds import services as gs
from guilds.demo import new_code
from missions import services
from missions.rules.setup_stages import deployment_areas
from tabletop import services as table_services
from tabletop.rules import Command
from tests.guilds.factories import (
    ArcaneCodeCardFactory,
    AreaFactory,
    CardSetFactory,
    DaemonCardFactory,
    KabbalahFactory,
    MercenaryCardFactory,
    UserFactory,
    WeaponCardFactory,
)


def open_table(guilds, definition, mode="standard", options=None):
    """Guild 0's master opens the mission (with the table ``options``, if any); the others
    join with their accounts; the host starts; every phone brings its Guild. Returns
    ``(mission, table, seats)``."""
    mission, host = services.mission_open(
        host=guilds[0].master, definition_id=definition.pk, mode=mode, options=options
    )
    table = mission.table
    seats = [host] + [
        table_services.seat_join(table=table, name=g.name, user=g.master) for g in guilds[1:]
    ]
    table_services.run_command(table, host, Command("table.start"))
    for guild, seat in zip(guilds, seats, strict=True):
        services.mission_guild_bind(table=table, seat=seat, user=guild.master)
    return mission, table, seats


def ash_and_birch(make_guild, definition, mode="standard"):
    """House Ash (Rook) and House Birch (Ash) at a table of ``definition`` (``open_table``):
    ``(a, b, mission, table, (sa, sb))``."""
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    mission, table, seats = open_table([a, b], definition, mode=mode)
    return a, b, mission, table, seats


def closed_training_mission(make_guild, demo_missions):
    """House Ash (Rook) and House Birch (Ash) play a training objective mission, Ash achieves
    it (7.3.2.3) and it is closed (6.4.1): ``(a, b, mission, table, (sa, sb))``."""
    a, b, mission, table, (sa, sb) = ash_and_birch(
        make_guild, demo_missions["objective"], mode="training"
    )
    prepare(table, [sa, sb], {0: ["Rook"], 1: ["Ash"]})
    achieve(table, sa)
    services.mission_close(mission_id=mission.pk)
    table.refresh_from_db()
    return a, b, mission, table, (sa, sb)


def cmd(table, seat, type_, **data):
    return table_services.run_command(table, seat, Command("demloc." + type_, data))


def state(table):
    table.refresh_from_db()
    return table.state


def all_next(table, seats):
    for seat in seats:
        if seat.number not in state(table)["setup"]["ready"]:
            cmd(table, seat, "setup.next")


def to_stage(table, seats, stage):
    """Every seat taps Next until the preparation is at ``stage`` (6.4.1's order)."""
    while state(table)["setup"]["stage"] != stage:
        all_next(table, seats)


def roster_id(table, seat, name):
    roster = state(table)["setup"]["guilds"][str(seat.number)]["roster"]
    return next(c["id"] for c in roster if c["name"] == name)


def prepare(table, seats, picks, hires=None, *, mana=None, start=True):
    """Every phase up to the first turn. ``picks``: {seat index: [character names]};
    ``hires``: {seat index: [follower keys]}; ``mana``: {seat index: {character name: (common,
    dark, seals)}}, the setup mana of its arcane characters (6.4.1). ``start=False`` stops at
    the last step, every miniature deployed and nobody's Next tapped yet (stage ``start``)."""
    to_stage(table, seats, "characters")
    for i, names in picks.items():
        for name in names:
            cmd(table, seats[i], "setup.pick", character=roster_id(table, seats[i], name))
    for i, keys in (hires or {}).items():
        for key in keys:
            cmd(table, seats[i], "setup.hire", follower=key)
    all_next(table, seats)  # -> mana
    for i, dice in (mana or {}).items():
        for name, (common, dark, seals) in dice.items():
            character = roster_id(table, seats[i], name)
            cmd(table, seats[i], "setup.mana", character=character, common=common, dark=dark,
                seals=seals)
    all_next(table, seats)  # -> miniatures
    all_next(table, seats)  # -> deployment
    while (s := state(table)["setup"])["stage"] == "deployment":
        acting = s["deploy"]["acting"]
        todo = [
            p["id"]
            for p in s["picks"][str(acting)]
            if f"s{acting}-{p['id']}" not in s["deploy"]["placed"]
        ]
        area = deployment_areas(s, acting)[0]  # what the page offers this Guild (6.4.1)
        cmd(table, seats[acting], "setup.deploy", character=todo[0], area=area)
    if not start:
        assert state(table)["setup"]["stage"] == "start"
        return
    all_next(table, seats)
    assert state(table)["setup"]["stage"] == "play"


def piece_of(table, seat, name):
    return next(
        pid
        for pid, p in state(table)["pieces"].items()
        if p["owner"] == seat.number and p["name"] == name
    )


def kill(table, victim_seat, name):
    wound(table, victim_seat, name, hearts=3)


def wound(table, victim_seat, name, hearts=1):
    cmd(
        table,
        victim_seat,
        "tokens.adjust",
        piece=piece_of(table, victim_seat, name),
        token="broken_hearts",
        delta=hearts,
    )


def give(guild, *cards, kind=gm.CardSet.Kind.EQUIPMENT):
    """A new set of ``kind`` holding the cards, redeemed by the Guild at the City Gate; each
    argument is a card or a ``(card, quantity)`` pair."""
    card_set = CardSetFactory(kind=kind)
    for item in cards:
        card, quantity = item if isinstance(item, tuple) else (item, 1)
        gm.SetCard.objects.create(card_set=card_set, card=card, quantity=quantity)
    code = gm.SetCode.objects.create(card_set=card_set, code=new_code(gm.SetCode))
    gs.set_code_redeem(guild=guild, code=code.code)


def cinder_summoner(guild, name, *more, powers=()):
    """``guild``'s mercenary ``name`` holds the Codex of Cinders (summoning: 1 common, 1 dark;
    ``powers``, each ``{"name", "range", "white_mana", ...}``, its arcane powers in order) and
    the Cinder imp (level 1, Claws POISONOUS 1) is in the Guild's pantheon, all through the
    Guild's services (5.1.1, 5.1.5); ``more`` cards come in the same set. ``(codex, imp)``."""
    cinders = KabbalahFactory(name="Cinders")
    codex = ArcaneCodeCardFactory(
        name="Codex of Cinders",
        kabbalah=cinders,
        summoning_white=1,
        summoning_black=1,
        price_feods=0,
    )
    for position, power in enumerate(powers, start=1):
        gm.ArcanePower.objects.create(code=codex, position=position, **power)
    imp = DaemonCardFactory(
        name="Cinder imp",
        kabbalah=cinders,
        level=1,
        hit_factor=3,
        primary_weapon="Claws",
        primary_weapon_type="naked_hands",
        primary_damage=2,
        primary_features="POISONOUS 1",
    )
    give(guild, codex, imp, *more)
    merc = gm.Mercenary.objects.get(guild=guild, card__name=name)
    code = gs.arcane_code_add(guild=guild, card_id=codex.pk)
    gs.arcane_code_assign(guild=guild, code_id=code.pk, mercenary_id=merc.pk)
    gs.daemon_add(guild=guild, card_id=imp.pk)
    return codex, imp


def build_guild(name, colour="red", mercenaries=("Rook", "Wren"), fame=0, feods=150, arcane=0):
    """A founded Guild with level-1 mercenaries of those names, each with a sword equipped,
    built through the real guild services. Cards of one name are shared between guilds."""
    code = gm.AccountCode.objects.create(card_set=CardSetFactory(), code=new_code(gm.AccountCode))
    guild = gs.guild_create(master=UserFactory(), account_code=code.code, name=name, colour=colour)
    cards = []
    for merc in mercenaries:
        card = gm.MercenaryCard.objects.filter(name=merc).first() or MercenaryCardFactory(
            name=merc, area=AreaFactory(), arcane_ability=arcane, hit_factor=3, armor=3
        )
        cards.append(card)
    sword = WeaponCardFactory(price_feods=0)
    give(guild, *cards, (sword, len(cards)))
    for card in cards:
        merc = gs.mercenary_enlist(guild=guild, card_id=card.pk)
        weapon = gs.weapon_buy(guild=guild, card_id=sword.pk)
        gs.weapon_equip(guild=guild, weapon_id=weapon.pk, mercenary_id=merc.pk)
    guild.refresh_from_db()
    gs.guild_balance_change(
        guild_id=guild.pk,
        reason="adjustment",
        fame=fame - guild.fame,
        feods=feods - guild.feods,
    )
    guild.refresh_from_db()
    return guild


def achieve(table, seat):
    """``seat`` achieves the objective the way the rules allow (7.3.2.3): every player passes
    both phases, ``seat`` claims it at the end of the turn and every other player confirms."""
    while (s := state(table))["phase"] != "end":
        acting = s["play_order"][s["acting_index"]]
        cmd(table, table.seats.get(number=acting), "phase.next")
    cmd(table, seat, "objective.achieve")
    left = state(table).get("left", [])  # a Guild that left the mission is not asked
    for p in state(table)["players"]:
        if p["seat"] != seat.number and p["seat"] not in left:
            cmd(table, table.seats.get(number=p["seat"]), "objective.answer", agree=True)
