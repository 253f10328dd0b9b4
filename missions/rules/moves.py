"""The commands a seat's page offers, read from its view only (for random playouts,
``tabletop.testing.playout``): the same command types and data shapes the live template
(``missions/live.html``, ``_piece.html``) sends, with the values a player could type. Dice are
"rolled" as fixed faces (the page takes whatever the player enters); counts come from the
view's figures and the pure calculators, so most proposals are well formed.

The preparation phases (``setup_moves``: the buttons and forms of ``missions/_setup.html``) are
covered once the Guilds are at the table: bringing a Guild, a guest Guild or taking one out are
server routes (``demloc.setup.guild_bind``, ``guild_leave``: seat None), not buttons that send
a table command, so a playout of the preparation binds the Guilds itself first
(``tests/missions/test_setup_playouts.py``); the mission playouts start quick games.
"""

from __future__ import annotations

from tabletop.rules import Command

from .brawl import brawl_dice
from .common import TURN_END


def _c(type_: str, **data: object) -> Command:
    return Command(type_, dict(data))


def _piece_moves(p: dict) -> list[Command]:
    """The +/- buttons and forms on one editable card in play (``_piece.html``)."""
    pid = p["id"]
    out = [
        _c("demloc.damage.assign", piece=pid, amount=1, mode="general"),
        _c("demloc.damage.assign", piece=pid, amount=2, mode="hit"),
        _c("demloc.tokens.adjust", piece=pid, token="bleeding", delta=1),
        _c("demloc.tokens.adjust", piece=pid, token="poison", delta=1),
        _c("demloc.tokens.adjust", piece=pid, token="seals", delta=1),
        _c("demloc.tokens.adjust", piece=pid, token="broken_hearts", delta=1),
        _c("demloc.effect.set", piece=pid, effect="vigor", value=1),
        _c("demloc.piece.escape", piece=pid),
    ]
    if p["armor_damage"]:
        out.append(_c("demloc.damage.remove", piece=pid, amount=1, step="armor"))
    if p["bleeding"]:
        out.append(_c("demloc.tokens.adjust", piece=pid, token="bleeding", delta=-1))
    state = "exhausted" if p["movement"] == "active" else "active"
    out.append(_c("demloc.movement.set", piece=pid, state=state))
    if p["arcane"]:
        # Channel: dice left to roll, and no reason beside the button (7.2, 7.2.3).
        if p["arcane_dice_left"] and not p["possessed"] and not p.get("channel_blocked"):
            out.append(_c("demloc.mana.channel", piece=pid, common=1, dark=0, seals=0))
            out.append(_c("demloc.mana.channel", piece=pid, common=0, dark=1, seals=0))
        out.append(_c("demloc.arcane.test", piece=pid, roll=3, fate=0, purpose="other"))
        if p.get("defend_power"):
            out.append(_c("demloc.arcane.test", piece=pid, roll=2, fate=0, purpose="defend"))
        if p["arcane_effects_live"]:
            out.append(_c("demloc.arcane.test", piece=pid, roll=2, fate=0, purpose="cancel", target=pid))
        # Summon a daemon: only a flow whose button is enabled (not ``blocked``, 7.2.3.2).
        for flow in p.get("summons") or []:
            if not flow["blocked"]:
                # level 1 with 2 heart tokens, the highest level it may ask for with 1
                for level, hearts in ((1, 2), (p["max_daemon_level"], 1)):
                    out.append(
                        _c(
                            "demloc.daemon.summon",
                            piece=pid,
                            code=flow["code_index"],
                            level=level,
                            hearts=hearts,
                        )
                    )
        if p.get("assign_codes"):
            out.append(_c("demloc.daemon.assign", piece=pid, code=0, common=1, dark=0, seals=0))
    # Use <power>: only an enabled button (``power_refs``' ``blocked``, 7.2.3.1), the extra of
    # an exhausted caster paid as the form's fields would be filled in (common first).
    for power in p.get("power_refs") or []:
        if power.get("blocked"):
            continue
        due = power.get("extra_due", 0)
        common = min(due, max(0, p["mana"]["common"] - power["cost_common"]))
        out.append(
            _c(
                "demloc.power.use",
                piece=pid,
                code=power["code"],
                power=power["index"],
                target=pid,
                extra_common=common,
                extra_dark=due - common,
            )
        )
    for ability in p.get("ability_refs", []):
        if ability["activated"]:
            out.append(_c("demloc.ability.use", piece=pid, ability=ability["index"]))
    return out


def setup_moves(s: dict, seat: int) -> list[Command]:
    """``seat``'s offered commands in the preparation, read from its setup view
    (``missions.rules.setup_view.view``), as ``missions/_setup.html`` renders them: Remove,
    Choose, Enlist and the sealed offer form at Characters (6.4.1, 5.1.1, 5.1.2), the mana
    forms, Placed at deployment, Next. Typed numbers: a few a player could type (an offer of
    nothing, half or all the purse, one feod too many; the dice as rolled or split)."""
    if s.get("me") is None or s["stage"] == "play":
        return []
    out: list[Command] = []
    stage, ready = s["stage"], s["i_ready"]
    if stage == "characters":
        if not ready:
            out += [_c("demloc.setup.unpick", character=p["id"]) for p in s["my_picks"]]
            if s["slots_left"] > 0:
                out += [
                    _c("demloc.setup.pick", character=c["id"])
                    for c in s["my_free_roster"]
                    if c.get("ready", True) and not c.get("taken")
                ]
                out += [
                    _c("demloc.setup.hire", follower=f["key"]) for f in s["pool"] if f["left"] > 0 and f["owned"]
                ]
        feods = s["my_feods"]
        for name, c in s["contests"].items():
            if c["mine"] and c["my_offer"] is None:
                for amount in sorted({0, 1, feods // 2, feods, feods + 1}):
                    out.append(_c("demloc.setup.offer", name=name, feods=amount))
    elif stage == "mana" and not ready:
        for p in s["mana_needed"]:
            n = p["card"]["arcane"]
            out.append(_c("demloc.setup.mana", character=p["id"], common=n, dark=0, seals=0))
            out.append(_c("demloc.setup.mana", character=p["id"], common=n - 1, dark=1, seals=1))
    elif stage == "deployment" and s["my_deploy_turn"]:
        for p in s["to_place"]:
            out += [_c("demloc.setup.deploy", character=p["id"], area=a) for a in s["my_areas"]]
            if s["definition"]["kind"] == "waves":
                out += [_c("demloc.setup.deploy", character=p["id"], wave=w) for w in s["wave_turns"]]
    if stage != "deployment" and not ready:
        out.append(_c("demloc.setup.next"))
    return out


def moves_for(view: dict, seat: int) -> list[Command]:
    """``seat``'s offered commands given ``view`` (``missions.rules.view.view``)."""
    if view.get("setup"):
        return setup_moves(view["setup"], seat)
    if view.get("ended"):
        return []
    out: list[Command] = []
    if view["phase"] != TURN_END:
        if view["my_turn"] or view["options"].get("control") == "anyone":
            out.append(_c("demloc.phase.next"))
    elif not view["last_turn"] and not view.get("claim"):
        out.append(_c("demloc.turn.next"))
    if view["can_end"]:
        out.append(_c("demloc.mission.end"))
    alive = [p for p in view["pieces"] if p["status"] == "in_play"]
    mine = [p for p in alive if p["editable"]]
    if view["pending"]:
        out += [_c("demloc.calc.apply"), _c("demloc.calc.cancel")]
    else:
        for p in mine:
            for w in p["weapon_refs"]:
                # Work it out is disabled while the shooter may not shoot (7.2, 7.2.1).
                if w.get("range") and not (p["possessed"] or p.get("shoot_blocked") or p.get("stray_only")):
                    for t in alive[:3]:
                        out.append(
                            _c(
                                "demloc.shot.propose",
                                shooter=f"{p['id']}:{w['index']}",
                                target=t["id"],
                                test_roll=2,
                                fate=0,
                                dice=" ".join(["4"] * p["shoot_dice"]),
                                cover=0,
                                extra=0,
                            )
                        )
            for t in alive[:3] if not (p["possessed"] or p.get("attack_blocked")) else ():
                if t["id"] != p["id"]:
                    a, _ = brawl_dice(p, t, attacking=True)
                    d, _ = brawl_dice(t, p, attacking=False)
                    # The attacker wins; the defender wins in the first impact zone (7.3.1).
                    for won, lost, ticks in (
                        ("5", "2", {"attacker_extra": 0, "defender_extra": 0}),
                        ("2", "5", {"first_impact": True, "no_step_back": True}),
                    ):
                        out.append(
                            _c(
                                "demloc.brawl.propose",
                                attacker=p["id"],
                                defender=t["id"],
                                order=1,
                                attacker_dice=" ".join([won] * a),
                                defender_dice=" ".join([lost] * d),
                                **ticks,
                            )
                        )
    for p in mine:
        out += _piece_moves(p)
        if view["phase"] != TURN_END and not p["possessed"] and not p.get("hand_blocked"):
            purpose = "evasive" if view["phase"] == "strategic" else "scenery"
            out.append(_c("demloc.hand.test", piece=p["id"], purpose=purpose, roll=3, fate=1))
        if (view.get("mission") or {}).get("kind") == "relic":
            out.append(_c("demloc.relic.take", piece=p["id"], delta=1))
            if p.get("relics"):
                out.append(_c("demloc.relic.take", piece=p["id"], delta=-1))
    for p in alive:  # a card effect, whoever's card it is (possession.py)
        if p["possessed"]:
            out.append(_c("demloc.possession.remove", piece=p["id"], source="a card"))
        else:
            out.append(
                _c("demloc.possession.assign", piece=p["id"], source="a card", instructions="Walk north.")
            )
    # (defend tests of a character the power killed: its sheet shows the control too)
    for p in view["pieces"]:
        if p["editable"] and p["status"] != "in_play" and p.get("defend_power"):
            out.append(_c("demloc.arcane.test", piece=p["id"], roll=2, fate=0, purpose="defend"))
    out += [
        _c("demloc.fate.spend", amount=1, reason="an ability"),
        _c("demloc.fate.gain", amount=1, reason="the game"),
        _c("demloc.kill.count", kind="mercenary", level=1, delta=1),
        _c("demloc.surrender.vote", agree=seat not in view["surrender"]),
    ]
    if view["objective"]["target"]:
        out.append(_c("demloc.objective.control", action="start"))
    if view["can_claim_objective"]:
        out.append(_c("demloc.objective.achieve"))
    claim = view.get("claim")
    if claim and claim["can_answer"]:
        out += [_c("demloc.objective.answer", agree=True), _c("demloc.objective.answer", agree=False)]
    return out
