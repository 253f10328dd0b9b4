"""Personimo on the live-table kit: whole games through run_command, replay, and the page."""

import random
import re

import pytest

from tabletop import services
from tabletop.errors import RuleViolation
from tabletop.live import live_context
from tabletop.live import render_live as render_region_html
from tabletop.models import Table
from tabletop.personimo.rules import PersonimoRuleset
from tabletop.rules import Command

RULES = PersonimoRuleset()


def next_command(table, pick):
    """The seat to act and a random command its page offers (``RULES.moves`` of its view)."""
    state = RULES.load(table.state)
    seat = state["actor"]["seat"]
    return seat, pick.choice(RULES.moves(RULES.view(state, seat), seat))


def play_through_run_command(table, seats, seed):
    pick = random.Random(seed)
    commands = 0
    while table.status == Table.Status.PLAYING:
        number, command = next_command(table, pick)
        result = services.run_command(table, seats[number], command,
                                      expected_version=table.version)  # fmt: skip
        assert not result.replayed
        table.refresh_from_db()
        commands += 1
        assert commands < 500
    return commands


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, None), (4, None),
     (4, {"market": "four_lights", "soothsayer": "yes", "extra_cards": "both", "bonus": "all"})],
)  # fmt: skip
def test_a_full_game_through_run_command_replays_to_the_projection(make_table, players, options):
    table, seats = make_table("personimo", players=players, options=options)
    assert table.status == Table.Status.PLAYING
    play_through_run_command(table, seats, seed=players)
    assert table.status == Table.Status.FINISHED
    state = RULES.load(table.state)
    assert state["phase"] == "over"
    if options is None:
        for district in state["districts"]:
            assert len(district["cards"]) + len(district["discards"]) == 12
    replay = services.table_replay(table)
    assert replay["state_matches"] and replay["meta_matches"]
    places = sorted(r["place"] for r in state["results"])
    assert places[0] == 1
    types = list(table.events.values_list("type", flat=True))
    assert types[:3] == ["table.started", "personimo.game.set_up", "personimo.market.dealt"]
    assert types[-1] == "personimo.game.ended"


def test_undo_takes_back_a_placement_but_not_past_a_deal(make_table):
    table, seats = make_table("personimo", players=2)
    state = RULES.load(table.state)
    for index in range(4):  # the first row's claims; the last one deals the next row (final)
        seat = state["actor"]["seat"]
        services.run_command(table, seats[seat], Command("personimo.claim", {"index": index}))
        table.refresh_from_db()
        state = RULES.load(table.state)
    with pytest.raises(RuleViolation) as exc:
        services.run_command(table, seats[0], Command("table.undo"))
    assert exc.value.code == "nothing_to_undo"
    seat = state["actor"]["seat"]
    legal = RULES.view(state, seat)["placing"]["legal"]
    services.run_command(table, seats[seat], Command("personimo.place", legal[0]))
    services.run_command(table, seats[seat], Command("table.undo"))
    table.refresh_from_db()
    assert RULES.load(table.state) == state
    assert services.table_replay(table)["state_matches"]


def test_start_with_an_unsupported_variant_is_refused_and_nothing_is_written(make_table):
    table, seats = make_table("personimo", players=1, options={"solitaire": "thorny_crown"},
                              start=False)  # fmt: skip
    with pytest.raises(RuleViolation) as exc:
        services.run_command(table, seats[0], Command("table.start"))
    assert exc.value.code == "variant_unsupported"
    table.refresh_from_db()
    assert (table.status, table.version, table.events.count()) == (Table.Status.LOBBY, 0, 0)


def render_live(table, seat):
    return render_region_html(live_context(None, table, seat, base_url="http://testserver"))  # fmt: skip


def test_the_page_offers_claims_only_to_the_seat_whose_turn_it_is(make_table):
    table, seats = make_table("personimo", players=2)
    actor = RULES.load(table.state)["actor"]["seat"]
    mine = render_live(table, seats[actor])
    theirs = render_live(table, seats[1 - actor])
    assert mine.count('name="type" value="personimo.claim"') == 4
    assert "Your turn" in mine
    assert 'value="personimo.claim"' not in theirs
    assert "Waiting for" in theirs
    assert mine.count('class="pm-cell empty"') == 24  # 5x5 less the headquarters


def test_the_page_lists_legal_placements_and_ends_with_the_scores(make_table):
    table, seats = make_table("personimo", players=2)
    pick = random.Random(1)
    while RULES.load(table.state)["actor"]["action"] == "claim":
        number, command = next_command(table, pick)
        services.run_command(table, seats[number], command)
        table.refresh_from_db()
    placer = RULES.load(table.state)["actor"]["seat"]
    html = render_live(table, seats[placer])
    assert 'id="pm-legal"' in html and 'value="personimo.place"' in html
    assert 'id="pm-legal"' not in render_live(table, seats[1 - placer])
    play_through_run_command(table, seats, seed=1)
    final = render_live(table, seats[0])
    assert "Final scores" in final and "Game over" in final
    state = RULES.load(table.state)
    best = max(r["total"] for r in state["results"])
    assert f"wins with {best}." in final or f"tie with {best}." in final
    assert " x " in final  # each neighborhood's arithmetic
    # Final scores in rank order, the winner first, on every phone (not "my district first").
    for seat in seats:
        block = render_live(table, seat).split('id="pm-scores"')[1].split("</table>")[0]
        rows = re.findall(r"<td>(\d+)\. ([^<]+)</td><td>(\d+)</td>", block)
        assert len(rows) == 2 and [int(r[0]) for r in rows] == sorted(int(r[0]) for r in rows)
        assert [int(r[2]) for r in rows] == sorted((int(r[2]) for r in rows), reverse=True)


def test_the_new_table_page_opens_a_table_with_the_chosen_variants(client, db):
    page = client.get("/tables/new/").content.decode()
    assert 'name="opt.market"' in page and "There are Four Lights" in page
    response = client.post("/tables/new/", {"ruleset": "personimo", "name": "Ann",
                                            "opt.market": "four_lights", "opt.bonus": "badgers"})  # fmt: skip
    assert response.status_code == 302
    table = Table.objects.get()
    assert (table.options["market"], table.options["district"]) == ("four_lights", "5")


def test_the_page_shows_the_latest_log_lines_narrated_from_events(make_table):
    # Narration is not state: the projection holds no prose, the page narrates.
    table, seats = make_table("personimo", players=2)
    state = RULES.load(table.state)
    seat = state["actor"]["seat"]
    services.run_command(table, seats[seat], Command("personimo.claim", {"index": 0}))
    table.refresh_from_db()
    assert "claimed" not in str(table.state) and "log" not in table.state
    html = render_live(table, seats[0])
    assert 'id="pm-log"' in html
    assert f"{seats[seat].name} claimed" in html


def test_the_new_table_page_offers_or_refuses_every_variant_with_the_rulebook_words(client, db):
    # Refused variants are listed with the reason and the rulebook's quote.
    page = client.get("/tables/new/").content.decode()
    for text in ("The Tournament", "Unknotted", "Knot Eventful", "The Unbalancing",
                 "Teams of two players can also collaborate on one 7x7 district",
                 "Each architect is assigned two districts", "Don Giovanni",
                 "the suit of the colored middle counting for both squares", "6x6x3",
                 "Architect of the Year", "A winning scores is 120 or more"):  # fmt: skip
        assert text in page, text
