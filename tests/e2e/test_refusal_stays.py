"""A refusal at the control that caused it stays long enough to be read, whatever the other
phones do meanwhile (frontend/app.js, ``KEEP_REFUSAL``), by touch at 360x740. Found by a new
user: at the preparation's Mana step (6.4.1) Ann tapped Next without her Cultist's arcane dice;
Bob tapped Next 0.4 s later, and the refusal went with his update before Ann saw it."""

import re
import time

from playwright.sync_api import expect

from missions.demo import load_demo_missions
from tabletop import services as table_services
from tabletop.rules import Command
from tests.e2e.conftest import open_at_stage, shot
from tests.e2e.test_landing import in_view
from tests.missions.lifecycle_flow import all_next, build_guild, cmd, roster_id, state, to_stage
from tests.missions.lifecycle_flow import open_table as open_mission


def test_a_refusal_at_next_outlives_the_other_phones_next_tap_6_4_1(new_phone):
    definition = next(d for d in load_demo_missions() if d.name == "The Drowned Bell")
    a = build_guild("Ann's Ravens", "red", ("Seer",), feods=80, arcane=4)
    b = build_guild("Bob's Wolves", "blue", ("Ash",), feods=80)
    _mission, table, seats = open_mission([a, b], definition)
    to_stage(table, seats, "characters")
    cmd(table, seats[0], "setup.pick", character=roster_id(table, seats[0], "Seer"))
    cmd(table, seats[1], "setup.pick", character=roster_id(table, seats[1], "Ash"))
    all_next(table, seats)
    assert state(table)["setup"]["stage"] == "mana"
    ann, bob = open_at_stage(new_phone, table, (a, b), "mana")
    ann.locator("#bottom-bar").get_by_role("button", name=re.compile("^Next")).tap()
    refusal = ann.locator("#live .alert.at-control")
    expect(refusal).to_contain_text("Seer")
    refused_at = time.monotonic()
    said = refusal.inner_text()
    version = state(table)["version"]
    bob.locator("#bottom-bar").get_by_role("button", name=re.compile("^Next")).tap()
    expect(ann.locator("#live")).to_have_attribute("data-version", str(version + 1))
    ann.wait_for_timeout(300)
    expect(refusal).to_have_text(said)  # still there after Bob's update
    in_view(ann, refusal)
    shot(ann, "refusal-stays-after-other-tap")
    print(f"after Bob's Next (version {version + 1}), Ann still reads: {said!r}")

    # Once KEEP_REFUSAL (5 s) is up, the next update takes it away: Bob undoes his Next.
    ann.wait_for_timeout(max(0, 5.3 - (time.monotonic() - refused_at)) * 1000)
    expect(refusal).to_have_text(said)  # nothing came since: it stays
    table_services.run_command(table, seats[1], Command("table.undo"))
    expect(ann.locator("#live")).to_have_attribute("data-version", str(version + 2))
    expect(refusal).to_have_count(0)
    expect(ann.locator("#bottom-bar").get_by_role("button", name=re.compile("^Next"))).to_be_visible()
