"""The ghost-tap guard (app.js; docs/playing.md) on Guild forms: a control redrawn in place by
a tap's answer is the same control, whatever one-time keys its form carries; another form under
the same spot is not. Found in review: a Guild form's CSRF token, masked anew by Django in every
render, counted in the control's key, so the Armory's "Buy Hunting Bow" redrawn by its own
answer was taken for another control and ignored taps for half a second (new users saw first
taps that did nothing). By touch at 360x740 in the Armory (DemLoc rulebook 5.1.4: weapons bought
with the Guild's feods and equipped on a mercenary)."""

from playwright.sync_api import expect

from guilds.services.armory import weapon_buy
from tests.guilds.factories import WeaponCardFactory
from tests.missions.lifecycle_flow import build_guild

from .conftest import guild_phone, redeem_cards

# Every control the guard rings from now on (its data-tap-guard attribute set), by its text.
WATCH_GUARDS = """() => {
  window.guarded = [];
  new MutationObserver(ms => ms.forEach(m => {
    if (m.target.dataset && m.target.dataset.tapGuard) window.guarded.push(m.target.textContent.trim());
  })).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['data-tap-guard']});
}"""


def test_a_guild_form_redrawn_by_its_answer_is_not_guarded_5_1_4(new_phone):
    guild = build_guild("House Ash", "red", ("Rook", "Wren"))
    card = WeaponCardFactory(name="Hunting Bow", price_feods=15)
    redeem_cards(guild, (card,), "GHOSTG000001", quantity=3)
    phone = guild_phone(new_phone, guild, "/guild/armory/")
    buy = phone.get_by_role("button", name="Buy Hunting Bow")
    token = "b => b.form.querySelector('[name=csrfmiddlewaretoken]').value"
    before = buy.evaluate(token)
    buy.tap()  # a real answer redraws the form: its CSRF token is masked anew
    expect(phone.locator("[data-weapon='Hunting Bow']")).to_have_count(1)
    assert buy.evaluate(token) != before
    buy.scroll_into_view_if_needed()
    phone.wait_for_timeout(700)
    box = buy.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    phone.evaluate(WATCH_GUARDS)
    # The thumb is down on Buy; the answer's copy of its form (another masked token, another
    # one-time key, as the real answer above) replaces it in place within the half second
    # (on a phone the answer is in well before: here the server may be slower than that).
    phone.evaluate(
        """([x, y]) => {
          document.addEventListener('pointerdown', () => requestAnimationFrame(() => {
            const old = document.elementFromPoint(x, y).closest('form');
            const copy = old.cloneNode(true);
            copy.querySelector('[name=csrfmiddlewaretoken]').value = 'x' + Math.random().toString(36).slice(2);
            const once = copy.querySelector('[name=once]');
            if (once) once.value = 'y' + Math.random().toString(36).slice(2);
            old.replaceWith(copy);
          }), {once: true});
          const at = {clientX: x, clientY: y, bubbles: true, isPrimary: true, pointerType: 'touch'};
          document.elementFromPoint(x, y).dispatchEvent(new PointerEvent('pointerdown', at));
        }""",
        [x, y],
    )
    phone.wait_for_timeout(100)
    redrawn = phone.evaluate("([x, y]) => document.elementFromPoint(x, y).textContent.trim()", [x, y])
    assert redrawn.startswith("Buy Hunting Bow"), redrawn
    guarded = phone.evaluate("window.guarded")
    print("guarded after the redraw:", guarded)
    assert guarded == [], guarded


def test_two_guild_forms_alike_but_for_their_item_are_two_controls_5_1_4(new_phone):
    """Two Equip buttons, one per weapon (the same label, the same fields): another weapon's
    Equip brought under the thumb right after a tap on the first one's is guarded."""
    guild = build_guild("House Ash", "red", ("Rook", "Wren"))
    bow = WeaponCardFactory(name="Hunting Bow", price_feods=15)
    dagger = WeaponCardFactory(name="Dagger", price_feods=10)
    redeem_cards(guild, (bow, dagger), "GHOSTG000002")
    weapon_buy(guild=guild, card_id=bow.pk)
    weapon_buy(guild=guild, card_id=dagger.pk)
    phone = guild_phone(new_phone, guild, "/guild/armory/")
    rows = phone.locator("[data-weapon]")
    names = [rows.nth(0).get_attribute("data-weapon"), rows.nth(1).get_attribute("data-weapon")]
    equip = rows.nth(0).get_by_role("button", name="Equip")
    equip.scroll_into_view_if_needed()
    phone.wait_for_timeout(600)
    box = equip.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    phone.evaluate(WATCH_GUARDS)
    # The first weapon's row goes (as if equipped elsewhere) the moment the thumb is down: the
    # second weapon's Equip comes under it. (pointerdown only: no tap is sent.)
    phone.evaluate(
        """([x, y]) => {
          document.addEventListener('pointerdown', () => requestAnimationFrame(() => {
            const rows = document.querySelectorAll('[data-weapon]');
            rows[0].before(rows[1]);
          }), {once: true});
          const at = {clientX: x, clientY: y, bubbles: true, isPrimary: true, pointerType: 'touch'};
          document.elementFromPoint(x, y).dispatchEvent(new PointerEvent('pointerdown', at));
        }""",
        [x, y],
    )
    phone.wait_for_timeout(100)
    under = phone.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('[data-weapon]').dataset.weapon", [x, y])
    assert under == names[1], (under, names)
    guarded = phone.evaluate("window.guarded")
    print("under the thumb:", under, "guarded:", guarded)
    assert guarded == ["Equip"], guarded
