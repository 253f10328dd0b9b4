"""Every kit page fits a 360 px phone (no sideways scroll), with a screenshot of each."""

from playwright.sync_api import expect

from tests.e2e.conftest import shot

OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def test_kit_pages_fit_a_360px_phone(new_phone):
    ann = new_phone()
    widths = {}

    def look(name):
        widths[name] = ann.evaluate(OVERFLOW)
        shot(ann, f"kit-{name}")

    ann.goto("/")
    look("home")
    ann.goto("/tables/new/?game=personimo")
    expect(ann.locator('fieldset[data-game="personimo"]')).to_be_visible()
    look("new-table")
    ann.select_option("#ruleset", "counter")
    ann.fill("#name", "W" * 40)
    ann.get_by_role("button", name="Open the table").tap()
    code = ann.locator("#join-code").inner_text().strip()
    look("lobby")
    ann.goto("/join/?code=QQQQQQ")
    expect(ann.locator(".alert")).to_contain_text("No table has the code")
    look("join-unknown")
    ann.goto(f"/t/{code}/")
    ann.get_by_role("button", name="Start the game").tap()
    expect(ann.locator("#total")).to_have_text("0")
    look("counter")
    ann.goto(f"/t/{code}/log/")
    look("log")
    # The log's lines sit inside its card, not against its border (a new user's log page).
    inset = ann.evaluate("""() => {
      const card = document.querySelector('ol.log.card').getBoundingClientRect();
      const line = document.querySelector('ol.log.card li').getBoundingClientRect();
      return line.left - card.left;
    }""")
    assert inset >= 8, inset
    ben = new_phone()
    ben.goto(f"/j/{code}/")
    expect(ben.locator("#join-started")).to_contain_text("already started")
    widths["join-started"] = ben.evaluate(OVERFLOW)
    shot(ben, "kit-join-started")
    ann.goto("/no-such-page/")
    look("not-found")
    assert widths == dict.fromkeys(widths, 0), widths
