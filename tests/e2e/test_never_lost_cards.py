"""Never lost on the phone, at the card tables and the kit's lobby (docs/playing.md "The thumb
bar"; tabletop/KIT.md "Where the page lands"), by touch at 360x740: the lobby says what it
waits for at its top; a greyed Undo says why in the game's words; Personimo's and Personal
Demons' next step is in the bottom bar, with an alert when it becomes mine, and a link there
brings the card to tap into view between the top and bottom bars; an armed Personimo claim
says its whole text; a refusal answering a bar button is shown at that button, inside the
viewport. Each test asserts what is inside the viewport and that the other phone's view did
not move, and prints what it measured. Screenshots in test-artifacts/never-lost-cards-*.png."""

import random

from playwright.sync_api import expect

from tabletop import services
from tabletop.registry import get_ruleset
from tabletop.rules import Command
from tabletop.seats import move_token
from tests.e2e.conftest import open_table
from tests.e2e.test_landing import in_view, view_kept, view_mark

SCREEN = 740


def shot(phone, name: str) -> None:
    phone.screenshot(path=f"test-artifacts/never-lost-cards-{name}.png")


def other_looks_at(phone, y: int) -> dict:
    """``phone`` scrolled to ``y`` (a player reading something else): what it shows."""
    phone.evaluate(f"window.scrollTo(0, {y})")
    phone.wait_for_timeout(100)
    return view_mark(phone)


def take_seat(new_phone, seat):
    """A phone holding ``seat`` (its move link, as the "Lost phone?" box gives it)."""
    phone = new_phone()
    phone.goto(f"/rejoin/{move_token(seat)}/")
    phone.get_by_role("button", name="Take the seat").tap()
    expect(phone.locator("#live")).to_have_attribute("data-status", "playing")
    expect(phone.locator("body")).to_have_attribute("data-ws", "open")
    return phone


def on_screen(phone, locator) -> dict:
    """``locator``'s box, wholly inside the screen under the top bar (a page with no bottom
    bar: the join page, a guest's lobby)."""
    box = locator.bounding_box()
    for _ in range(20):  # a push that swapped the same region in takes it away a moment
        if box is not None:
            break
        phone.wait_for_timeout(50)
        box = locator.bounding_box()
    assert box is not None and box["y"] >= 56 and box["y"] + box["height"] <= SCREEN, box
    return box


def bottom_of(phone) -> None:
    phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    phone.wait_for_timeout(100)


def test_the_lobby_says_what_it_waits_for_at_its_top_and_join_table_is_the_button(new_phone):
    """The host who opens a table reads, at the top of the lobby, that it waits for players
    (the QR and the seats are below); the second phone's button says "Join table", as the home
    page's does; then both lobbies say who starts, the host's Start in the bottom bar."""
    ann = new_phone()
    ann.goto("/tables/new/")
    ann.select_option("#ruleset", "realm")
    ann.fill("#name", "Ann")
    ann.get_by_role("button", name="Open the table").tap()
    waiting = ann.locator("#lobby-waiting")
    expect(waiting).to_have_text("Waiting for players: 1 seated, Pixel Demon's Realm needs at least 2.")
    box = in_view(ann, waiting)
    assert box["y"] < 200, box  # at the top, above the table code and its QR
    # measured in the page (a handle's box is None when the socket's first message swapped
    # the lobby in between its lookup and its measure)
    assert box["y"] < ann.locator("#join-code").evaluate("e => e.getBoundingClientRect().y")
    shot(ann, "lobby-host-alone")
    code = ann.locator("#join-code").inner_text().strip()
    ben = new_phone()
    ben.goto(f"/j/{code}/")
    ben.fill("#name", "Ben")
    join = ben.get_by_role("button", name="Join table")
    on_screen(ben, join)
    join.tap()
    expect(ben.locator("#lobby-waiting")).to_have_text(
        "Waiting for the host to start: 2 players seated.")
    on_screen(ben, ben.locator("#lobby-waiting"))
    expect(waiting).to_have_text("2 players seated: tap Start the game below when everyone is here.")
    in_view(ann, waiting)
    in_view(ann, ann.get_by_role("button", name="Start the game"))
    shot(ann, "lobby-host")
    shot(ben, "lobby-ben")
    print(f"lobby: the waiting line at y={box['y']:.0f}")


def personimo_table(new_phone, until):
    """A two-player Personimo table played by seeded random moves (the page's own) until
    ``until(state)``; the two phones, the one whose turn it is first."""
    table, ann = services.table_create(ruleset="personimo", host_name="Ann")
    ben = services.seat_join(table=table, name="Ben")
    seats = [ann, ben]
    services.run_command(table, ann, Command("table.start"))
    game = get_ruleset("personimo")
    rnd = random.Random(3)
    for _ in range(300):
        table.refresh_from_db()
        state = game.load(table.state)
        if until(state, game):
            break
        moves = [(s, c) for s in (0, 1) for c in game.moves(game.view(state, s), s)]
        seat, command = rnd.choice(moves)
        services.run_command(table, seats[seat], command)
    else:
        raise AssertionError("never reached")
    actor = state["actor"]["seat"]
    phones = {s: take_seat(new_phone, seats[s]) for s in (actor, 1 - actor)}
    return phones[actor], phones[1 - actor]


def claim_deals(state, game) -> bool:
    actor = state.get("actor")
    return bool(actor) and game.view(state, actor["seat"])["claim_deals"]


def test_personimo_bar_links_to_the_market_and_an_armed_claim_says_its_whole_text(new_phone):
    """Personimo: the phone whose turn it is to claim has the step in its bottom bar with an
    alert; scrolled to the bottom, "Show the market" brings the market between the top and the
    bottom bar; the last claim of a row asks a second tap (it deals the next market) and says
    so whole on the card, not cut; the other phone's view does not move."""
    me, other = personimo_table(new_phone, claim_deals)
    expect(me.locator("#bar-alert")).to_have_text("Your turn: claim a card of the market.")
    expect(me.locator("#pm-bar-prompt")).to_contain_text("claim a card of the market")
    expect(other.locator("#pm-bar-prompt")).to_contain_text("Waiting for")
    bottom_of(me)
    go = me.locator("#pm-thumb #pm-go")
    expect(go).to_have_text("Show the market")
    in_view(me, go)
    mark = other_looks_at(other, 200)
    go.tap()
    card = me.locator("#pm-market button.pm-claim").first
    box = in_view(me, card)
    shot(me, "personimo-market")
    card.tap()
    label = card.locator("[data-two-step-label]")
    expect(label).to_contain_text("Tap again to claim")
    expect(label).to_contain_text("deals the next market (no undo)")
    cut = label.evaluate("e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1")
    assert not cut, label.inner_text()
    armed = in_view(me, card)
    shot(me, "personimo-claim-armed")
    kept = view_kept(other, mark)
    print(f"personimo: market card at y={box['y']:.0f}; armed claim {armed['height']:.0f} px"
          f" tall, whole: {label.inner_text()!r}; the other phone's view kept: {kept}")


def test_personimo_placing_step_is_in_the_bar_with_a_link_to_the_card(new_phone):
    """The card to place: the bar says which and links to it; the link brings my district
    (its name, the card and the whole grid) into view between the top and the bottom bar."""

    def placing(state, game):
        actor = state.get("actor")
        if not actor or actor["action"] != "place" or actor["slot"] is None:
            return False
        return bool(game.view(state, actor["seat"])["placing"]["legal"])

    me, other = personimo_table(new_phone, placing)
    name = me.locator("#pm-card .pm-name").inner_text().strip()
    expect(me.locator("#bar-alert")).to_have_text(f"Your turn: place {name}.")
    bottom_of(me)
    mark = other_looks_at(other, 150)
    go = me.locator("#pm-thumb #pm-go")
    expect(go).to_have_text(f"Show {name}")
    go.tap()
    box = in_view(me, me.locator("#pm-card"))
    in_view(me, me.locator("#pm-grid"))
    shot(me, "personimo-place")
    kept = view_kept(other, mark)
    print(f"personimo: the card to place at y={box['y']:.0f}; other phone's view kept: {kept}")


def pd_table(new_phone):
    """Personal Demons, Ann and Ben at the table by touch: the two phones, in setup."""
    ann, ben = open_table(new_phone, "personal_demons", inset=0)
    for phone in (ann, ben):
        expect(phone.locator("#pd-setup")).to_be_visible()
    return ann, ben


def test_personal_demons_ready_is_in_the_bar_and_its_refusal_is_shown_there(new_phone):
    """Setup (rulebook "Setup", steps H and J): the bar says what to choose, with an alert,
    and holds Ready wherever the page is scrolled; Ready with one Personal Demon kept is
    refused (``keep_two``): the line is in the bar just above the Ready button, inside the
    viewport, and the choices stay made; Ann's view does not move. Then both are ready: the
    place step's "Place face down" is in the bar, with its alert."""
    ann, ben = pd_table(new_phone)
    expect(ben.locator("#bar-alert")).to_contain_text("Setup: your Fear's space")
    ben.locator('#pd-setup label.pd-cell:has(input[value="1,2"])').tap()
    ben.locator("#pd-setup label.pick").nth(0).tap()
    ready = ben.locator("#bottom-bar").get_by_role("button", name="Ready")
    ben.evaluate("window.scrollTo(0, 0)")
    in_view(ben, ready)
    mark = other_looks_at(ann, 300)
    ready.tap()
    refusal = ben.locator('#bottom-bar .alert.at-control[data-code="keep_two"]')
    expect(refusal).to_have_text("Keep exactly two of your four hefty/colossal cards.")
    line, button = in_view(ben, refusal), ready.bounding_box()
    gap = button["y"] - (line["y"] + line["height"])
    assert 0 <= gap <= 16, (line, button)  # just above the button's row
    assert line["y"] >= 0 and line["y"] + line["height"] <= SCREEN
    expect(ben.locator("#pd-setup label.pick input").nth(0)).to_be_checked()
    expect(ben.locator('#pd-setup input[value="1,2"]')).to_be_checked()
    shot(ben, "pd-ready-refused")
    kept = view_kept(ann, mark)
    ben.locator("#pd-setup label.pick").nth(1).tap()
    ready.tap()
    expect(ben.locator("#pd-bar-prompt")).to_contain_text("Not ready yet: Ann")
    ann.locator('#pd-setup label.pd-cell:has(input[value="3,3"])').tap()
    ann.locator("#pd-setup label.pick").nth(0).tap()
    ann.locator("#pd-setup label.pick").nth(1).tap()
    ann.locator("#bottom-bar").get_by_role("button", name="Ready").tap()
    for phone in (ann, ben):
        place = phone.locator("#bottom-bar").get_by_role("button", name="Place face down")
        expect(place).to_be_visible()
        in_view(phone, place)
        expect(phone.locator("#bar-alert")).to_contain_text("Turn 1: pick a card and a space")
    mark = other_looks_at(ann, 250)
    ben.locator("#pd-place label.pick").first.tap()
    ben.locator('#pd-place label.pd-cell:has(input[value="2,2"])').tap()
    bottom_of(ben)
    ben.locator("#bottom-bar").get_by_role("button", name="Place face down").tap()
    expect(ben.locator("#pd-bar-prompt")).to_contain_text("Not ready yet: Ann")
    in_view(ben, ben.locator("#pd-bar-prompt"))
    shot(ben, "pd-placed")
    kept2 = view_kept(ann, mark)
    print(f"personal demons: refusal {gap:.0f} px above Ready in the bar; Ann's view kept: "
          f"{kept}; after Place face down: {kept2}")


def test_a_greyed_undo_says_why_in_the_games_words(new_phone):
    """Undo greys after a final event and says why on the button, in the game's words:
    Personimo's opening market ("market dealt"), inside the bottom bar."""
    table, ann = services.table_create(ruleset="personimo", host_name="Ann")
    services.seat_join(table=table, name="Ben")
    services.run_command(table, ann, Command("table.start"))
    phone = take_seat(new_phone, ann)
    undo = phone.locator("#bottom-bar").get_by_role("button", name="Undo")
    expect(undo).to_be_disabled()
    expect(phone.locator("#undo-why")).to_have_text("market dealt")
    in_view(phone, phone.locator("#undo-why"))
    shot(phone, "undo-why")
