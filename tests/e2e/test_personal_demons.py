"""Personal Demons on two phones: setup, one turn in unison, hidden hands."""

from playwright.sync_api import expect

from tabletop.rules import Command
from tests.e2e.conftest import host_lobby, open_table, shot, tap_through, tap_twice
from tests.e2e.test_every_page import MID_WORD
from tests.e2e.test_landing import in_view
from tests.personal_demons.bots import play_until


def open_pd(new_phone):
    ann, ben = open_table(new_phone, "personal_demons", inset=0)
    expect(ben.locator("#pd-setup")).to_be_visible()
    return ann, ben


def setup(phone, space):
    phone.locator(f'#pd-setup label.pd-cell:has(input[value="{space}"])').tap()
    picks = phone.locator("#pd-setup label.pick")
    picks.nth(0).tap()
    picks.nth(1).tap()
    phone.get_by_role("button", name="Ready").tap()


def test_two_phones_play_a_turn_in_unison(new_phone):
    ann, ben = open_pd(new_phone)
    shot(ben, "pd-setup-ben")
    setup(ann, "3,3")
    expect(ann.locator("#pd-waiting")).to_contain_text("Ben")
    setup(ben, "0,0")
    expect(ann.locator("#pd-place")).to_be_visible()  # live: Ann never reloaded
    expect(ann.locator("#pd-status")).to_contain_text("Turn 1/6")

    # Place: Ben picks a card and a space; Ann's move re-renders his page meanwhile and his
    # choice survives; Ben sees that Ann placed, not which card
    ben.locator("#pd-place label.pick").first.tap()
    ben.locator('#pd-place label.pd-cell:has(input[value="2,2"])').tap()
    ann_card = ann.locator("#pd-place label.pick input").first.get_attribute("value")
    ann.locator("#pd-place label.pick").first.tap()
    ann.locator('#pd-place label.pd-cell:has(input[value="1,1"])').tap()
    shot(ann, "pd-place-ann")
    ann.get_by_role("button", name="Place face down").tap()
    expect(ben.locator(".pd-other")).to_contain_text("placed ✓")
    assert ann_card not in ben.content()
    expect(ben.locator('#pd-place label.pd-cell:has(input[value="2,2"]) input')).to_be_checked()
    ben.get_by_role("button", name="Place face down").tap()

    # Reveal: Ann leaves hers face down, Ben reveals if he can
    expect(ann.locator("#pd-reveal")).to_be_visible()
    ann.get_by_role("button", name="Leave it face down").tap()
    expect(ben.locator("#pd-waiting")).to_contain_text("Ben")
    reveal = ben.get_by_role("button", name="Reveal", exact=True)
    if reveal.is_enabled():
        tap_twice(reveal)
    else:
        ben.get_by_role("button", name="Leave it face down").tap()
    expect(ann.locator(".pd-steps li.now")).to_have_text("Bonus")
    expect(ann.locator("#pd-me .seal.back, #pd-me .pd-item .seal")).to_have_count(
        1
    )  # Ann's cracked seal
    shot(ann, "pd-bonus-ann")
    shot(ben, "pd-bonus-ben")
    assert ann_card not in ben.content()  # still face down, still hidden

    # Bonus: the Leader first, then clockwise; both decline and turn 2 begins
    first, second = (
        (ann, ben) if "Leader Ann" in ann.locator("#pd-status").inner_text() else (ben, ann)
    )
    expect(first.locator("#pd-leader-line")).to_contain_text("bonus action")
    first.get_by_role("button", name="No bonus action").tap()
    second.get_by_role("button", name="No bonus action").tap()
    expect(ann.locator("#pd-status")).to_contain_text("Turn 2/6")
    expect(ben.locator("#pd-status")).to_contain_text("Turn 2/6")


def test_real_cards_mode_keeps_sins_and_cadence(new_phone):
    """At a physical table the phone is the sin gauges, the Courage count and the cadence."""
    ann, _code = host_lobby(new_phone, "personal_demons",
                            options={"#opt-personal_demons-table": "physical"})
    ann.get_by_role("button", name="Start the game").tap()
    expect(ann.locator("#pd-status")).to_contain_text("pick and place a card")
    ann.get_by_role("button", name="one more hate").tap()
    expect(ann.locator(".pd-gauge-row.g-hate .pips i.on")).to_have_count(1)
    ann.get_by_role("button", name="one more hate").tap()
    expect(ann.locator(".pd-gauge-row.g-hate .pips i.on")).to_have_count(2)
    ann.get_by_role("button", name="Ready").tap()
    expect(ann.locator(".pd-steps li.now")).to_have_text("Reveal")
    shot(ann, "pd-physical-ann")


def test_mid_game_circle_on_a_phone(new_phone, server_url):
    """A game played by bots to round II, then looked at on a 360 px phone."""
    from tabletop import services
    from tabletop.seats import move_token

    table, host = services.table_create(ruleset="personal_demons", host_name="Ann")
    ben = services.seat_join(table=table, name="Ben")
    services.run_command(table, host, Command("table.start"))
    play_until(table, [host, ben], lambda s: (s["round"], s["step"], s["turn"]) == (2, "place", 4),
               seed=11, steps=400)
    phone = new_phone()
    phone.goto(f"/rejoin/{move_token(host)}/")
    phone.get_by_role("button", name="Take the seat").tap()
    expect(phone.locator("#pd-place")).to_be_visible()
    expect(phone.locator("#pd-status")).to_contain_text("Round 2")
    shot(phone, "pd-midgame-ann")


def test_the_others_choose_a_colossal_may_ability_on_their_phones(new_phone):
    """FAQ: "All players except the one who played the colossal card have the choice of using
    the ability" ('may'). Ann summons a colossal whose ability is optional; Ben's phone asks
    him, the bonus step waits, and his tap gives him the Courage card."""
    from tabletop import services
    from tabletop.rules import Command
    from tabletop.seats import move_token
    from tests.personal_demons.cards import BLUE4, PLAIN, with_cards

    colossal = {
        "requirements": [],
        "sigils": BLUE4,
        "cost": {"sin": "want", "amount": 6},
        "ability": {"kind": "others_courage", "may": True},
        "advanced": False,
        "text": "Every other player may take a Courage card, then keeps three.",
    }
    content = with_cards(
        round1={**PLAIN, "sin": "want", "sin_amount": 3},
        colossal=colossal,
        courage={"effect": {"kind": "keeper"}, "name": "Keeper"},
    )
    table, ann = services.table_create(ruleset="personal_demons", host_name="Ann", setup=content)
    ben = services.seat_join(table=table, name="Ben")
    seats = [ann, ben]

    def run(seat, type_, **data):
        services.run_command(table, seats[seat], Command(type_, data))

    def state():
        table.refresh_from_db()
        return table.state

    run(0, "table.start")
    for s in (0, 1):
        keep = [
            c
            for c in state()["players"][s]["candidates"]
            if state()["catalog"][c]["deck"] == "colossal"
        ]
        run(s, "pd.setup.choose", fear_space=[3, 3], keep=keep)
    for n, space in enumerate(((0, 0), (0, 1), (1, 0), (1, 1))):
        for s in (0, 1):
            run(s, "pd.card.place", card=state()["players"][s]["hand"][0], space=list(space))
        for s in (0, 1):
            run(s, "pd.card.reveal", face_up=True)
        if n < 3:
            for s in state()["bonus_order"]:
                run(s, "pd.bonus.decline")
    first = state()["bonus_order"][0]
    other = 1 - first
    run(first, "pd.bonus.personal", card=state()["players"][first]["personal"][0], space=[0, 0])
    phone = new_phone()
    phone.goto(f"/rejoin/{move_token(seats[other])}/")
    phone.get_by_role("button", name="Take the seat").tap()
    offer = phone.locator("[data-offer]")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("may take a Courage card")
    shot(phone, "pd-colossal-offer")
    tap_through(offer.get_by_role("button", name="Use it"))
    expect(phone.locator("[data-offer]")).to_have_count(0)
    assert len(state()["players"][other]["courage"]) == 2


def test_a_refused_ready_is_shown_at_the_ready_button(new_phone):
    """Setup steps H and J (rulebook "Setup"): Ready with one Personal Demon kept is refused
    (``keep_two``); the message is shown at the Ready button that was tapped, in the bottom bar
    (the kit's at-control line, as app.js places a refused command's ``data-code`` alert: just
    above a bar button that sends a form of the page), not above the cards at the top of the
    page, and the choices made stay made."""
    ann, ben = open_pd(new_phone)
    ben.locator('#pd-setup label.pd-cell:has(input[value="1,2"])').tap()
    ben.locator("#pd-setup label.pick").nth(0).tap()
    ready = ben.locator("#bottom-bar").get_by_role("button", name="Ready")
    ready.tap()
    refusal = ben.locator('.alert.at-control[data-code="keep_two"]')
    expect(refusal).to_have_text("Keep exactly two of your four hefty/colossal cards.")
    expect(ben.locator('#live > .alert[data-code="keep_two"]')).to_have_count(0)
    expect(ben.locator("#pd-setup label.pick input").nth(0)).to_be_checked()
    expect(ben.locator('#pd-setup input[value="1,2"]')).to_be_checked()
    expect(refusal).to_be_in_viewport()
    ben.screenshot(path="test-artifacts/pd-ready-refused-ben.png")
    button, line = ready.bounding_box(), refusal.bounding_box()
    gap = button["y"] - (line["y"] + line["height"])
    assert 0 <= gap <= 16, (button, line)  # just above the button, nothing between them


NAME_WHOLE = """el => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1"""


def test_the_cards_to_keep_show_their_names_whole_and_readable(new_phone):
    """Found by a new user: in "Keep two Personal Demons" two cards read "Demon of …" in
    10 px type, and nothing else on them told them apart. Each card to choose shows its whole
    name at 12 px or more; a tap chooses it."""
    ann, _ben = open_pd(new_phone)
    picks = ann.locator("#pd-setup label.pick")
    expect(picks.first).to_be_visible()
    names = picks.locator(".pd-card .nm")
    assert names.count() >= 2
    for i in range(names.count()):
        name = names.nth(i)
        assert name.evaluate(NAME_WHOLE), name.get_attribute("title") or name.inner_text()
        size = name.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
        assert size >= 12, size
    assert ann.evaluate(MID_WORD) == []  # no name broken inside a word ("Procras-tination")
    picks.first.scroll_into_view_if_needed()
    picks.first.tap()
    expect(picks.first.locator("input")).to_be_checked()
    ann.screenshot(path="test-artifacts/pd-keep-two-names.png")


def test_undo_after_the_end_asks_for_a_second_tap_on_both_phones(new_phone):
    """Found by a new user: at "The ritual is over. Victory: ...", one tap on Undo by the
    phone that acted last took the finished game back into play on both phones. Now the first
    tap only arms it ("Tap again to reopen", whole inside its button), and the
    game stays over on both phones; the second tap in place takes the last action back."""
    from tabletop import services
    from tabletop.seats import move_token

    table, host = services.table_create(ruleset="personal_demons", host_name="Ann")
    ben = services.seat_join(table=table, name="Ben")
    seats = [host, ben]
    services.run_command(table, host, Command("table.start"))
    state, last = play_until(table, seats, lambda s: s["phase"] == "over", seed=2)
    assert state["phase"] == "over"
    phones = []
    for seat in (seats[last], seats[1 - last]):
        phone = new_phone()
        phone.goto(f"/rejoin/{move_token(seat)}/")
        phone.get_by_role("button", name="Take the seat").tap()
        expect(phone.locator("#live")).to_contain_text("Victory")
        phones.append(phone)
    acted, other = phones
    undo = acted.locator("#bottom-bar").get_by_role("button", name="Undo")
    undo.tap()
    expect(undo).to_contain_text("Tap again to reopen")
    in_view(acted, undo)
    assert undo.evaluate("b => b.scrollWidth <= b.clientWidth + 1"), "the armed label runs out"
    shot(acted, "pd-undo-after-end-armed")
    version = table.version
    acted.wait_for_timeout(500)  # a first tap that had sent would have landed by now
    table.refresh_from_db()  # nothing was sent: the game is still over
    assert (table.status, table.version) == ("finished", version)
    for phone in phones:
        expect(phone.locator("#live")).to_have_attribute("data-status", "finished")
    undo.tap()  # the second tap, in place
    for phone in phones:
        expect(phone.locator("#live")).to_have_attribute("data-status", "playing")
    expect(other.locator("#live")).not_to_contain_text("Victory")
