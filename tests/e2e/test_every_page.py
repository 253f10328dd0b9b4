"""Every page of the product on a 360x740 phone: the shell (home, sign
up, log in, 404, health, operations), every Guild page, the mission pages from the lobby to the
battle report, and each card game's lobby, table and log. On each page:

(a) no word wraps in the middle (every word's ``Range.getClientRects()`` lies on one line box;
    a word wider than the phone's column may break, it cannot fit anyway);
(b) axe-core: no serious or critical violation;
(c) no sideways scroll;
(d) no console error;
(e) a screenshot in test-artifacts/every-<page>.png; touch targets (buttons, selects, inputs,
    summaries, button-looking links) at least 44 px high and wide.

Findings are collected over the whole walk and asserted at the end, so one run lists them all
(test-artifacts/every-page.txt). Also pressed here because no other browser test presses them:
the lobby's seat arrows (the host reorders seats) and the guest-Guild form
(prepared on the Guild page, brought at the mission for a friend's seat, section 4)."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from guilds import models as gm
from guilds import services as gs
from guilds.demo import new_code
from missions.demo import load_demo_missions
from tabletop.models import Table
from tests.e2e.conftest import ARTIFACTS, login, shot, tap_twice, unguarded
from tests.e2e.demloc_turns import achieve_objective
from tests.guilds.factories import (
    PASSWORD,
    CardSetFactory,
    MercenaryCardFactory,
    UserFactory,
    WeaponCardFactory,
)
from tests.missions.lifecycle_flow import build_guild, prepare

# (a) Words that break across lines. A "word" is a run of letters and digits: a line may end
# after a hyphen, a slash or a dot of a long address, never inside a run.
MID_WORD = r"""() => {
  const column = document.documentElement.clientWidth - 24;  // the page's padding
  const skip = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "OPTION", "TITLE"]);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const out = [];
  // Text kept for screen readers only (a 1 px clipped box, as DemLoc's alert once it has been
  // shown for a few seconds) is not seen: every word of it "wraps".
  const unseen = e => {
    for (let x = e; x && x !== document.body; x = x.parentElement) {
      if (x.getBoundingClientRect().width <= 1 && getComputedStyle(x).overflow === "hidden") return true;
    }
    return false;
  };
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!el || skip.has(el.tagName) || unseen(el)) continue;
    const re = /[\p{L}\p{N}\u2019']+/gu;
    let m;
    while ((m = re.exec(node.textContent))) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
      if (rects.length < 2) continue;
      const lines = [];
      for (const r of rects) if (!lines.some(t => Math.abs(t - r.top) < r.height / 2)) lines.push(r.top);
      if (lines.length < 2) continue;
      const width = rects.reduce((s, r) => s + r.width, 0);
      if (width >= column) continue;  // longer than the phone is wide: it must break
      out.push(`${m[0]} (${lines.length} lines, in <${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : ""}>)`);
    }
  }
  return out;
}"""

# (e) Targets a thumb must hit: at least 44x44 CSS px (WCAG 2.5.5); links inside a sentence are
# exempt (they are text), links styled as buttons are not.
SMALL_TARGETS = r"""() => {
  const sel = "button, .btn, summary, select, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), textarea, .topbar a";
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === "hidden") continue;
    if (el.closest("[hidden], .sr-only, .visually-hidden")) continue;
    if (r.height < 44 || r.width < 44) {
      const label = (el.getAttribute("aria-label") || el.textContent || el.name || el.tagName).trim().slice(0, 30);
      out.push(`${label} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
}"""

OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


class Walk:
    """Looks at page after page and keeps what is wrong on each, by page name."""

    def __init__(self) -> None:
        self.findings: dict[str, list[str]] = {}
        self.console: dict[int, list[str]] = {}
        self.seen: list[str] = []
        self.axe = Axe()

    def watch(self, phone):
        """Collect the console errors, uncaught exceptions and native dialogs of ``phone`` (a
        phone's confirm is a second tap in place, never the browser's dialog)."""
        errors = self.console.setdefault(id(phone), [])
        phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        phone.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        phone.on("dialog", lambda d: (errors.append(f"native dialog: {d.message}"), d.dismiss()))
        return phone

    def look(self, phone, name: str, expected_console: str | None = None) -> None:
        """Check the page ``phone`` shows now; ``expected_console``: a console error this page
        must produce (a 404 page logs its own 404), which is not a finding."""
        phone.wait_for_load_state("load")
        phone.evaluate("document.fonts.ready")
        self.seen.append(name)
        found: list[str] = []
        found += [f"mid-word wrap: {w}" for w in phone.evaluate(MID_WORD)]
        over = phone.evaluate(OVERFLOW)
        if over > 0:
            found.append(f"scrolls sideways by {over} px")
        results = self.axe.run(phone)
        for v in results.response["violations"]:
            if v.get("impact") in ("serious", "critical"):
                targets = [n["target"] for n in v["nodes"]][:4]
                found.append(f"axe {v['impact']} {v['id']}: {targets}")
        found += [f"small target: {t}" for t in phone.evaluate(SMALL_TARGETS)]
        errors = self.console.get(id(phone), [])
        for text in errors:
            if expected_console and expected_console in text:
                continue
            found.append(f"console: {text[:160]}")
        errors.clear()
        shot(phone, f"every-{name}")
        if found:
            self.findings[name] = found

    def report(self) -> str:
        lines = [f"{len(self.seen)} pages: {', '.join(self.seen)}"]
        for name, found in self.findings.items():
            lines.append(f"{name}:")
            lines += [f"  {f}" for f in found]
        text = "\n".join(lines)
        ARTIFACTS.mkdir(exist_ok=True)
        with open(ARTIFACTS / "every-page.txt", "a") as f:
            f.write(text + "\n")
        return text


@pytest.fixture
def walk():
    return Walk()


def spare_cards(guild, mercenary: str):
    """One more mercenary card and one weapon card in the Guild's database that the Guild does
    not use: enough for a guest Guild (section 4)."""
    card = MercenaryCardFactory(name=mercenary, level=1, hit_factor=3, armor=3)
    sword = WeaponCardFactory(price_feods=0, name=f"Spare blade of {mercenary}")
    card_set = CardSetFactory(kind=gm.CardSet.Kind.EQUIPMENT)
    gm.SetCard.objects.create(card_set=card_set, card=card, quantity=1)
    gm.SetCard.objects.create(card_set=card_set, card=sword, quantity=1)
    code = gm.SetCode.objects.create(card_set=card_set, code=new_code(gm.SetCode))
    gs.set_code_redeem(guild=guild, code=code.code)


def test_the_shell_pages(new_phone, walk):
    phone = walk.watch(new_phone())
    phone.goto("/")
    walk.look(phone, "home")
    phone.goto("/accounts/signup/")
    walk.look(phone, "signup")
    # The password rules are there before any error; a refused sign-up.
    phone.fill("#id_username", "newcomer")
    phone.fill("#id_password1", "short")
    phone.fill("#id_password2", "short")
    phone.get_by_role("button", name="Create account").tap()
    expect(phone.get_by_role("alert").first).to_be_visible()
    walk.look(phone, "signup-refused")
    phone.goto("/accounts/login/")
    walk.look(phone, "login")
    phone.goto("/no-such-page/")
    expect(phone.locator("body")).to_contain_text("Nothing here")
    walk.look(phone, "not-found", expected_console="404")
    phone.goto("/tables/new/")
    walk.look(phone, "new-table")
    phone.goto("/join/")
    walk.look(phone, "join")

    staff = UserFactory(username="operator", is_staff=True, is_superuser=True)
    assert staff.check_password(PASSWORD)
    login(phone, "operator")
    phone.goto("/admin/ops/")
    expect(phone.locator("body")).to_contain_text("Operations")
    walk.look(phone, "admin-ops")
    response = phone.goto("/health/")
    # No Celery worker runs beside the browser tests' server: the page says so with a 500.
    walk.look(phone, "health", expected_console="500" if response.status == 500 else None)

    # The manifest as served: an id, a maskable icon with its rings inside the safe zone, any
    # orientation.
    manifest = phone.request.get("/manifest.webmanifest").json()
    assert manifest["id"] == "/" and manifest.get("orientation", "any") == "any"
    maskable = next(i for i in manifest["icons"] if i.get("purpose") == "maskable")
    assert maskable["sizes"] == "192x192" or maskable["sizes"] == "512x512"
    outside = phone.evaluate(
        """async (src) => {
          const img = new Image(); img.src = src; await img.decode();
          const c = document.createElement("canvas"); c.width = img.width; c.height = img.height;
          const g = c.getContext("2d"); g.drawImage(img, 0, 0);
          const d = g.getImageData(0, 0, c.width, c.height).data, n = c.width;
          const [r0, g0, b0] = [d[0], d[1], d[2]];  // the corner: the background
          let off = 0, inside = 0;
          for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
            const i = (y * n + x) * 4, far = Math.hypot(x + .5 - n / 2, y + .5 - n / 2) > 0.4 * n;
            const other = Math.abs(d[i] - r0) + Math.abs(d[i + 1] - g0) + Math.abs(d[i + 2] - b0) > 12;
            if (far && other) off++;
            if (!far && other) inside++;
          }
          return {size: n, off, inside};
        }""",
        maskable["src"],
    )
    assert outside["size"] == int(maskable["sizes"].split("x")[0])
    assert outside["off"] == 0 and outside["inside"] > 0, outside
    assert not walk.findings, walk.report()
    walk.report()


def test_every_guild_page_and_the_guest_guild_form(new_phone, walk):
    load_demo_missions()
    guild = build_guild("House Ash", "red", ("Rook", "Wren"), fame=3, feods=120)
    spare_cards(guild, "Gale the Guest")
    phone = walk.watch(new_phone())
    login(phone, guild.master.username)
    for path, name in [
        ("/guild/", "guild-office"),
        ("/guild/gate/", "guild-gate"),
        ("/guild/dormitory/", "guild-dormitory"),
        ("/guild/armory/", "guild-armory"),
        ("/guild/library/", "guild-library"),
        ("/guild/guesthouse/", "guild-guesthouse"),
        ("/guild/pantheon/", "guild-pantheon"),
        ("/guild/buildings/", "guild-buildings"),
        ("/guild/ledger/", "guild-ledger"),
        ("/guild/city/", "guild-city"),
        ("/guild/roster/", "guild-roster"),
    ]:
        phone.goto(path)
        walk.look(phone, name)

    # The guest-Guild form, as a Master fills it on the phone.
    phone.goto("/guild/friends/")
    walk.look(phone, "guild-friends")
    form = phone.locator("#friend-form")
    form.get_by_label("Name").fill("Cat's Crew")
    form.get_by_label("Sub-bases").select_option("green")
    form.locator("label.pick", has_text="Gale the Guest").tap()
    form.get_by_label("Weapon for Gale the Guest").select_option(
        label="Spare blade of Gale the Guest (1 left)"
    )
    form.get_by_role("button", name="Prepare the guest Guild").tap()
    expect(phone.locator('[data-guest-guild="Cat\'s Crew"]')).to_contain_text("Gale the Guest")
    walk.look(phone, "guild-friends-prepared")
    # The same name again: refused at the form, what was typed kept.
    form = phone.locator("#friend-form")
    form.get_by_label("Name").fill("Cat's Crew")
    form.locator("label.pick", has_text="Gale the Guest").tap()
    form.get_by_role("button", name="Prepare the guest Guild").tap()
    expect(phone.locator('#friend-form [role="alert"]')).to_be_visible()
    walk.look(phone, "guild-friends-refused", expected_console="400")
    assert gm.GuestGuild.objects.filter(owner=guild).count() == 1
    assert not walk.findings, walk.report()
    walk.report()


def test_every_mission_page_with_seat_arrows_and_a_guest_guild(new_phone, walk):
    load_demo_missions()
    ash = build_guild("House Ash", "red", ("Rook", "Wren"), feods=80)
    birch = build_guild("House Birch", "blue", ("Ash", "Birch"), feods=80)
    spare_cards(ash, "Gale the Guest")
    gale = gm.MercenaryCard.objects.get(name="Gale the Guest")
    blade = gm.WeaponCard.objects.get(name="Spare blade of Gale the Guest")
    gs.guest_guild_prepare(
        guild=ash,
        name="Cat's Crew",
        colour="green",
        roster=[{"card": gale.pk, "weapons": [blade.pk]}],
    )
    ann, bob, cat = (walk.watch(new_phone()) for _ in range(3))
    login(ann, ash.master.username)
    login(bob, birch.master.username)

    ann.goto("/missions/")
    walk.look(ann, "mission-lobby")
    ann.goto("/missions/reference/")
    walk.look(ann, "rules-reference")
    ann.goto("/missions/")
    ann.get_by_text("The Drowned Bell").tap()
    ann.get_by_role("button", name="Open the mission table").tap()
    code = ann.locator("#join-code").inner_text().strip()
    for phone, name in ((bob, "Bob of Birch"), (cat, "Cat")):
        phone.goto(f"/j/{code}/")
        walk.look(phone, f"join-{name.split()[0].lower()}")
        phone.fill("#name", name)
        phone.get_by_role("button", name="Join table").tap()
        expect(ann.locator(".seats")).to_contain_text(name)
        expect(phone.locator("body")).to_have_attribute("data-ws", "open")
    walk.look(ann, "mission-table-lobby-host")
    walk.look(cat, "mission-table-lobby-guest")

    # The host puts Cat before Bob with the seat arrows: every phone sees it.
    ann.get_by_role("button", name="Move Cat up").tap()
    for phone in (ann, bob, cat):
        expect(phone.locator("[data-seat='2']")).to_contain_text("Cat")
        expect(phone.locator("[data-seat='3']")).to_contain_text("Bob of Birch")
    ann.get_by_role("button", name="Move Cat down").tap()
    for phone in (ann, bob, cat):
        expect(phone.locator("[data-seat='2']")).to_contain_text("Bob of Birch")
    ann.get_by_role("button", name="Move Bob of Birch down").tap()
    for phone in (ann, bob, cat):
        expect(phone.locator("[data-seat='2']")).to_contain_text("Cat")
    walk.look(ann, "mission-table-lobby-reordered")

    ann.goto(f"/t/{code}/seats/")
    walk.look(ann, "mission-seats-page")
    ann.goto(f"/t/{code}/")
    ann.get_by_role("button", name="Start the game").tap()
    expect(cat.locator("[data-stage]").first).to_be_visible()
    for phone in (ann, bob):
        phone.get_by_role("button", name="Bring my Guild").tap()
    # Ann brings her guest Guild for Cat, who has no account (section 4).
    guest = ann.locator("#dl-guest-bind")
    guest.get_by_label("Guest Guild").select_option(label="Cat's Crew")
    guest.get_by_label("For the seat of").select_option(label="Cat")
    guest.get_by_role("button", name="Bring the guest Guild").tap()
    for phone in (ann, bob, cat):
        expect(phone.locator("#dl-guilds")).to_contain_text("Cat's Crew")
    walk.look(ann, "mission-setup-host")
    walk.look(cat, "mission-setup-guest")

    table = Table.objects.get(code=code)
    seats = list(table.seats.order_by("number"))
    prepare(table, seats, {0: ["Rook"], 1: ["Gale the Guest"], 2: ["Ash"]})
    for phone in (ann, bob, cat):
        phone.goto(f"/t/{code}/")
        expect(phone.locator("#dl-turn")).to_be_visible()
    walk.look(ann, "mission-play-host")
    walk.look(bob, "mission-play-bob")
    walk.look(cat, "mission-play-guest")
    piece = ann.locator('[id^="piece-s0-"]').first
    piece.locator("summary").first.tap()
    walk.look(ann, "mission-play-sheet-open")
    ann.goto(f"/t/{code}/log/")
    walk.look(ann, "mission-log")
    ann.goto(f"/t/{code}/seats/")
    walk.look(ann, "mission-seats-page-playing")
    ann.goto(f"/t/{code}/")
    achieve_objective(ann, [bob, cat])  # at the end of the turn, the others confirm (7.3.2.3)
    expect(bob.locator("#dl-winner")).to_contain_text("House Ash wins", timeout=15_000)
    # Close may come up where Bob's last tap was (the ghost-tap guard, app.js).
    unguarded(bob, bob.locator("#dl-close"))
    tap_twice(bob.locator("#dl-close"))  # armed: "Tap again to close" (app.js data-two-step)
    expect(ann.locator("#dl-closed")).to_be_visible()
    walk.look(ann, "mission-closed")
    ann.get_by_role("link", name="Battle report").tap()
    expect(ann.locator("#report-timeline")).to_be_visible()
    walk.look(ann, "battle-report")
    assert not walk.findings, walk.report()
    walk.report()


@pytest.mark.parametrize(
    "game, players",
    [("counter", 2), ("personimo", 2), ("realm", 2), ("personal_demons", 2), ("espionage", 3)],
)
def test_each_card_game_lobby_table_and_log(new_phone, walk, game, players):
    host = walk.watch(new_phone())
    host.goto(f"/tables/new/?game={game}")
    host.select_option("#ruleset", game)
    host.fill("#name", "Ann")
    host.get_by_role("button", name="Open the table").tap()
    code = host.locator("#join-code").inner_text().strip()
    others = []
    for name in ("Ben", "Cat")[: players - 1]:
        phone = walk.watch(new_phone())
        phone.goto(f"/j/{code}/")
        phone.fill("#name", name)
        phone.get_by_role("button", name="Join table").tap()
        expect(host.locator(".seats")).to_contain_text(name)
        expect(phone.locator("body")).to_have_attribute("data-ws", "open")
        others.append(phone)
    walk.look(host, f"{game}-lobby")
    walk.look(others[0], f"{game}-lobby-guest")
    host.get_by_role("button", name="Start the game").tap()
    for phone in (host, *others):
        expect(phone.locator("#live")).to_have_attribute("data-status", "playing")
    walk.look(host, f"{game}-table")
    walk.look(others[0], f"{game}-table-guest")
    host.goto(f"/t/{code}/log/")
    walk.look(host, f"{game}-log")
    assert not walk.findings, walk.report()
    walk.report()
