"""Browser tests: a live ASGI server (uvicorn, as bin/run: HTTP + websockets) on the test database, and
Debian's Chromium (/usr/bin/chromium) driven by Playwright. Run in their own pytest process."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from guilds import models as gm
from guilds import services as gs
from missions.demo import load_demo_missions
from tests.guilds.factories import PASSWORD, CardSetFactory
from tests.missions.lifecycle_flow import build_guild, to_stage
from tests.missions.lifecycle_flow import open_table as open_mission
from tests.servers import OPEN_GATE, database_url, free_port, start_web, stop

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="session")
def browser_type_launch_args():
    return {
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
        ],
    }


@pytest.fixture(scope="session")
def server_url(django_db_setup, django_db_blocker):
    """``http://127.0.0.1:<port>``: the server ``bin/run`` starts (``tests.servers``, uvicorn)
    serving ``config.asgi`` on the test database."""
    with django_db_blocker.unblock():
        url = database_url()
    port = free_port()
    env = {
        **os.environ,
        **OPEN_GATE,
        "DATABASE_URL": url,
        "DEBUG": "0",  # as served to a network: no debug pages
        "TABLETOP_RNG_SEED": "e2e",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
    }
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / f"server-{os.getpid()}.log"
    with open(log_path, "w") as log:
        try:
            proc = start_web(port, env, log)
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}: {log_path.read_text()}") from exc
        yield f"http://127.0.0.1:{port}"
        stop(proc)


@pytest.fixture
def phone_at(browser, transactional_db):
    """``phone_at(base_url) -> Page``: a 360x740 touch phone in its own browser context (cookies)
    on the server at ``base_url`` (a test's own server, or a proxy in front of one)."""
    contexts, errors = [], []

    def make(base_url: str):
        context = browser.new_context(
            viewport={"width": 360, "height": 740},
            is_mobile=True,
            has_touch=True,
            device_scale_factor=1,
            base_url=base_url,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        # An uncaught error in a page's script fails the test (a new user's console showed
        # "Cannot read properties of undefined (reading 'concat')" after a Realm tap: the view
        # it was to hold was lost, and no test listened).
        page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"uncaught errors in the page's scripts: {errors}"


@pytest.fixture
def new_phone(phone_at, server_url):
    """``new_phone() -> Page``: a 360x740 touch phone in its own browser context (cookies), on
    the session's server."""
    return lambda: phone_at(server_url)


def in_screen(locator) -> None:
    """The locator's box is wholly inside the phone's screen (360x740): for pages without the
    table's bars (the Guild pages, the city); a table page's check is
    ``tests.e2e.test_landing.in_view``."""
    box, height = locator.bounding_box(), locator.page.viewport_size["height"]
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (box, height)


def shot(page, name: str) -> Path:
    """Save a full-page screenshot as ``test-artifacts/<name>.png``, the page left scrolled
    where it was: Chromium's capture of the whole page (beyond the viewport) leaves a page with
    a fixed element (the bottom bar) scrolled to its end (a phone read at scrollY 420 was at
    612 after it, which a test then took for another player's action moving its view)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    y = page.evaluate("window.scrollY")
    page.screenshot(path=str(path), full_page=True)
    page.evaluate("y => window.scrollTo(0, y)", y)
    return path


def unguarded(phone, locator) -> None:
    """Wait until a thumb's deliberate tap on ``locator``, which another phone's update just
    brought up, is taken as aimed at it (app.js): for 300 ms after an update (``AIM``) a tap in
    the bottom bar where a control the table no longer offers used to be is not sent and says
    "the table moved on" (a player could not have seen the new button yet); and a control that
    came up where this phone's last tap was is guarded for 500 ms (the ghost-tap guard, checked
    each animation frame). Call it once ``locator`` is visible."""
    phone.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    expect(locator.locator("xpath=ancestor-or-self::*[@data-tap-guard]")).to_have_count(0)
    phone.wait_for_timeout(350)  # AIM (300 ms) from the update that showed it


def tap_twice(button) -> None:
    """A control that asks for a second tap in place (``data-two-step``, app.js; tabletop/KIT.md
    "Where the page lands"): the first tap sends nothing and puts its text on the button, the
    second, on the same button, sends it. Taps on a touch phone, clicks elsewhere. Fails if the
    first tap did not arm the form (a native dialog would have been asked instead)."""
    handle = button.element_handle()
    touch = handle.evaluate("() => navigator.maxTouchPoints > 0")
    (handle.tap if touch else handle.click)()
    handle.wait_for_element_state("stable")
    armed = handle.evaluate("b => !!(b.form || b.closest('form')).dataset.armed")
    assert armed, "the first tap did not arm the form (data-two-step)"
    (handle.tap if touch else handle.click)()


def tap_through(button) -> None:
    """Send ``button``'s form whether or not it asks for a second tap (a Realm Pass asks only
    when it lets a binding succeed): ``tap_twice`` if its form is ``data-two-step``, else one
    tap (a click off a touch phone)."""
    handle = button.element_handle()
    if handle.evaluate("b => (b.form || b.closest('form')).hasAttribute('data-two-step')"):
        tap_twice(button)
        return
    touch = handle.evaluate("() => navigator.maxTouchPoints > 0")
    (handle.tap if touch else handle.click)()


INSET = 34  # px: an iPhone's home indicator (env(safe-area-inset-bottom))


def inset_phone(page, inset: int = INSET):
    """``page`` with a safe-area inset of ``inset`` px at the bottom of its screen (CDP)."""
    page.context.new_cdp_session(page).send(
        "Emulation.setSafeAreaInsetsOverride", {"insets": {"bottom": inset}}
    )
    return page


def host_lobby(new_phone, ruleset: str = "demloc", name: str = "Ann", *,
               options: dict | None = None):
    """A table's lobby opened by the page, by touch: on a new phone (``new_phone()``) ``name``
    fills the new-table form of ``ruleset`` (DemLoc: a training mission from /missions/new/;
    another game: /tables/new/ with that game chosen), sets its ``options`` (``{"#opt-pacts":
    "secret"}``) and taps "Open the table". Returns ``(host_page, code)``, the page on the
    lobby and the table's join code."""
    host = new_phone()
    host.goto("/missions/new/" if ruleset == "demloc" else "/tables/new/")
    if ruleset != "demloc":
        host.select_option("#ruleset", ruleset)
    host.fill("#name", name)
    for field, value in (options or {}).items():
        host.select_option(field, value)
    host.get_by_role("button", name="Open the table").tap()
    return host, host.locator("#join-code").inner_text().strip()


def open_table(new_phone, ruleset: str, players: int = 2, *,
               names: tuple[str, ...] = ("Ann", "Ben", "Cat"), options: dict | None = None,
               inset: int = INSET) -> list:
    """The way every table starts, by touch: ``names[0]`` opens a table of ``ruleset`` (DemLoc:
    a training mission from /missions/new/), setting the new-table form's ``options``
    (``{"#opt-turn_limit": "3"}``); the next ``players - 1`` take a seat by the code; once every
    phone's socket is open the host taps Start. Returns the phones in seat order, each showing
    the game (``data-status="playing"``) on an open socket.

    ``new_phone`` makes a phone (the fixture, or a wrapper of it), or is the phones themselves
    (a sequence of pages, the host first). Each phone gets a home-indicator inset of ``inset``
    px (0: none)."""
    given = iter(new_phone) if not callable(new_phone) else None

    def phone():
        page = next(given) if given is not None else new_phone()
        return inset_phone(page, inset) if inset else page

    host, code = host_lobby(phone, ruleset, names[0], options=options)
    phones = [host]
    for name in names[1:players]:
        guest = phone()
        guest.goto(f"/j/{code}/")
        guest.fill("#name", name)
        guest.get_by_role("button", name="Join table").tap()
        expect(host.locator(".seats")).to_contain_text(name)
        phones.append(guest)
    for each in phones:
        expect(each.locator("body")).to_have_attribute("data-ws", "open")
    host.get_by_role("button", name="Start the game").tap()
    for each in phones:
        expect(each.locator("#live")).to_have_attribute("data-status", "playing")
        expect(each.locator("body")).to_have_attribute("data-ws", "open")
    return phones


def table_code(phone) -> str:
    """The code of the table ``phone`` shows (its address, /t/CODE/)."""
    return re.search(r"/t/([A-Z0-9]+)/", phone.url).group(1)


def login(phone, username):
    phone.goto("/accounts/login/")
    phone.fill("#id_username", username)
    phone.fill("#id_password", PASSWORD)
    button = phone.locator("form button, form [type=submit]").last
    touch = phone.evaluate("() => navigator.maxTouchPoints > 0")
    with phone.expect_navigation():
        (button.tap if touch else button.click)()


def open_at_stage(new_phone, table, guilds, stage: str | None) -> list:
    """One phone per Guild (its master logged in) on ``table``'s page, each showing the
    preparation ``stage`` (``data-stage``; None: the mission in play or over, no preparation
    step to wait for) with its websocket open; returns the phones."""
    phones = []
    for guild in guilds:
        phone = new_phone()
        login(phone, guild.master.username)
        phone.goto(f"/t/{table.code}/")
        if stage is not None:
            expect(phone.locator(f'[data-stage="{stage}"]')).to_be_visible()
        expect(phone.locator("body")).to_have_attribute("data-ws", "open")
        phones.append(phone)
    return phones


def drowned_bell_at(new_phone, stage: str, heroes=("Rook", "Ash"), feods=(80, 80)) -> tuple:
    """Ann's Ravens (red) and Ben's Wolves (blue), one hero each, at the demo standard mission
    The Drowned Bell moved on to preparation ``stage`` (6.4.1), each master's phone on it
    (``open_at_stage``). Returns ``(table, seats, guilds, phones)``."""
    definition = next(d for d in load_demo_missions() if d.name == "The Drowned Bell")
    guilds = (build_guild("Ann's Ravens", "red", (heroes[0],), feods=feods[0]),
              build_guild("Ben's Wolves", "blue", (heroes[1],), feods=feods[1]))
    _mission, table, seats = open_mission(list(guilds), definition)
    to_stage(table, seats, stage)
    return table, seats, guilds, open_at_stage(new_phone, table, guilds, stage)


def redeem_cards(guild, cards, code: str, quantity: int = 1) -> None:
    """Give ``guild`` ``quantity`` of each of ``cards`` the way a player does: an equipment set
    holding them, its ``code`` redeemed (``set_code_redeem``)."""
    card_set = CardSetFactory(kind=gm.CardSet.Kind.EQUIPMENT)
    for card in cards:
        gm.SetCard.objects.create(card_set=card_set, card=card, quantity=quantity)
    gm.SetCode.objects.create(card_set=card_set, code=code)
    gs.set_code_redeem(guild=guild, code=code)


def guild_phone(new_phone, guild, path: str):
    """A new phone, ``guild``'s master logged in, on the Guild page ``path``."""
    phone = new_phone()
    login(phone, guild.master.username)
    phone.goto(path)
    return phone


def disabled_with_reason(phone, button_name: str, why, text: str, name: str) -> None:
    """The button named ``button_name``, scrolled to, is disabled and its reason ``why`` (a
    locator) says ``text`` inside the 740 px viewport; screenshot ``name``."""
    button = phone.get_by_role("button", name=button_name)
    button.scroll_into_view_if_needed()
    expect(button).to_be_disabled()
    expect(why).to_have_text(text)
    box = why.bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= 740, box
    shot(phone, name)


def tap_enabled(phone, button_name: str) -> None:
    """Tap the enabled button named ``button_name`` once scrolled to."""
    other = phone.get_by_role("button", name=button_name)
    expect(other).to_be_enabled()
    other.scroll_into_view_if_needed()
    other.tap()


def at_the_gate_with_a_code(new_phone, code: str):
    """House Ash's master on a new phone at the City Gate (/guild/gate/), the set code ``code``
    (of the unredeemed set "Bows of the Loch") typed in its field by touch. Returns the Guild,
    the ``SetCode`` and the phone."""
    guild = build_guild("House Ash", "red", ("Rook",))
    card_set = CardSetFactory(kind=gm.CardSet.Kind.EQUIPMENT, name="Bows of the Loch")
    set_code = gm.SetCode.objects.create(card_set=card_set, code=code)
    phone = guild_phone(new_phone, guild, "/guild/gate/")
    phone.locator("#set-code").tap()
    phone.locator("#set-code").press_sequentially(set_code.code)
    return guild, set_code, phone


def open_guild_menu(phone):
    """Tap the Guild menu's folded "Menu · <page>" line open (guilds/_nav.html) and check it
    fits a 360 px phone: its twelve links (the Guild's pages and Missions) each wholly on the screen and a touch target at least
    44 px tall, neither the menu nor the page scrolling sideways. Returns the menu (the
    navigation landmark)."""
    nav = phone.get_by_role("navigation", name="Guild")
    nav.locator("summary").tap()
    links = nav.get_by_role("link")
    assert links.count() == 12
    for i in range(links.count()):
        box = links.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, (links.nth(i).inner_text(), box)
        assert box["height"] >= 44, box
    assert nav.locator(".subnav").evaluate("n => n.scrollWidth <= n.clientWidth"), \
        "the menu scrolls sideways"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    return nav


def guild_menu(phone, page: str) -> None:
    """Go to a Guild page by its menu (guilds/_nav.html), by touch on a touch phone: open the
    folded "Menu · <page>" line, then tap ``page``'s chip."""
    nav = phone.get_by_role("navigation", name="Guild")
    link = nav.get_by_role("link", name=page, exact=True)
    touch = phone.evaluate("() => navigator.maxTouchPoints > 0")
    if not link.is_visible():
        summary = nav.locator("summary")
        (summary.tap if touch else summary.click)()
    with phone.expect_navigation():
        (link.tap if touch else link.click)()
