"""The first-access tour on a 360 px phone (DemLoc rulebook 6.2: "At the first access to the app,
players watch a tutorial explaining the main rules of the game"): the first visit of the Guild
office shows it, one step at a time, with the keyboard as with a finger; skipping hides it for
good; the office's Tour link opens it again. A dialog with its name, focus moved into it and
back to the Tour link when it closes."""

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from guilds import models, services
from guilds.demo import new_code
from tests.e2e.conftest import ARTIFACTS, login, shot
from tests.guilds.factories import CardSetFactory, UserFactory


def active(page) -> str:
    """What has the focus: its id, else its text."""
    return page.evaluate("document.activeElement.id || document.activeElement.textContent.trim()")


def visible_steps(page) -> list[str]:
    return page.eval_on_selector_all(
        "[data-step]",
        "els => els.filter(e => !e.hidden).map(e => e.querySelector('h3').textContent)",
    )


def test_first_visit_tour_skip_and_reopen_at_360_px_6_2(new_phone):
    account = models.AccountCode.objects.create(
        card_set=CardSetFactory(), code=new_code(models.AccountCode)
    )
    guild = services.guild_create(
        master=UserFactory(), account_code=account.code, name="House Vesper", colour="green"
    )
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto("/guild/")

    tour = phone.get_by_role("dialog", name="A short tour of your Guild")
    expect(tour).to_be_visible()
    expect(tour.locator("[data-tour-progress]")).to_have_text("Step 1 of 6.")
    assert active(phone) == "tour-title"  # focus moved into the dialog
    assert visible_steps(phone) == ["Your Guild"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    results = Axe().run(phone)
    serious = [
        v["id"]
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]
    assert serious == []
    shot(phone, "guild-tour-first-visit")
    phone.screenshot(path=str(ARTIFACTS / "guild-tour-360.png"))

    # The keyboard: Tab reaches Next (Back is hidden on the first step), Enter moves on and the
    # focus stays on the button used.
    phone.keyboard.press("Tab")
    assert active(phone) == "Next"
    phone.keyboard.press("Enter")
    expect(tour.locator("[data-tour-progress]")).to_have_text("Step 2 of 6.")
    assert visible_steps(phone) == ["City Gate and Dormitory"] and active(phone) == "Next"
    tour.get_by_role("button", name="Back").tap()
    expect(tour.locator("[data-tour-progress]")).to_have_text("Step 1 of 6.")
    assert active(phone) == "Next"  # Back is gone on the first step
    for step in range(2, 7):
        tour.get_by_role("button", name="Next").tap()
        expect(tour.locator("[data-tour-progress]")).to_have_text(f"Step {step} of 6.")
    assert visible_steps(phone) == ["The rules in one minute"]
    expect(tour.get_by_role("button", name="Next")).to_be_hidden()
    expect(tour.get_by_role("button", name="Done")).to_be_focused()
    tour.get_by_role("button", name="Back").tap()
    assert visible_steps(phone) == ["At the table"]
    expect(tour).to_contain_text("turn bar")

    # Skip (Escape, like the Skip button): gone, the focus on the Tour link, stored on the Guild.
    phone.keyboard.press("Escape")
    expect(phone.locator("[data-tour]")).to_have_count(0)
    expect(phone.get_by_role("link", name="Tour", exact=True)).to_be_focused()
    guild.refresh_from_db()
    assert guild.tour_seen
    shot(phone, "guild-tour-skipped")

    # It does not come back by itself.
    phone.goto("/guild/")
    expect(phone.get_by_role("heading", name="Master's office")).to_be_visible()
    expect(phone.locator("[data-tour]")).to_have_count(0)

    # The Tour link opens it again; Skip the tour with a tap closes it.
    phone.get_by_role("link", name="Tour", exact=True).tap()
    expect(tour).to_be_visible()
    expect(tour.locator("[data-tour-progress]")).to_have_text("Step 1 of 6.")
    tour.get_by_role("button", name="Skip the tour").tap()
    expect(phone.locator("[data-tour]")).to_have_count(0)
    phone.goto("/guild/")
    expect(phone.locator("[data-tour]")).to_have_count(0)
