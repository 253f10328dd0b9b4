"""Two phones at 360x740 play a standard mission between two Guilds with 60-letter one-word
names (the most a Guild name may have; phones first, 360 px; DemLoc rulebook 6.4.1): no
page of the mission nor the lobby is wider than the phone, on either seat, with every other
Guild unfolded. A refused tap on a turn action in the bottom bar (a stale version, the offline
"Not sent yet") is a small line or two next to its button (wrapped, never cut off), which keeps its size; the whole message is
in its title and read out (role=alert)."""

from playwright.sync_api import expect

from missions.demo import load_demo_missions
from tests.e2e.conftest import login, shot
from tests.e2e.demloc_turns import deploy_and_start
from tests.e2e.test_mission_lobby import tap_next
from tests.missions.lifecycle_flow import build_guild

LONG = "Supercalifragilisticexpialidociousguild1Supercalifragilistic"  # 60 characters, no space
OTHER = "Pneumonoultramicroscopicsilicovolcanoguy" + "Pneumonoultramicrosc"  # 60, no space


def too_wide(page) -> dict:
    """How many CSS pixels the page is wider than the phone's 360 px, and the widest element's
    tag/class (``{}`` when nothing sticks out: no sideways scroll). A mobile browser widens its
    layout viewport to a page too wide (innerWidth grew to 496 here), so both are checked."""
    return page.evaluate(
        """() => {
          const d = document.documentElement;
          const wide = Math.max(d.scrollWidth, window.innerWidth);
          if (wide <= 360) return {};
          let worst = null, right = 0;
          for (const e of document.querySelectorAll('body *')) {
            const r = e.getBoundingClientRect().right;
            if (r > right) { right = r; worst = e; }
          }
          return {by: wide - 360,
                  widest: worst.tagName + '.' + worst.className + ' ' + Math.round(right)};
        }"""
    )


def unfold_everything(page) -> None:
    page.evaluate("document.querySelectorAll('#live details').forEach(d => d.open = true)")


def test_forty_letter_guild_names_never_widen_a_mission_page_and_a_refusal_stays_small(
    new_phone,
):
    assert len(LONG) == len(OTHER) == 60
    load_demo_missions()
    a = build_guild(LONG, "red", ("Rook",), feods=80)
    b = build_guild(OTHER, "blue", ("Ash",), feods=80)
    ann, bob = new_phone(), new_phone()
    login(ann, a.master.username)
    login(bob, b.master.username)
    ann.goto("/missions/")
    assert too_wide(ann) == {}  # the lobby names the Guild
    ann.get_by_text("The Drowned Bell").tap()
    ann.get_by_role("button", name="Open the mission table").tap()
    code = ann.locator("#join-code").inner_text().strip()
    bob.goto(f"/j/{code}/")
    bob.fill("#name", OTHER)
    bob.get_by_role("button", name="Join table").tap()
    expect(ann.locator(".seats")).to_contain_text(OTHER)
    assert too_wide(ann) == {} and too_wide(bob) == {}
    ann.get_by_role("button", name="Start the game").tap()
    for phone in (ann, bob):
        phone.get_by_role("button", name="Bring my Guild", exact=True).tap()
    for phone in (ann, bob):
        expect(phone.locator("#dl-guilds")).to_contain_text(OTHER)
        expect(phone.locator("#dl-guilds")).not_to_contain_text("waiting")  # both Guilds bound
    for stage in ("raffle", "objective", "map", "characters"):
        for phone in (ann, bob):
            tap_next(phone)
        for phone in (ann, bob):
            expect(phone.locator(f'[data-stage="{stage}"]')).to_be_visible()
    ann.get_by_role("button", name="Choose").first.tap()
    expect(ann.locator(".dl-picks")).to_contain_text("Rook")
    bob.get_by_role("button", name="Choose").first.tap()
    expect(bob.locator(".dl-picks")).to_contain_text("Ash")
    for stage in ("mana", "miniatures", "deployment"):
        for phone in (ann, bob):
            tap_next(phone)
        for phone in (ann, bob):
            expect(phone.locator(f'[data-stage="{stage}"]')).to_be_visible()
        assert too_wide(ann) == {} and too_wide(bob) == {}, stage
    deploy_and_start([ann, bob])
    for phone in (ann, bob):
        expect(phone.locator("#dl-turn-no")).to_be_visible()
        expect(phone.locator("body")).to_have_attribute("data-ws", "open")

    # The mission page on each seat: the other Guild's folded line names it (504 px before).
    expect(bob.locator("#dl-others .dl-folded > summary")).to_contain_text(LONG)
    expect(ann.locator("#dl-others .dl-folded > summary")).to_contain_text(OTHER)
    shot(bob, "mission-narrow-other-seat-folded")
    for phone, name in ((bob, "bob"), (ann, "ann")):
        assert too_wide(phone) == {}, name
        summary = phone.locator("#dl-others .dl-folded > summary").first.bounding_box()
        assert summary and summary["x"] + summary["width"] <= 360
        unfold_everything(phone)
        assert too_wide(phone) == {}, name
        assert phone.evaluate(
            "document.documentElement.scrollWidth <= window.innerWidth && window.innerWidth == 360"
        ), name
    bob.evaluate("window.scrollTo(0, 0)")
    bob.locator("#dl-others").scroll_into_view_if_needed()
    bob.screenshot(path="test-artifacts/mission-narrow-other-seat.png")
    bob.locator("#dl-players").scroll_into_view_if_needed()
    bob.screenshot(path="test-artifacts/mission-narrow-players.png")
    ann.goto("/missions/")
    assert too_wide(ann) == {}  # the lobby lists the table being played
    for path in ("log/", "seats/"):  # the mission's whole log and its seats
        bob.goto(f"/t/{code}/{path}")
        assert too_wide(bob) == {}, path
    shot(bob, "mission-narrow-seats")
    for phone in (ann, bob):
        phone.goto(f"/t/{code}/")
        expect(phone.locator("body")).to_have_attribute("data-ws", "open")

    # A refused tap in the bottom bar (turn actions): the phone's version is behind (someone acted).
    phone = next(p for p in (ann, bob) if p.get_by_role("button", name="Next: pass").count())
    phone.evaluate("window.scrollTo(0, 0)")
    bar = phone.locator("#dl-thumb")  # the turn actions, in the fixed bottom bar
    next_pass = phone.get_by_role("button", name="Next: pass")
    before = {"bar": bar.bounding_box(), "next": next_pass.bounding_box()}
    version = int(phone.locator("#live").get_attribute("data-version"))
    phone.evaluate(f"document.getElementById('live').dataset.version = '{version - 1}'")
    next_pass.tap()
    refusal = bar.locator('.alert.at-control[data-code="stale_version"]')
    expect(refusal).to_have_text("Someone acted just before you: look, then tap again.")
    expect(refusal).to_have_attribute("title", "Someone acted just before you: look, then tap again.")
    expect(refusal).to_have_attribute("role", "alert")
    after = {"bar": bar.bounding_box(), "next": next_pass.bounding_box()}
    shot_path = "test-artifacts/mission-narrow-stale-in-bar.png"
    phone.screenshot(path=shot_path)
    line = refusal.bounding_box()
    assert line and line["height"] <= 40, line  # small lines, wrapped (never cut off)
    assert after["next"]["height"] == before["next"]["height"]
    assert abs(after["next"]["width"] - before["next"]["width"]) <= 1
    assert after["bar"]["height"] - before["bar"]["height"] <= 48, (before, after)  # two small lines at most
    assert too_wide(phone) == {}

    # Offline: the tap is kept ("Not sent yet"), one line in the bar too.
    phone.context.set_offline(True)
    next_pass.tap()
    unsent = bar.locator('#unsent[data-code="not_sent"]')
    expect(unsent).to_be_visible()
    expect(unsent).to_have_attribute(
        "title", "Not sent yet: no connection. Your tap will be sent when you are back."
    )
    box = unsent.bounding_box()
    assert box and box["height"] <= 40, box  # two small lines: wrapped, not cut off
    assert next_pass.bounding_box()["height"] == before["next"]["height"]
    assert bar.bounding_box()["height"] - before["bar"]["height"] <= 60
    phone.screenshot(path="test-artifacts/mission-narrow-unsent-in-bar.png")
    shot(phone, "mission-narrow-unsent-full")
    phone.context.set_offline(False)
