"""Browser steps shared by the DemLoc mission tests: playing a turn to its end on the phones
and achieving the objective the way the rules allow (DemLoc rulebook 7.2, 7.3, 7.3.2.3)."""

from playwright.sync_api import expect

from tests.e2e.conftest import shot


def version(page) -> int:
    return int(page.locator("#live").get_attribute("data-version") or 0)


def in_sync(phones) -> None:
    """Every phone shows the newest version any of them shows."""
    newest = max(version(p) for p in phones)
    for p in phones:
        expect(p.locator("#live")).to_have_attribute("data-version", str(newest))


def deploy_and_start(phones) -> None:
    """Deployment (6.4.1): whoever is asked taps Placed, one miniature each, and every phone
    sees each one placed; then every phone taps Next at the start stage."""
    for placed in range(1, len(phones) + 1):
        acting = next(p for p in phones if p.get_by_role("button", name="Placed").count())
        acting.get_by_role("button", name="Placed").click()
        for phone in phones:
            expect(phone.locator("#dl-minis .badge.ok")).to_have_count(placed)
    for phone in phones:
        expect(phone.locator('[data-stage="start"]')).to_be_visible()
        phone.get_by_role("button", name="Next").click()


def play_to_turn_end(phones) -> None:
    """Whoever acts taps Next: pass until both phases are over (2 passes per player)."""
    for _ in range(2 * len(phones)):
        in_sync(phones)
        acting = next(p for p in phones if p.get_by_role("button", name="Next: pass").count())
        before = version(acting)
        acting.get_by_role("button", name="Next: pass").click()
        expect(acting.locator("#live")).not_to_have_attribute("data-version", str(before))
    in_sync(phones)


def achieve_objective(claimer, others) -> None:
    """7.3.2.3: at the end of the turn the claimer taps Objective achieved (and confirms the
    dialog); every other phone confirms the claim."""
    play_to_turn_end([claimer, *others])
    claimer.once("dialog", lambda d: d.accept())
    claimer.get_by_role("button", name="Objective achieved").click()
    for phone in others:
        expect(phone.locator("#dl-claim")).to_be_visible()
        shot(phone, "mission-objective-claim")
        for label in ("Confirm the claim", "Dispute it"):  # one line each, half the bar wide
            box = phone.get_by_role("button", name=label).bounding_box()
            assert box["height"] <= 56, (label, box)
        phone.get_by_role("button", name="Confirm the claim").click()
