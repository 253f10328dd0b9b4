"""The host's Seats page on a phone, by touch at 360x740: a seat taken from its phone is given
to another one by its QR code or by its link, shown to copy (a new user found only the QR
image); the list has no bullets and fits the screen."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table, shot, table_code


def test_a_seat_taken_from_its_phone_is_given_by_qr_or_link(new_phone):
    ann, ben = open_table(new_phone, "demloc")
    code = table_code(ann)
    ann.goto(f"/t/{code}/seats/")
    seat = ann.locator("#seat-1")
    seat.get_by_role("button", name="Take the seat from its phone").tap()
    link = ann.locator("#seat-1 input.handover-link")
    expect(link).to_be_visible()
    url = link.input_value()
    assert "/rejoin/" in url, url
    box = link.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    assert ann.evaluate("document.documentElement.scrollWidth") <= 360
    assert ann.locator("#seat-list").evaluate("l => getComputedStyle(l).listStyleType") == "none"
    expect(ann.locator("#seat-1 img.qr")).to_be_visible()
    shot(ann, "seats-handover-link")
    friend = new_phone()
    friend.goto(url)
    friend.locator("button").filter(has_text="seat").first.tap()
    expect(friend.locator("#live")).to_be_visible()
    shot(friend, "seats-handover-link-opened")
