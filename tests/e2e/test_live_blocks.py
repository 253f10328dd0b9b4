"""Two phones play a DemLoc turn over frames of changed blocks (tabletop/blocks.py): after each
tap, each phone's live region, built from the whole region it got first and the block swaps
since, is the region a fresh reload of the page shows (docs/architecture.md, "The live
region")."""

from playwright.sync_api import expect

from tests.e2e.conftest import open_table, shot

# What the page's scripts change in the region after a swap (open sheets, the forms an open
# sheet loaded, the refusal placed at its control, the prompt aimed at this phone): left out of
# the comparison.
REGION = """() => {
  const live = document.getElementById("live").cloneNode(true);
  live.querySelectorAll("details[open]").forEach(d => d.removeAttribute("open"));
  live.querySelectorAll("[data-forms-slot]").forEach(s => { s.replaceChildren(); s.removeAttribute("data-loaded"); });
  live.querySelectorAll(".alert.at-control, #dl-alert").forEach(a => a.remove());
  live.querySelectorAll("[class]").forEach(e => {
    e.classList.remove("htmx-added", "htmx-settling", "htmx-swapping", "htmx-request");
    if (!e.getAttribute("class")) e.removeAttribute("class");
  });
  live.querySelectorAll("[style]").forEach(e => e.removeAttribute("style"));
  const blocks = {};
  live.querySelectorAll("[id]").forEach(e => { blocks[e.id] = e.outerHTML.replace(/>\\s+</g, "><").trim(); });
  return {version: live.dataset.version, blocks: blocks};
}"""


def region(page):
    return page.evaluate(REGION)


def same_as_reload(page, name):
    """The phone's region equals the region of the same page opened afresh (same seat)."""
    fresh = page.context.new_page()
    fresh.goto(page.url)
    expect(fresh.locator("body")).to_have_attribute("data-ws", "open")
    now, again = region(page), region(fresh)
    assert now["version"] == again["version"], name
    differ = [k for k in set(now["blocks"]) | set(again["blocks"])
              if now["blocks"].get(k) != again["blocks"].get(k)]
    assert not differ, (name, differ[:5])
    fresh.close()


def version(page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


def test_two_phones_play_a_demloc_turn_and_each_page_equals_a_reload(new_phone):
    frames: dict = {}

    def listening(page):  # what arrives on the page's sockets
        frames[page] = []
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: frames[page].append(payload)))
        return page

    phones = ann, ben = tuple(open_table(lambda: listening(new_phone()), "demloc", inset=0))
    for p in phones:
        expect(p.locator("#dl-turn-no")).to_be_visible()

    def tap(page, locator, name):
        before = max(version(p) for p in phones)
        locator.scroll_into_view_if_needed()
        locator.tap()
        for p in phones:
            expect(p.locator("#live")).to_have_attribute("data-version", str(before + 1))
        expect(locator.page.locator("#live .alert")).to_have_count(0)
        for p in phones:
            same_as_reload(p, name)

    def own_card(page):
        return page.locator("#dl-mine article.dl-piece").first

    for page in phones:
        card = own_card(page)
        card.locator("summary.dl-summary").tap()
        expect(card.get_by_role("button", name="+1 damage")).to_be_in_viewport()
        tap(page, card.get_by_role("button", name="+1 damage"), "damage")
        # the sheet stays open across the block swap
        shot(page, f"blocks-{'ann' if page is ann else 'ben'}-after-damage")
        expect(card.locator("details.dl-sheet")).to_have_attribute("open", "")
        tap(page, card.get_by_role("button", name="−1 armor"), "damage off")
        tap(page, card.get_by_role("button", name="add a bleeding token"), "bleeding")
        shot(page, f"blocks-{'ann' if page is ann else 'ben'}-after-taps")
    acting = next(p for p in phones
                  if p.locator("#dl-acting").inner_text().startswith("Your move"))
    tap(acting, acting.get_by_role("button", name="Next: pass"), "pass")
    shot(ann, "blocks-ann-after-pass")
    shot(ben, "blocks-ben-after-pass")
    for p in phones:  # the other phone's taps came as frames of changed blocks
        deltas = [f for f in frames[p] if isinstance(f, str) and f.startswith("<!--delta ")]
        assert len(deltas) >= 3, [f[:40] for f in frames[p]]


def test_a_sheet_opened_by_touch_loads_its_forms_and_keeps_what_is_typed_through_updates(
    new_phone,
):
    """The live region's cards carry no action forms (docs/architecture.md, "The live region"):
    a tap on a character opens its sheet and its forms load (Brawl, the hand test with the fate
    offered now); what is typed in an open form stays through a fate point (the forms load
    again: the fate offered changed), another phone's tap and a tap on that very card (its
    block is swapped)."""
    ann, ben = open_table(new_phone, "demloc", inset=0)
    for p in (ann, ben):
        expect(p.locator("#dl-turn-no")).to_be_visible()

    def tapped(page, locator):
        before = version(page)
        locator.tap()
        for p in (ann, ben):
            expect(p.locator("#live")).to_have_attribute("data-version", str(before + 1))

    card = ann.locator("#dl-mine article.dl-piece").first
    pid = card.get_attribute("data-piece")
    brawl = card.locator(f"#brawl-{pid}")
    expect(brawl).to_have_count(0)  # the closed sheet's forms are not in the page
    fate = int(ann.locator("#dl-my-fate").inner_text().split()[-1])
    card.locator("summary.dl-summary").tap()
    brawl.locator(":scope > summary").tap()
    dice = brawl.locator('input[name="d.attacker_dice"]')
    expect(dice).to_be_in_viewport()
    expect(brawl).to_contain_text(f"Fate (of {fate})")
    dice.tap()
    dice.fill("4 2")
    card.locator("dl.dl-factors").tap()  # done typing: the focus leaves the field
    shot(ann, "blocks-ann-sheet-forms-loaded")

    tapped(ann, ann.get_by_role("button", name="+1 fate point"))
    expect(brawl).to_contain_text(f"Fate (of {fate + 1})")  # loaded again, typed text kept
    expect(dice).to_have_value("4 2")
    expect(brawl).to_have_attribute("open", "")
    bens = ben.locator("#dl-mine article.dl-piece").first
    bens.locator("summary.dl-summary").tap()
    tapped(ben, bens.get_by_role("button", name="+1 damage"))
    expect(dice).to_have_value("4 2")
    tapped(ann, card.get_by_role("button", name="+1 damage"))  # this card's block is swapped
    expect(card.locator(".dl-track-armor meter")).to_have_attribute("value", "1")
    expect(brawl).to_have_attribute("open", "")
    expect(dice).to_have_value("4 2")
    expect(card.get_by_role("button", name="+1 damage")).to_be_in_viewport()  # under the thumb
    shot(ann, "blocks-ann-sheet-forms-kept")
