"""A tap made offline on a 360 px phone (found by a new user on two phones): the "Not sent yet"
line wraps (it was cut off with an ellipsis), the red Offline banner never hides DemLoc's turn
bar (it sat on top of it), and a queued tap that the table refuses on reconnect because the
other phone moved meanwhile (409, stale_version) says so at the control, once (before, nothing told the player; then the
banner said it again over the line). DemLoc rulebook 7.2 (the turn sequence: Next: pass)."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table

NOT_APPLIED = "Your tap while offline was not applied: the table moved on. Look, then tap again."
UNSENT = "Not sent yet: no connection. Your tap will be sent when you are back."

CUT_OFF = """e => {
  const s = getComputedStyle(e);
  return e.scrollWidth > e.clientWidth + 1 || s.textOverflow === 'ellipsis' && s.whiteSpace === 'nowrap';
}"""


def overlap(a: dict, b: dict) -> float:
    """Vertical overlap in px of two bounding boxes."""
    return max(0.0, min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]))


def test_an_offline_tap_wraps_the_banner_hides_no_turn_bar_and_a_stale_resend_says_so(new_phone):
    phones = open_table(new_phone, "demloc")
    acting = next(p for p in phones if p.get_by_role("button", name="Next: pass").count())
    other = next(p for p in phones if p is not acting)
    phase = acting.locator("#dl-phase").inner_text()
    acting_line = acting.locator("#dl-acting").inner_text()

    acting.context.set_offline(True)
    acting.get_by_role("button", name="Next: pass").tap()
    unsent = acting.locator('#dl-thumb #unsent[data-code="not_sent"]')
    expect(unsent).to_have_text(UNSENT)
    assert not unsent.evaluate(CUT_OFF)  # wrapped, whole
    box = unsent.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    banner = acting.locator("#net")
    expect(banner).to_contain_text("Offline")
    # Scrolled down, the turn bar sticks under the banner, not behind it.
    acting.evaluate("window.scrollTo(0, 600)")
    acting.wait_for_timeout(200)
    turn = acting.locator("#dl-turn")
    expect(turn).to_be_in_viewport()
    assert overlap(banner.bounding_box(), turn.bounding_box()) < 1, (
        banner.bounding_box(), turn.bounding_box())
    acting.screenshot(path="test-artifacts/offline-tap-unsent.png")

    other.get_by_role("button", name="+1 fate point").tap()  # the table moves on
    expect(other.locator("#dl-my-fate")).to_have_text("your fate 4")

    acting.context.set_offline(False)
    at_control = acting.locator('#dl-thumb .alert[data-code="stale_version"]')
    expect(at_control).to_have_text(NOT_APPLIED, timeout=20_000)
    # said once: at the control, in view; the banner does not say it again
    expect(banner).not_to_have_text(NOT_APPLIED)
    assert not at_control.evaluate(CUT_OFF)
    expect(acting.locator("#unsent")).to_have_count(0)
    assert overlap(banner.bounding_box(), turn.bounding_box()) < 1
    acting.screenshot(path="test-artifacts/offline-tap-not-applied.png")
    # Not applied: the same phase, the same player to act.
    expect(acting.locator("#dl-phase")).to_have_text(phase)
    expect(acting.locator("#dl-acting")).to_have_text(acting_line)



def test_offline_leaves_no_unreadable_console_error(new_phone):
    """Found by a new user: offline, the console got ``console.error`` of "[object Event]" (the
    live connection failing) and "htmx:sendError, [object HTMLBodyElement]" (a tap's request
    not sent). The page says it (the banner, "Not sent yet" at the control); the console gets a
    readable line, never an error made of "[object ...]"."""
    phones = open_table(new_phone, "demloc")
    acting = next(p for p in phones if p.get_by_role("button", name="Next: pass").count())
    logged = []
    acting.on("console", lambda m: logged.append((m.type, m.text)))
    acting.context.set_offline(True)
    acting.get_by_role("button", name="Next: pass").tap()
    expect(acting.locator('#dl-thumb #unsent[data-code="not_sent"]')).to_have_text(UNSENT)
    expect(acting.locator("#net")).to_contain_text("Offline")
    acting.wait_for_timeout(3000)  # the socket's reconnections fail meanwhile
    acting.context.set_offline(False)
    expect(acting.locator("body")).to_have_attribute("data-ws", "open", timeout=20_000)
    print("console:", logged)
    unreadable = [t for kind, t in logged if kind == "error" and ("[object" in t or t.startswith("htmx:"))]
    assert not unreadable, unreadable
    assert any(kind == "info" and t.startswith("DemLoc: no connection") for kind, t in logged), logged


def test_an_offline_tap_is_sent_once_when_back_7_2(new_phone):
    """Found by a new user: a tap made offline was sent three times on reconnect (applied
    once, the idempotency key), and a refused one twice more: htmx queued the re-send behind
    the catch-up's request of #live and resolved it at once, unanswered, so the tap went again
    at the socket's first frame and once more after. Sent once."""
    phones = open_table(new_phone, "demloc")
    phone = phones[0]
    fate = phone.locator("#dl-my-fate")
    before = fate.inner_text()
    sent = []
    phone.on("request", lambda r: sent.append(r.headers.get("x-resent-tap"))
             if r.method == "POST" and "/command/" in r.url else None)
    phone.context.set_offline(True)
    plus = phone.locator("#dl-players").get_by_role("button", name="+1 fate point").first
    phone.locator("#dl-players h2").tap()
    plus.tap()
    expect(phone.locator("#unsent")).to_have_text(UNSENT)
    phone.context.set_offline(False)
    expect(fate).not_to_have_text(before, timeout=20_000)
    phone.wait_for_timeout(3000)  # any further re-send would have gone by now (0.5-4 s apart)
    resent = [h for h in sent if h == "1"]
    assert len(resent) == 1, sent
