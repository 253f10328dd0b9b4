"""What Apply and Cancel of a calculation say (DemLoc rulebook 6.4.2: the app works the numbers
out, the players confirm; 7.2.2.4 shooting damage, 7.3.2.2 fights). Found by a new user: the
applier's only line was "Shot applied." / "Fight applied.", the proposed result never said
"this kills Malve" before Apply, and "Calculation cancelled." did not say who cancelled."""

from html import unescape

from django.urls import reverse

from tabletop import live as live_reads
from tabletop import services
from tabletop.rules import Command
from tabletop.seats import cookie_name, seat_token


def run(table, seat, type_, **data):
    return services.run_command(table, seat, Command("demloc." + type_, data))


def latest(table, word: str) -> str:
    lines = live_reads.log_lines(table, limit=8, recent=True)
    return [line["text"] for line in lines if word in (line["text"] or "")][-1]


def test_shot_applied_says_who_takes_what_7_2_2_4(make_table):
    table, (ann, bob) = make_table("demloc", players=2, options={"turn_limit": "3"})
    run(table, ann, "shot.propose", shooter="s0-korr", target="s1-bram", test_roll=1, dice=[3, 3, 3])
    table.refresh_from_db()
    pending = table.state["pending"]
    bram = table.state["pieces"]["s1-bram"]["name"]
    assert pending["damage"] > 0 and pending["outcome"] != "none"
    run(table, bob, "calc.apply")
    line = latest(table, "applied")
    assert line.startswith(f"Shot applied: {bram} takes {pending['damage']} damage"), line


def test_the_proposed_result_warns_when_apply_kills_and_the_line_says_killed_6_4_2(
    client, make_table
):
    table, (ann, bob) = make_table("demloc", players=2, options={"turn_limit": "3"})
    # Bram is one hit from death: every broken heart but the last, its hit damage just short.
    table.refresh_from_db()
    state = table.state
    bram = state["pieces"]["s1-bram"]
    bram.update(broken_hearts=bram["heart_limit"] - 1, hit_damage=bram["hit"] - 1, broken_armor=3)
    table.state = state
    table.save(update_fields=["state"])
    run(table, ann, "shot.propose", shooter="s0-korr", target="s1-bram", test_roll=1, dice=[6, 6, 6])
    client.cookies[cookie_name(table.pk)] = seat_token(bob)
    html = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
    assert f"Apply kills {bram['name']}." in html
    run(table, bob, "calc.apply")
    line = latest(table, "applied")
    assert line.startswith(f"Shot applied: {bram['name']} takes") and line.endswith("and is killed."), line


def test_calculation_cancelled_says_who_cancelled(make_table):
    table, (ann, bob) = make_table("demloc", players=2, options={"turn_limit": "3"})
    run(table, ann, "shot.propose", shooter="s0-korr", target="s1-bram", test_roll=1, dice=[3, 3, 3])
    run(table, bob, "calc.cancel")
    table.refresh_from_db()
    bob_name = next(p["name"] for p in table.state["players"] if p["seat"] == bob.number)
    assert latest(table, "cancelled") == f"Calculation cancelled by {bob_name}."


def test_the_kill_counters_minus_button_says_what_it_takes_away_6_4_2(client, make_table):
    """Found by a new user: a bare "−1" button under "Kills: mercenary L1 × 1"."""
    table, (ann, bob) = make_table("demloc", players=2, options={"turn_limit": "3"})
    run(table, ann, "kill.count", kind="mercenary", level=1)
    client.cookies[cookie_name(table.pk)] = seat_token(ann)
    # as the phone reads it (the live region writes "−" as "&#8722;": tabletop.blocks.narrow)
    html = unescape(client.get(reverse("tabletop:table", args=[table.code])).content.decode())
    assert 'aria-label="Remove one mercenary level 1 kill">−1 kill</button>' in html


def test_fight_applied_lists_every_effect_the_card_then_shows_7_3_2_2_8_1():
    """Found by a new user: "Fight applied: Okka takes 5 damage: 1 broken armor token" while
    the card then showed poison 1 from the winner's Venom Stiletto (8.1 POISONOUS): the line
    lists every token the Apply added, the weapon's poison and bleeding too."""
    from missions.rules.brawl import brawl_dice
    from tabletop.rules import counted
    from tests.missions.demloc_sim import new_sim, pass_phase, piece
    from tests.missions.demloc_sim import run as sim_run

    t = new_sim()
    while t.state["phase"] == "strategic":
        pass_phase(t)
    korr, bram = "s0-korr", "s1-bram"
    t.state["pieces"][korr]["weapons"][0]["features"] = ["POISONOUS 1", "BLOODING 1"]
    a, d = piece(t, korr), piece(t, bram)
    sim_run(t, 0, "brawl.propose", attacker=korr, defender=bram,
            attacker_dice=" ".join(["6"] * brawl_dice(a, d, True)[0]),
            defender_dice=" ".join(["1"] * brawl_dice(d, a, False)[0]))
    (applied, *_more) = sim_run(t, 1, "calc.apply")
    after = piece(t, bram)
    assert after["poison"] == 1 and after["bleeding"] >= 1, after
    line = applied.data["outcome"]  # the log's "Fight applied: <outcome>."
    assert "1 poison token" in line, line
    assert counted(after["bleeding"], "bleeding token") in line, line
