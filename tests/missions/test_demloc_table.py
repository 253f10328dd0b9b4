"""The demloc ruleset at a real table: run_command, undo, replay, the page (docs/architecture.md)."""

from pathlib import Path

import pytest
from django.urls import reverse

from tabletop import live as live_reads
from tabletop import services
from tabletop.models import Table
from tabletop.rules import Command
from tabletop.seats import cookie_name, seat_token

pytestmark = pytest.mark.django_db


def run(table, seat, type_, **data):
    return services.run_command(table, seat, Command("demloc." + type_, data))


def test_a_turn_through_run_command_replays_to_the_stored_projection(make_table):
    table, (ann, bob) = make_table("demloc", players=2, options={"turn_limit": "3"})
    table.refresh_from_db()
    assert table.state["turn"] == 1 and table.options["turn_limit"] == "3"
    run(
        table, ann, "shot.propose", shooter="s0-korr", target="s1-bram", test_roll=1, dice=[3, 3, 3]
    )
    run(table, bob, "calc.apply")
    run(table, bob, "tokens.adjust", piece="s1-gunner", token="seals", delta=2)
    run(table, ann, "mana.channel", piece="s0-vesna", common=1, dark=1, setup=True)
    run(table, ann, "daemon.summon", piece="s0-vesna", level=1, hearts=2)
    services.run_command(table, ann, Command("table.undo"))
    services.run_command(table, ann, Command("table.redo"))
    table.refresh_from_db()
    seats = {0: ann, 1: bob}
    while table.state["phase"] != "end":
        acting = table.state["play_order"][table.state["acting_index"]]
        run(table, seats[acting], "phase.next")
        table.refresh_from_db()
    run(table, bob, "turn.next")
    table.refresh_from_db()
    assert table.state["turn"] == 2
    assert table.state["pieces"]["s1-bram"]["broken_hearts"] == 1
    assert table.state["pieces"]["s1-gunner"]["broken_hearts"] == 1  # possessed: one per turn
    report = services.table_replay(table)
    assert report["state_matches"] and report["meta_matches"]


def test_refused_command_changes_nothing(make_table):
    from tabletop.errors import RuleViolation

    table, (ann, bob) = make_table("demloc", players=2)
    version = Table.objects.get(pk=table.pk).version
    with pytest.raises(RuleViolation) as err:
        run(table, bob, "damage.assign", piece="s0-korr", amount=2)
    assert err.value.code == "not_your_character"
    assert Table.objects.get(pk=table.pk).version == version


def test_page_shows_cards_cadence_and_log(client, make_table):
    table, (ann, bob) = make_table("demloc", players=2)
    run(table, ann, "damage.assign", piece="s0-korr", amount=2)
    client.cookies[cookie_name(table.pk)] = seat_token(ann)
    response = client.get(reverse("tabletop:table", args=[table.code]))
    assert response.status_code == 200
    html = response.content.decode()
    for text in ("Korr Halfhand", "Bram Oakjaw", "Strategic", "First:", "Mission log", "+1 damage"):
        assert text in html, text
    assert html.count('value="demloc.damage.assign"') == 2 * 3  # +1 damage, +1 hit on 3 cards
    assert 'href="/missions/reference/#weapon-perforating"' in html


def _parts(html: str) -> tuple[str, str]:
    """The page's sticky turn bar (``#dl-turn``) with the notices that follow it
    (``#dl-turn-notes``), and its fixed bottom bar (``#bottom-bar``)."""
    turn = html[html.index('id="dl-turn"') :]
    end = turn.index("</section>", turn.index('id="dl-turn-notes"'))
    turn = turn[:end]
    bottom = html[html.index('id="bottom-bar"') :]
    return turn, bottom[: bottom.index("</section>")]


def test_the_turn_actions_are_in_the_bottom_bar_and_the_status_at_the_top_7_2(client, make_table):
    """7.2, 7.3.2.3: the buttons that move the turn on (Next: pass, Next turn, Objective achieved
    and a claim's answers, End game) are in the page's fixed bottom bar, in reach of the thumb,
    above the kit's Undo/Redo toolbar; the sticky turn bar at the top says whose turn and which
    phase, with no button."""
    table, (ann, bob) = make_table("demloc", players=2, options={"turn_limit": "3"})
    seats = {0: ann, 1: bob}

    def page(seat):
        client.cookies[cookie_name(table.pk)] = seat_token(seat)
        return client.get(reverse("tabletop:table", args=[table.code])).content.decode()

    table.refresh_from_db()
    acting = seats[table.state["play_order"][table.state["acting_index"]]]
    turn, bottom = _parts(page(acting))
    assert "Your move" in turn and 'id="dl-turn-no"' in turn
    assert "<button" not in turn and "<form" not in turn
    assert 'value="demloc.phase.next"' in bottom and ">Next: pass<" in bottom
    assert bottom.index('id="dl-thumb"') < bottom.index('<nav class="toolbar"')
    while table.state["phase"] != "end":
        run(table, seats[table.state["play_order"][table.state["acting_index"]]], "phase.next")
        table.refresh_from_db()
    turn, bottom = _parts(page(ann))
    assert "<button" not in turn
    assert 'value="demloc.turn.next"' in bottom and 'value="demloc.objective.achieve"' in bottom
    run(table, ann, "objective.achieve")
    turn, bottom = _parts(page(bob))
    assert 'id="dl-claim"' in turn and "<button" not in turn
    assert bottom.count('value="demloc.objective.answer"') == 2


def test_command_form_posts_through_the_page(client, make_table):
    table, (ann, bob) = make_table("demloc", players=2)
    client.cookies[cookie_name(table.pk)] = seat_token(ann)
    url = reverse("tabletop:command", args=[table.code])
    response = client.post(
        url,
        {
            "type": "demloc.shot.propose",
            "d.shooter": "s0-korr:0",
            "d.target": "s1-bram",
            "d.test_roll": "2",
            "d.fate": "",
            "d.dice": "4 4 4",
            "d.cover": "0",
            "d.extra": "0",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "proposed result" in html and "(4 + 7) - 0 = 11" in html
    response = client.post(url, {"type": "demloc.damage.assign", "d.piece": "s1-bram"})
    assert (
        response.status_code == 400
        and 'data-code="not_your_character"' in response.content.decode()
    )


def test_reference_and_new_mission_pages(client):
    response = client.get(reverse("missions:reference"))
    assert response.status_code == 200 and 'id="weapon-perforating"' in response.content.decode()
    response = client.get(reverse("missions:new"))
    html = response.content.decode()
    assert 'name="opt.seals"' in html and "exceed the limit (7.2.3) (default)" in html
    assert 'name="opt.guilds"' not in html


def test_the_turn_bars_newest_line_says_when_it_was_undone(client, make_table):
    """Found by a new user: after Undo the turn bar's newest line still read as if the
    damage had happened; the mission log below said "(undone)". Both say it now."""
    import re

    table, (ann, bob) = make_table("demloc", players=2)
    run(table, ann, "damage.assign", piece="s0-korr", amount=2)
    services.run_command(table, bob, Command("table.undo"))
    client.cookies[cookie_name(table.pk)] = seat_token(ann)
    html = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
    status = re.search(r'id="dl-status"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert status.startswith("Undone: <s>") and "Korr" in status


def test_an_undone_token_line_says_what_the_undo_did(client, make_table):
    """Found by a new user: after Undo of "+1 bleeding" the turn bar read "Undone: Haldra the
    Wall: bleeding 0 -> 1.", as if the bleeding had come; it reads the way the Undo took it."""
    import re
    from html import unescape

    table, (ann, bob) = make_table("demloc", players=2)
    run(table, ann, "tokens.adjust", piece="s0-korr", token="bleeding", delta=1)
    services.run_command(table, bob, Command("table.undo"))
    client.cookies[cookie_name(table.pk)] = seat_token(ann)
    html = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
    status = unescape(re.search(r'id="dl-status"[^>]*>(.*?)</p>', html, re.S).group(1))
    assert status == "Undone: Korr Halfhand: bleeding 1 → 0.", status


def test_the_page_draws_the_arrows_of_the_lines_a_player_reads(client, make_table):
    """Found by a new user: "armor damage 0 -> 1", "Stray shot! d10 1 ->" in the lines read
    on the phone. The mission log on the page says "0 → 1"; the log as the API and the
    whole-log page give it keeps its ASCII "->"."""
    import re
    from html import unescape

    table, (ann, bob) = make_table("demloc", players=2)
    run(table, ann, "tokens.adjust", piece="s0-korr", token="bleeding", delta=1)
    services.run_command(table, bob, Command("table.undo"))
    client.cookies[cookie_name(table.pk)] = seat_token(ann)
    html = unescape(client.get(reverse("tabletop:table", args=[table.code])).content.decode())
    logged = re.findall(r'<span class="dl-line">(.*?)</span>', html, re.S)
    assert "<s>Korr Halfhand: bleeding 0 → 1.</s> (undone)" in logged, logged
    assert " -> " not in " ".join(logged)
    texts = [line["text"] for line in live_reads.log_lines(table)]
    assert "Korr Halfhand: bleeding 0 -> 1." in texts, texts


def test_arrows_are_drawn_between_words_only():
    from missions.jinja import arrows

    assert arrows("Stray shot! Out-of-control d10 1 -> north.") == "Stray shot! Out-of-control d10 1 → north."
    assert arrows("armor damage 0 -> 1; bleeding 1 -> 2") == "armor damage 0 → 1; bleeding 1 → 2"
    assert arrows("-> 1 at the start, a->b and x -> stay") == "-> 1 at the start, a->b and x → stay"


def test_a_sheets_weapon_lines_name_the_type_in_words_5_1_4(client, make_table):
    """Found by a new user: "Primary: Knuckle Dusters (naked_hands, favourite)", an internal
    name on the sheet; the type reads as the Guild pages say it, "favourite weapon" as the
    rulebook's indicator (5.1)."""
    import re
    from html import unescape

    table, (ann, _bob) = make_table("demloc", players=2)
    client.cookies[cookie_name(table.pk)] = seat_token(ann)
    html = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
    lines = [
        re.sub(r"<[^>]+>", "", unescape(m))
        for m in re.findall(r"<li>((?:Primary|Secondary):.*?)</li>", html, re.S)
    ]
    korr = [line for line in lines if "Crossbow" in line or "Dagger" in line]
    assert any(
        line.startswith("Primary: Crossbow (Bows and crossbows, favourite weapon) dmg")
        for line in korr
    ), korr
    assert any(line.startswith("Secondary: Dagger (Knife) dmg") for line in korr), korr
    assert not [line for line in lines if re.search(r"\([a-z]+_[a-z]+", line)], lines


def test_kills_are_listed_without_a_stray_separator_7_3_1(client, make_table):
    # "Kills: mercenary L1 × 1 [−1] ;" had a "; " after every kill, the last one too.
    import re
    from html import unescape

    table, (ann, bob) = make_table("demloc", players=2)
    run(table, ann, "kill.count", kind="mercenary", level=1)
    run(table, ann, "kill.count", kind="follower", level=2)
    client.cookies[cookie_name(table.pk)] = seat_token(ann)
    # as the phone reads it (the live region writes "−" as "&#8722;": tabletop.blocks.narrow)
    html = unescape(client.get(reverse("tabletop:table", args=[table.code])).content.decode())
    kills = re.findall(r'<p class="small muted dl-kills">Kills: (.*?)</p>', html)
    assert len(kills) == 2 and ";" not in "".join(kills)  # CSS puts "; " between two kills
    mine = re.findall(r'<span class="dl-kill">([^<]*)', kills[0])
    assert sorted(k.strip() for k in mine) == ["follower L2 × 1", "mercenary L1 × 1"]
    css = (Path(__file__).parents[2] / "missions/static/missions/missions.css").read_text()
    assert '.dl-kill + .dl-kill::before { content: "; "; }' in css


def test_a_kill_by_a_shot_bob_applies_is_on_anns_line_on_both_phones_6_4_2(client, make_table):
    """Found by a new user: Ann's shot killed Bob's character, Bob tapped Apply, and Ann's line
    still read "Kills: " (empty) on both phones. The app now counts it (table option
    ``kills``), and an empty counter reads "Kills: none"."""
    import re

    table, (ann, bob) = make_table("demloc", players=2)
    url = reverse("tabletop:command", args=[table.code])

    def page(seat):
        client.cookies[cookie_name(table.pk)] = seat_token(seat)
        html = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
        return re.findall(r'<p class="small muted dl-kills">Kills: (.*?)</p>', html), html

    lines, html = page(ann)
    assert lines == ["none", "none"]
    assert "counted by the app" in re.search(r'id="dl-kill-help">(.*?)</p>', html).group(1)
    client.cookies[cookie_name(table.pk)] = seat_token(ann)
    shot = {
        "type": "demloc.shot.propose",
        "d.shooter": "s0-korr:0",
        "d.target": "s1-gunner",
        "d.test_roll": "1",
        "d.fate": "",
        "d.dice": "6 6 6",
        "d.cover": "0",
        "d.extra": "0",
    }
    assert client.post(url, shot).status_code == 200
    client.cookies[cookie_name(table.pk)] = seat_token(bob)
    assert client.post(url, {"type": "demloc.calc.apply"}).status_code == 200  # Bob's Apply
    for seat in (ann, bob):
        lines, html = page(seat)
        kills = re.findall(r'<span class="dl-kill">([^<]*)', lines[0])
        assert [k.strip() for k in kills] == ["follower L1 × 1"]
        assert lines[1] == "none"
        assert "+1 follower kill (level 1): Korr Halfhand killed Dock gunner" in html


def test_a_table_counting_kills_by_hand_says_so_next_to_the_control(client, make_table):
    import re

    table, (ann, _bob) = make_table("demloc", players=2, options={"kills": "hand"})
    client.cookies[cookie_name(table.pk)] = seat_token(ann)
    html = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
    assert "by hand" in re.search(r'id="dl-kill-help">(.*?)</p>', html).group(1)


def test_a_mission_everyone_agreed_to_stop_says_so_6_4_2(client, make_table):
    """Found by a new user: the heading said "Mission over: surrender" when the players had
    all agreed to stop (6.4.2); it now says what happened."""
    table, (ann, bob) = make_table("demloc", players=2, options={"turn_limit": "3"})
    run(table, ann, "surrender.vote", agree=True)
    run(table, bob, "surrender.vote", agree=True)
    client.cookies[cookie_name(table.pk)] = seat_token(ann)
    html = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
    assert "<strong>Mission over</strong>: everyone agreed to stop" in html


def test_a_shot_applied_then_undone_twice_keeps_the_table_readable(client, make_table):
    """Found by a new user: shot, Apply, Undo, Undo made the table page answer 500 for every
    seat for good (the live log narrated the undone "Shot applied" by folding it into the
    current state, which has no pending shot any more)."""
    table, (ann, bob) = make_table("demloc", players=2, options={"turn_limit": "3"})
    run(
        table, ann, "shot.propose", shooter="s0-korr", target="s1-bram", test_roll=1, dice=[3, 3, 3]
    )
    run(table, bob, "calc.apply")
    services.run_command(table, bob, Command("table.undo"))
    services.run_command(table, ann, Command("table.undo"))
    table.refresh_from_db()
    assert table.state["pending"] is None
    lines = live_reads.log_lines(table, limit=8, recent=True)
    applied = [
        (line["text"], line["undone"]) for line in lines if "applied" in (line["text"] or "")
    ]
    assert len(applied) == 1 and applied[0][1], applied
    assert applied[0][0].startswith("Shot applied: "), applied
    for seat in (ann, bob):
        client.cookies[cookie_name(table.pk)] = seat_token(seat)
        assert client.get(reverse("tabletop:table", args=[table.code])).status_code == 200
        assert client.get(reverse("tabletop:log", args=[table.code])).status_code == 200


def test_spending_more_fate_than_held_says_what_the_player_holds_6_4_2(client, make_table):
    """Found by a new user: 99 fate points said "a whole number from 1 to 10" to a player who
    held 3, and the field let them type it. 6.4.2: fate points never drop below 0."""
    table, (ann, bob) = make_table("demloc", players=2)
    client.cookies[cookie_name(table.pk)] = seat_token(ann)
    html = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
    spend = html.split('value="demloc.fate.spend"')[1].split("</form>")[0]
    assert 'name="d.amount" type="number" min="1" max="3"' in spend
    url = reverse("tabletop:command", args=[table.code])
    for amount in ("99", "5", "4"):
        response = client.post(
            url, {"type": "demloc.fate.spend", "d.amount": amount, "d.reason": ""}
        )
        body = response.content.decode()
        assert response.status_code == 400 and 'data-code="not_enough_fate"' in body, amount
        assert "You hold 3 fate points: spend 1 to 3." in body, amount
    for amount in ("0", "x", "-1"):
        response = client.post(url, {"type": "demloc.fate.spend", "d.amount": amount})
        assert 'data-code="bad_input"' in response.content.decode(), amount
    response = client.post(url, {"type": "demloc.fate.spend", "d.amount": "2", "d.reason": "x"})
    assert response.status_code == 200
    html = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
    spend = html.split('value="demloc.fate.spend"')[1].split("</form>")[0]
    assert 'min="1" max="1"' in spend
    response = client.post(url, {"type": "demloc.fate.spend", "d.amount": "2"})
    assert "You hold 1 fate point: spend 1." in response.content.decode()


def test_junk_dice_on_a_shot_that_fails_its_test_are_refused_at_the_form_7_2_1(client, make_table):
    """Found by a new user: junk fighting dice were accepted on a shot whose test failed."""
    table, (ann, bob) = make_table("demloc", players=2)
    client.cookies[cookie_name(table.pk)] = seat_token(ann)
    url = reverse("tabletop:command", args=[table.code])
    form = {"type": "demloc.shot.propose", "d.shooter": "s0-korr:0", "d.target": "s1-bram",
            "d.test_roll": "6", "d.fate": "0", "d.cover": "0", "d.extra": "0"}
    response = client.post(url, {**form, "d.dice": "\U0001f608 <b>x</b> 999\u2026"})
    assert response.status_code == 400
    assert 'data-code="bad_dice"' in response.content.decode()
    table.refresh_from_db()
    assert table.state["notice"] is None
    assert client.post(url, {**form, "d.dice": ""}).status_code == 200
    table.refresh_from_db()
    assert table.state["notice"]["kind"] == "stray"


def test_a_calculation_on_bobs_character_lands_his_phone_on_apply_and_cancel(client, make_table):
    """Found by a new user on a 360x740 phone: Ann's shot on Bob's character waited for his
    Apply or Cancel (7.2.2: the shot's result is checked by both players), his alert said so,
    and the panel was ~1000 px down the page with no way to it. The panel that waits for this
    phone is marked ``data-land="open"`` (the kit lands the phone on it when it appears and
    when the page is opened, KIT.md section 3) and his alert names it; Ann's, who worked it
    out, and a watcher's are not marked (their scrolling is their own)."""
    import re

    table, (ann, bob) = make_table("demloc", players=2)
    url = reverse("tabletop:table", args=[table.code])

    def page(seat):
        if seat is None:
            return type(client)().get(url).content.decode()
        client.cookies[cookie_name(table.pk)] = seat_token(seat)
        return client.get(url).content.decode()

    def panel(html):
        return re.search(r'<section class="card dl-pending"[^>]*>', html).group(0)

    assert 'id="dl-pending"' not in page(bob)
    run(table, ann, "shot.propose", shooter="s0-korr", target="s1-bram", test_roll=1,
        dice=[3, 3, 3])
    bob_page = page(bob)
    assert 'data-land="open"' in panel(bob_page)
    bar = re.search(r'<section class="card dl-turn"[^>]*>', bob_page).group(0)
    assert 'data-prompt-target="dl-pending"' in bar and "waits for you" in bar
    for other in (ann, None):
        html = page(other)
        # data-land (the phone that proposed it lands there after its tap), but not "open"
        assert 'data-land="open"' not in panel(html) and "data-prompt-target" not in html
    run(table, bob, "calc.apply")
    assert 'id="dl-pending"' not in page(bob)
