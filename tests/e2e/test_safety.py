"""In a real Chromium: the service worker keeps static files only, never a
page with a hand or a seat's secret, and empties its cache at logout; the pages run under the
Content-Security-Policy without a violation."""

from playwright.sync_api import expect

from tests.e2e.conftest import shot, tap_twice


def _cached_urls(page) -> list[str]:
    return page.evaluate(
        """async () => {
            const out = [];
            for (const name of await caches.keys()) {
                for (const req of await (await caches.open(name)).keys()) out.push(req.url);
            }
            return out;
        }"""
    )


def test_the_service_worker_keeps_no_page_and_forgets_everything_at_logout(new_phone, db):
    from django.contrib.auth.models import User

    User.objects.create_user("gm", password="right-horse-battery")
    phone = new_phone()
    violations = []
    phone.on(
        "console", lambda m: violations.append(m.text) if "Content Security" in m.text else None
    )
    phone.goto("/accounts/login/")
    phone.fill("#id_username", "gm")
    phone.fill("#id_password", "right-horse-battery")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Log in").tap()
    phone.goto("/tables/new/")
    phone.select_option("#ruleset", "counter")
    phone.fill("#name", "Ann")
    phone.get_by_role("button", name="Open the table").tap()
    expect(phone.locator("#join-code")).to_be_visible()
    phone.evaluate("navigator.serviceWorker.ready.then(() => true)")
    phone.reload()  # now under the worker's control
    expect(phone.locator("body")).to_have_attribute("data-ws", "open")
    phone.wait_for_function("navigator.serviceWorker.controller !== null")
    cached = _cached_urls(phone)
    assert cached and all("/static/" in url for url in cached), cached
    # Something private the worker might hold: gone after logout.
    phone.evaluate(
        "caches.open('demloc-static-v2').then(c => c.put('/static/marker', new Response('x')))"
    )
    assert any(u.endswith("/static/marker") for u in _cached_urls(phone))
    tap_twice(phone.get_by_role("button", name="Log out"))  # (data-two-step: Log out asks)
    expect(phone.get_by_role("link", name="Log in", exact=True)).to_be_visible()
    phone.wait_for_function(
        """async () => {
            for (const name of await caches.keys()) {
                const keys = await (await caches.open(name)).keys();
                if (keys.some(r => r.url.endsWith('/static/marker'))) return false;
            }
            return true;
        }"""
    )
    assert not [u for u in _cached_urls(phone) if "/static/" not in u]
    shot(phone, "logged-out")
    assert violations == []


def test_pages_pass_the_content_security_policy(new_phone, server_url):
    """Every kind of page loads and works under the CSP: no violation reported."""
    phone = new_phone()
    violations = []
    phone.on(
        "console", lambda m: violations.append(m.text) if "Content Security" in m.text else None
    )
    response = phone.goto("/")
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("style-src")[0]
    for path in ("/tables/new/", "/accounts/login/", "/join/", "/missions/", "/personimo/score/"):
        phone.goto(path)
    phone.goto("/api/docs/")
    expect(phone.locator(".swagger-ui")).to_be_visible()
    phone.goto("/missions/reference/")
    phone.fill("#ref-search", "zzzz-nothing")
    expect(phone.locator("#ref-none")).to_be_visible()  # the search (a static script) runs
    phone.goto("/tables/new/")
    phone.select_option("#ruleset", "counter")
    phone.fill("#name", "Ann")
    phone.get_by_role("button", name="Open the table").tap()
    expect(phone.locator("body")).to_have_attribute("data-ws", "open")  # websocket allowed
    assert violations == []
