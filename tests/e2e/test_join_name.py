"""A refused name on the join page is said at its field (docs/playing.md: names; found by a new
user at 360x740: "Someone at this table is already called ..." printed at the top of the page,
away from the field to correct). Touch taps; screenshots in test-artifacts/."""

from playwright.sync_api import expect

from tests.e2e.conftest import host_lobby, shot


def test_a_look_alike_name_is_refused_at_the_name_field(new_phone):
    host, code = host_lobby(new_phone, "realm")

    guest = new_phone()
    guest.goto(f"/j/{code}/")
    guest.locator("#name").tap()
    guest.locator("#name").fill("")
    guest.locator("#name").press_sequentially("AnN")
    guest.get_by_role("button", name="Join table").tap()
    error = guest.locator("#name-error")
    expect(error).to_have_text("Someone at this table is already called Ann (or close).")
    box = error.bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= 740, box  # in view
    field = guest.locator("#name")
    expect(field).to_have_value("AnN")  # kept, to be corrected
    expect(field).to_have_attribute("aria-invalid", "true")
    assert "name-error" in field.get_attribute("aria-describedby")
    # said once, at the field: not again at the top
    expect(guest.locator("[data-code=name_taken]")).to_have_count(1)
    error_box, field_box = error.bounding_box(), field.bounding_box()
    assert 0 <= error_box["y"] - (field_box["y"] + field_box["height"]) < 80, (error_box, field_box)
    shot(guest, "join-name-refused")

    field.tap()
    field.fill("")
    field.press_sequentially("Ben")
    guest.get_by_role("button", name="Join table").tap()
    expect(host.locator(".seats")).to_contain_text("Ben")
