"""A select rendered without a chosen option is not the player's choice (frontend/app.js,
``selectChanged``), by touch at 360x740. Found by a new user: Bram killed by a shot, the
Shoot form of the other phone listed Gunner first; the kill undone, Bram was first again, but
the form kept Gunner "as chosen", and the shot worked out again hit Gunner."""

from playwright.sync_api import expect

from tabletop import services
from tabletop.models import Table
from tabletop.rules import Command
from tests.e2e.conftest import open_table, shot, table_code
from tests.e2e.test_landing import open_sheet


def test_undo_of_a_kill_gives_the_shoot_form_its_first_target_back(new_phone):
    ann, ben = open_table(new_phone, "demloc")
    table = Table.objects.get(code=table_code(ann))
    seats = {s.number: s for s in table.seats.all()}
    box = open_sheet(ann, "s0-korr", "shoot")
    target = box.locator('select[name="d.target"]')
    first = target.evaluate("s => s.options[0].value")
    expect(target).to_have_value(first)

    def version():
        table.refresh_from_db()
        return str(table.version)

    # Ben's first-listed character is killed (his own damage by hand), so it leaves the list...
    services.run_command(table, seats[1], Command("demloc.damage.assign",
                                                  {"piece": first, "amount": 30,
                                                   "mode": "general"}))
    expect(ann.locator("#live")).to_have_attribute("data-version", version())
    expect(target.locator(f'option[value="{first}"]')).to_have_count(0)
    other = target.evaluate("s => s.value")
    assert other != first
    # ... and the kill is undone: it is back, first, and the form shows it, not the other.
    services.run_command(table, seats[1], Command("table.undo", {}))
    expect(ann.locator("#live")).to_have_attribute("data-version", version())
    expect(target.locator(f'option[value="{first}"]')).to_have_count(1)
    expect(target).to_have_value(first)
    shot(ann, "undo-target-first-again")
    print(f"target after the kill: {other}; after its undo: {target.evaluate('s => s.value')}")
