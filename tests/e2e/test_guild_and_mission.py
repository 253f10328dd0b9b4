"""Guild and mission as one economy, in a real browser (DemLoc rulebook 6.4, 6.4.1,
5.1.1, 6.4.2): two Guild Masters play a standard mission; the loser is a brand-new Guild
(its seat named after it). The winner uses a mercenary's ability from his sheet, its cost on
the button, paid from fate; with too little fate left it is refused at the control. While the
mission runs, the loser tries, in another tab, to dismiss and to send to the city the mercenary
at the table: both are refused on the page, at the control, with the reason and a link to the
mission (6.4: the Guild changes only after the mission). The mission is closed; both Guilds'
ledgers and dormitories show the result, and the loser (now at -2 fame) can still enlist a
level-1 mercenary (level 1 is always open, ``guilds.rules.ALWAYS_OPEN_LEVEL``)."""

from playwright.sync_api import expect

from guilds import models as gm
from guilds import services as gs
from guilds.demo import new_code
from missions.demo import load_demo_missions
from tests.e2e.conftest import login, shot, tap_twice
from tests.e2e.demloc_turns import achieve_objective, deploy_and_start, seat_and_bring
from tests.e2e.test_guild_landing import assert_in_view
from tests.e2e.test_landing import in_view
from tests.e2e.test_mission_lobby import tap_next
from tests.guilds.factories import AreaFactory, CardSetFactory, MercenaryCardFactory
from tests.missions.lifecycle_flow import build_guild


def give_recruit(guild):
    """A level-1 mercenary card in the Guild's database, not enlisted (6.2 item 1)."""
    card = MercenaryCardFactory(name="Recruit Vell", level=1, type="miserable", area=AreaFactory())
    card_set = CardSetFactory(kind=gm.CardSet.Kind.MERCENARIES)
    gm.SetCard.objects.create(card_set=card_set, card=card, quantity=1)
    code = gm.SetCode.objects.create(card_set=card_set, code=new_code(gm.SetCode))
    gs.set_code_redeem(guild=guild, code=code.code)


def test_a_new_guild_loses_a_standard_mission_frozen_while_it_plays_and_can_rebuild(new_phone):
    load_demo_missions()
    veteran = build_guild("House Ash", "red", ("Rook",), fame=10, feods=80)
    # 5.1.1: Rook's personal ability with activation costs 2 fate points (paid at the table).
    gm.CharacterAbility.objects.create(
        card=gm.Mercenary.objects.get(guild=veteran).card,
        activation="activated",
        fate_cost=2,
        standard="unique",
        name="Iron will",
        text="Ignore one broken heart this turn.",
    )
    rookie = build_guild("House New", "blue", ("Ash", "Birch"), fame=0, feods=150)
    give_recruit(rookie)
    gm.ControlPoint.objects.create(
        name="The Tarred Tankard", area=AreaFactory(name="Ashen Market"), kind="tavern"
    )
    ann, bob = new_phone(), new_phone()
    login(ann, veteran.master.username)
    login(bob, rookie.master.username)

    ann.goto("/missions/")
    ann.get_by_text("The Drowned Bell").tap()
    code = seat_and_bring(ann, bob, "Bob")
    for phone in (ann, bob):
        expect(phone.locator("#dl-guilds")).to_contain_text("House New")
    # The rookie's seat is named after the Guild, not the name typed at the door.
    expect(ann.locator(".seats")).to_contain_text("House New")

    def next_on_both(stage):
        for phone in (ann, bob):
            tap_next(phone)
        for phone in (ann, bob):
            expect(phone.locator(f'[data-stage="{stage}"]')).to_be_visible()

    for stage in ("raffle", "objective", "map", "characters"):
        next_on_both(stage)
    ann.get_by_role("button", name="Choose").first.tap()
    expect(ann.locator(".dl-picks")).to_contain_text("Rook")
    bob.locator(".dl-roster li", has_text="Ash").get_by_role("button", name="Choose").tap()
    expect(bob.locator(".dl-picks")).to_contain_text("Ash")

    # In another tab, the rookie tries to dismiss Ash, who is at the table.
    tab = bob.context.new_page()
    tab.goto("/guild/dormitory/")
    ash = tab.locator('[data-mercenary="Ash"]')
    expect(ash).to_contain_text("On a mission")
    expect(ash.locator("[data-on-mission]")).to_contain_text("The Drowned Bell")
    tap_twice(ash.get_by_role("button", name="Dismiss"))
    refusal = ash.locator('[role="alert"][data-code="on_mission"]')
    expect(refusal).to_contain_text("they cannot be dismissed until the mission is closed")
    expect(refusal.get_by_role("link", name="Go to the mission")).to_have_attribute(
        "href", f"/t/{code}/"
    )
    shot(tab, "guild-frozen-dismiss")
    # ... and to send him to explore the city.
    tab.goto("/guild/city/")
    place = tab.locator('[data-point="unknown-1"]')
    place.locator("summary").tap()
    place.get_by_label("Ash").check()
    expect(place.locator('[data-preview] [data-code="on_mission"]')).to_contain_text(
        "they cannot be sent to the city"
    )
    place.get_by_role("button", name="Explore").tap()
    sent = tab.locator('[role="alert"][data-code="on_mission"]')
    expect(sent).to_contain_text("The Drowned Bell")
    shot(tab, "guild-frozen-explore")
    assert gm.Mercenary.objects.get(guild=rookie, card__name="Ash").status == "on_mission"
    # The missions page lists the mission in progress; its "Back to the table", by touch, lands
    # on the preparation with the thumb bar's Next in view.
    tab.goto("/missions/")
    back = tab.locator(".dl-running").get_by_role("link", name="Back to the table")
    assert_in_view(tab, back, "Back to the table")
    shot(tab, "guild-mission-running-card")
    back.tap()
    expect(tab.locator('[data-stage="characters"]')).to_be_visible()
    in_view(tab, tab.locator("#dl-thumb").get_by_role("button", name="Next"))
    tab.close()

    # Back at the table: the mission is played and Ash is killed.
    for stage in ("mana", "miniatures", "deployment"):
        next_on_both(stage)
    deploy_and_start([ann, bob])
    expect(bob.locator("#dl-mission")).to_be_visible()
    piece = bob.locator('[id^="piece-s1-"]', has_text="Ash")
    piece.locator("summary").first.tap()  # the roster card opens the character's sheet
    for _ in range(3):  # three broken hearts: killed (7.3.2)
        before = bob.locator("#live").get_attribute("data-version")
        piece.get_by_role("button", name="add a broken heart").tap()
        expect(bob.locator("#live")).not_to_have_attribute("data-version", before)
    # Ann uses Rook's ability from his sheet: its cost is on the button, paid from her fate.
    # (Wait until Ann's page has Bob's last taps: a push never replaces it under her thumb.)
    expect(ann.locator("#live")).to_have_attribute(
        "data-version", bob.locator("#live").get_attribute("data-version")
    )
    rook = ann.locator('[id^="piece-s0-"]', has_text="Rook")
    rook.locator("summary").first.tap()
    expect(ann.locator("#dl-fate-0")).to_have_text("fate 3")
    use = rook.get_by_role("button", name="Use Iron will (2 fate) for Rook")
    expect(use).to_have_text("Use Iron will (2 fate)")
    use.tap()
    expect(ann.locator("#dl-fate-0")).to_have_text("fate 1")
    expect(bob.locator("#dl-fate-0")).to_have_text("fate 1")
    rook = ann.locator('[id^="piece-s0-"]', has_text="Rook")
    # Used once this phase (5.1.1): the button is disabled with that reason beside it.
    expect(rook.locator(".dl-abilities")).to_contain_text("already used this phase")
    expect(rook.get_by_role("button", name="Use Iron will (2 fate) for Rook")).to_be_disabled()
    expect(ann.locator("#dl-fate-0")).to_have_text("fate 1")
    shot(ann, "guild-ability-paid-from-fate")
    achieve_objective(ann, [bob])  # at the end of the turn, Bob confirms (7.3.2.3)
    expect(bob.locator("#dl-winner")).to_contain_text("House Ash wins")
    # Close the mission, by touch, from the thumb bar (6.4.1 resolution): the closing phone lands
    # on "Closed" with the thumb bar's next step, Another mission; the other phone shows it too.
    close = bob.locator("#dl-thumb #dl-close")
    in_view(bob, close)
    close.tap()  # the first tap arms it, in place (app.js data-two-step): nothing sent yet
    expect(close).to_have_text("Tap again to close: writes the results into both Guilds")
    close.tap()
    expect(bob.locator("#dl-closed")).to_be_visible()
    in_view(bob, bob.locator("#dl-closed"))
    another = bob.locator("#dl-thumb #dl-another")
    in_view(bob, another)
    expect(ann.locator("#dl-closed")).to_be_visible()
    in_view(ann, ann.locator("#dl-thumb #dl-another"))
    # The greyed Undo says why, under the thumb (not "cards shown": the mission is closed).
    expect(bob.locator("#undo-why")).to_have_text("game over")
    in_view(bob, bob.locator("#undo-why"))
    shot(bob, "guild-mission-closed")
    # Another mission: the form that opens it with the same players, inside the viewport.
    another.tap()
    in_view(bob, bob.locator("#dl-continue button"))
    shot(bob, "guild-mission-another")

    # Ledgers: the winner's rewards, the rookie's defeat (6.4.1 resolution).
    ann.goto("/guild/ledger/")
    expect(ann.locator("body")).to_contain_text("won The Drowned Bell")
    bob.goto("/guild/ledger/")
    expect(bob.locator("body")).to_contain_text("played The Drowned Bell")
    expect(bob.locator('[data-purse="fame"]')).to_have_text("-2 fame")
    shot(bob, "guild-rookie-ledger")
    # Dormitories: Rook back and active; Ash dead, Birch (who stayed home) active.
    ann.goto("/guild/dormitory/")
    expect(ann.locator('[data-mercenary="Rook"]')).to_contain_text("Active")
    bob.goto("/guild/dormitory/")
    expect(bob.locator('[data-mercenary="Ash"]')).to_contain_text("Dead")
    expect(bob.locator('[data-mercenary="Birch"]')).to_contain_text("Active")
    # The rookie, at -2 fame, can still enlist (level 1 is always open).
    bob.get_by_role("button", name="Enlist Recruit Vell").tap()
    expect(bob.locator('[data-mercenary="Recruit Vell"]')).to_contain_text("Active")
    shot(bob, "guild-rookie-rebuilds")
    rookie.refresh_from_db()
    assert rookie.fame == -2
    assert not gm.MissionHold.objects.exists()
