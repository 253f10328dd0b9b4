"""After sign-up a new Guild Master sees the next step (DemLoc rulebook 6.2, first access: the
Guild is founded with the player account card's code). Found by a new user: after sign-up the
home page said nothing of founding a Guild; only the header's "Guild" link led there."""

from playwright.sync_api import expect

from tests.e2e.conftest import shot


def test_sign_up_lands_on_the_founding_form_and_home_points_to_it_6_2(new_phone):
    phone = new_phone()
    phone.goto("/accounts/signup/")
    phone.fill("#id_username", "fresh17")
    phone.fill("#id_password1", "a-long-pass-phrase-42")
    phone.fill("#id_password2", "a-long-pass-phrase-42")
    phone.get_by_role("button", name="Create account").tap()
    expect(phone.get_by_role("heading", name="Found your Guild")).to_be_in_viewport()
    expect(phone.get_by_text("Next: found your Guild.")).to_be_in_viewport()
    shot(phone, "signup-next-found")
    phone.goto("/")
    link = phone.get_by_role("link", name="Found your Guild")
    expect(link).to_be_in_viewport()
    shot(phone, "home-found-your-guild")
    link.tap()
    expect(phone.locator("#code")).to_be_visible()
