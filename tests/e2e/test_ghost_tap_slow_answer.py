"""The ghost-tap guard (app.js; docs/playing.md "The Guild pages: where a tap lands") when the
answer is slow. Found by a new user: in the Dormitory, "Heal · 10 feods" tapped twice healed once
(the one-time key), but the second tap landed on Dismiss, which the answer had just moved under
the finger, and armed it ("Tap again to dismiss ...": a third tap would have dismissed the
mercenary). On a slow network the answer comes more than half a second after the tap, and a
player who saw nothing happen taps again: a control the answer brings under the finger is
guarded from the answer's arrival, not only for half a second from the tap. DemLoc rulebook
6.4.2 (an injured mercenary healed for its feods of care)."""

from playwright.sync_api import expect

from guilds import models as gm
from guilds import services as gs
from tests.missions.lifecycle_flow import build_guild

from .conftest import guild_phone, shot
from .test_guild_double_tap import SETTLED_AND_TAPPED


def test_a_second_tap_after_a_slow_heal_answer_does_not_arm_dismiss_6_4_2(new_phone):
    guild = build_guild("House Ash", "red", ("Rook", "Wren"))
    merc = gm.Mercenary.objects.filter(guild=guild).order_by("card__name").first()
    gs.mercenary_status_set(mercenary_id=merc.pk, status="injured", heal_feods=10)
    phone = guild_phone(new_phone, guild, "/guild/dormitory/")
    row = phone.locator(f"#merc-{merc.pk}")
    heal = row.get_by_role("button", name="Heal · 10 feods")
    heal.scroll_into_view_if_needed()
    phone.wait_for_timeout(600)  # a landing scroll done: the thumb's spot stays put
    box = heal.bounding_box()
    x, y = box["x"] + 12, box["y"] + box["height"] / 2  # where Dismiss comes once healed

    # A slow network: the answer comes 900 ms after the tap.
    def slow(route):
        phone.wait_for_timeout(900)
        route.continue_()

    phone.route("**/heal/**", slow)
    phone.evaluate(SETTLED_AND_TAPPED)
    phone.touchscreen.tap(x, y)
    phone.wait_for_function("() => window.settledAt > 0", polling="raf")
    # The answer's landing brought Dismiss under the finger (here: the page scrolled by what
    # moves Dismiss's centre to the spot, in the frame the answer settled), and the player, who
    # saw nothing happen, taps again.
    dismiss = row.get_by_role("button", name="Dismiss")
    phone.evaluate(
        """([x, y, id]) => {
          const b = document.querySelector('#' + id + ' form[hx-post*=dismiss] button');
          const r = b.getBoundingClientRect();
          window.scrollBy(0, (r.top + r.height / 2) - y);
        }""",
        [x, y, f"merc-{merc.pk}"],
    )
    under = phone.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('form').getAttribute('hx-post')",
        [x, y])
    assert "dismiss" in under, under  # Dismiss under the finger
    phone.touchscreen.tap(x, y)
    gap = phone.evaluate("window.tappedAt - window.settledAt")
    print(f"second tap {gap:.0f} ms after the answer settled")
    assert 0 < gap < 500, gap
    expect(row).to_contain_text("healed")
    phone.wait_for_timeout(300)
    expect(dismiss).to_have_text("Dismiss")
    expect(row.locator("form[data-armed]")).to_have_count(0)
    assert gm.Mercenary.objects.get(pk=merc.pk).status == "active"
    shot(phone, "ghost-tap-slow-heal")
    # A deliberate tap after the guard arms it as before.
    phone.wait_for_timeout(600)
    dismiss.tap()
    expect(dismiss).to_contain_text("Tap again to dismiss")
