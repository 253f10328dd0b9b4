"""Guild pages through the test client (DemLoc rulebook 6.2 items 1-4, 6.3): the whole first
evening of a Guild Master, errors shown at the form, other Guilds' ids answer 404."""

import re

import pytest
from django.urls import reverse

from guilds import models, services
from guilds.demo import load_demo_content

from .factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(db):
    load_demo_content()


@pytest.fixture
def master(client):
    user = UserFactory()
    client.force_login(user)
    return user


def account_code():
    return (
        models.AccountCode.objects.filter(guild__isnull=True, card_set__is_demo=True).first().code
    )


def set_code(name):
    return models.SetCode.objects.filter(card_set__name=name, redeemed_by__isnull=True).first().code


def card(model, name):
    return model.objects.get(name=name).pk


def found(client, name="House Vesper"):
    return client.post(
        reverse("guilds:found"), {"code": account_code(), "name": name, "colour": "green"}
    )


def test_pages_need_a_login(client):
    response = client.get(reverse("guilds:home"))
    assert response.status_code == 302 and "/login" in response["Location"]


def test_a_new_master_sees_the_founding_form_then_founds(client, master, demo):
    assert b"Account card code" in client.get(reverse("guilds:home")).content
    response = found(client)
    assert response.status_code == 302
    assert models.Guild.objects.get(master=master).colour == "green"


def test_a_double_tap_on_found_goes_to_the_guild_not_to_an_error(client, master, demo):
    """Found by a new user: the second of two quick taps answered "You already lead a Guild."
    though the first had founded it; it now goes to the Guild (another name still refused)."""
    code = account_code()
    form = {"code": code, "name": "House  Vesper", "colour": "green"}
    assert client.post(reverse("guilds:found"), form).status_code == 302
    again = client.post(reverse("guilds:found"), {**form, "name": "house vesper"})
    assert again.status_code == 302 and again["Location"] == reverse("guilds:home")
    other = client.post(reverse("guilds:found"), {**form, "name": "House Other"})
    assert other.status_code == 400 and b'data-code="guild_exists"' in other.content
    assert models.Guild.objects.filter(master=master).count() == 1


def test_a_wrong_account_code_is_shown_on_the_form(client, master, demo):
    response = client.post(
        reverse("guilds:found"), {"code": "nope", "name": "X House", "colour": "red"}
    )
    assert response.status_code == 400
    assert b'data-code="code_unknown"' in response.content
    assert not models.Guild.objects.exists()


def test_the_first_evening_of_a_guild(client, master, demo):
    """Found, redeem the demo codes, enlist four, buy and equip, fill library and pantheon,
    lodge a follower, upgrade the dormitory, print the roster."""
    found(client)
    for name in (
        "Basic Guild Set: Rise of Guilds 1",
        "Followers Set: Rise of the Guilds",
        "Rise of Guilds: Weapons and Arcane Codes",
    ):
        assert client.post(reverse("guilds:redeem"), {"code": set_code(name)}).status_code == 302
    names = ["Brann the Trapper", "Okka Ironjaw", "Malve of the Ash", "Tibbs Gutterhand"]
    for name in names:
        client.post(reverse("guilds:enlist"), {"card": card(models.MercenaryCard, name)})
    guild = models.Guild.objects.get(master=master)
    assert sorted(guild.mercenaries.values_list("card__name", flat=True)) == sorted(names)

    client.post(reverse("guilds:buy"), {"card": card(models.WeaponCard, "Hunting Bow")})
    client.post(reverse("guilds:buy"), {"card": card(models.WeaponCard, "Dagger")})
    bow, dagger = guild.weapons.order_by("card__name")[1], guild.weapons.order_by("card__name")[0]
    brann = guild.mercenaries.get(card__name="Brann the Trapper")
    malve = guild.mercenaries.get(card__name="Malve of the Ash")
    client.post(reverse("guilds:equip", args=[bow.pk]), {"mercenary": brann.pk})
    client.post(reverse("guilds:equip", args=[dagger.pk]), {"mercenary": malve.pk})
    bow.refresh_from_db()
    assert bow.mercenary == brann and bow.slot == "primary"

    client.post(
        reverse("guilds:code_add"), {"card": card(models.ArcaneCodeCard, "Codex of Shards")}
    )
    code = guild.codes.get()
    client.post(reverse("guilds:code_assign", args=[code.pk]), {"mercenary": malve.pk})
    client.post(reverse("guilds:daemon_add"), {"card": card(models.DaemonCard, "Glass Imp")})
    client.post(
        reverse("guilds:follower_enlist"), {"card": card(models.FollowerCard, "City Guard")}
    )
    client.post(reverse("guilds:upgrade", args=["dormitory"]))
    guild.refresh_from_db()
    assert guild.buildings.get(kind="dormitory").level == 2
    assert guild.pantheon.count() == 1 and guild.guests.count() == 1
    # 150 - 15 bow - 6 dagger - 15 code - 30 guard - 60 dormitory
    assert guild.feods == 24

    for page in (
        "home",
        "gate",
        "dormitory",
        "armory",
        "library",
        "guesthouse",
        "pantheon",
        "buildings",
        "ledger",
    ):
        assert client.get(reverse(f"guilds:{page}")).status_code == 200, page
    # Found by a new user: the Balance column mixed fame and feods without a unit.
    ledger = client.get(reverse("guilds:ledger")).content.decode()
    balances = re.findall(r"<td data-balance>([^<]*)</td>", ledger)
    assert balances and all(re.fullmatch(r"-?\d+ (fame|feods?|blood stones?)", b) for b in balances)
    assert "24 feods" in balances
    buildings = client.get(reverse("guilds:buildings")).content.decode()
    assert "Now: 6 slots · 3 per type" in buildings  # rules.DORMITORY_SLOTS[2], PER_TYPE[2]
    roster = client.get(reverse("guilds:roster")).content.decode()
    for text in names + ["Hunting Bow", "Dagger", "Codex of Shards", "Glass Imp", "City Guard"]:
        assert text in roster
    assert ("Not ready for a mission: Okka Ironjaw has no weapon equipped: buy one in the Armory "
            "and equip it (5.1.4).") in roster
    # Found by a new user: the Armory said "primary" where its select says "Primary (top)", and
    # the Dormitory nested parentheses ("Hunting Bow (Primary (top))"). The space's one name:
    armory = client.get(reverse("guilds:armory")).content.decode()
    assert "Brann the Trapper · Primary (top)" in armory
    dormitory = client.get(reverse("guilds:dormitory")).content.decode()
    assert "Hunting Bow · Primary (top)" in dormitory and "(Primary (top))" not in dormitory


def test_a_broken_rule_shows_its_message_at_the_form_used_and_changes_nothing(client, master, demo):
    found(client)
    client.post(
        reverse("guilds:redeem"), {"code": set_code("Rise of Guilds: Weapons and Arcane Codes")}
    )
    guild = models.Guild.objects.get(master=master)
    models.LedgerEntry.objects.create(
        guild=guild, currency="feods", amount=-140, balance_after=10, reason="adjustment"
    )
    models.Guild.objects.filter(pk=guild.pk).update(feods=10)
    axe = card(models.WeaponCard, "Executioner's Axe")
    response = client.post(
        reverse("guilds:buy"), {"card": axe, "at": f"buy-{axe}"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="guild-main"')  # the partial only
    assert 'data-code="not_enough_feods"' in html
    # The message sits right above the button of the weapon that was tapped.
    position = html.index('data-code="not_enough_feods"')
    assert html.index(f'value="buy-{axe}"') > position
    assert not guild.weapons.exists()


def test_a_success_through_htmx_returns_the_updated_partial(client, master, demo):
    found(client)
    response = client.post(
        reverse("guilds:redeem"),
        {"code": set_code("Mercenaries Set: Sons of Loch")},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert "Mercenaries Set: Sons of Loch" in response.content.decode()
    assert "<html" not in response.content.decode()


def test_a_success_confirms_at_the_row_it_made_or_changed_not_at_the_top(client, master, demo):
    """The landing rule of the Guild pages (docs/playing.md): Buy answers with the bought
    weapon's row carrying the confirmation (data-landed, for the page script), Equip with the
    equipped weapon's row; nothing at the top of the page. Without htmx the redirect's address
    names that row (``#weapon-<pk>``)."""
    found(client)
    client.post(
        reverse("guilds:redeem"), {"code": set_code("Rise of Guilds: Weapons and Arcane Codes")}
    )
    client.post(reverse("guilds:redeem"), {"code": set_code("Basic Guild Set: Rise of Guilds 1")})
    guild = models.Guild.objects.get(master=master)
    bow = card(models.WeaponCard, "Hunting Bow")
    html = client.post(
        reverse("guilds:buy"), {"card": bow, "at": f"buy-{bow}"}, headers={"HX-Request": "true"}
    ).content.decode()
    weapon = guild.weapons.get()
    row = re.search(rf'<li id="weapon-{weapon.pk}".*?</li>', html, re.S).group(0)
    guild.refresh_from_db()
    # What the purse has left is said at the row (the purse at the top is out of view, 5.1.4).
    left = f"{guild.feods} feod{'' if guild.feods == 1 else 's'} left."
    assert f"Hunting Bow bought: it is in the armory. {left}" in row and "data-landed" in row
    assert html.count("data-landed") == 1
    assert "bought" not in html[: html.index("<ul")]  # not in the head of the page

    brann = services.mercenary_enlist(
        guild=guild, card_id=card(models.MercenaryCard, "Brann the Trapper")
    )
    response = client.post(
        reverse("guilds:equip", args=[weapon.pk]),
        {"mercenary": brann.pk, "at": f"weapon-{weapon.pk}"},
    )
    assert response["Location"] == reverse("guilds:armory") + f"#weapon-{weapon.pk}"
    html = client.post(
        reverse("guilds:unequip", args=[weapon.pk]),
        {"at": f"weapon-{weapon.pk}"},
        headers={"HX-Request": "true"},
    ).content.decode()
    row = re.search(rf'<li id="weapon-{weapon.pk}".*?</li>', html, re.S).group(0)
    assert "Hunting Bow is back in the armory." in row and "Equip</button>" in row


def test_another_guilds_weapon_answers_404(client, master, demo):
    found(client)
    guild = models.Guild.objects.get(master=master)
    client.post(
        reverse("guilds:redeem"), {"code": set_code("Rise of Guilds: Weapons and Arcane Codes")}
    )
    client.post(reverse("guilds:buy"), {"card": card(models.WeaponCard, "Dagger")})
    weapon = guild.weapons.get()
    client.logout()
    client.force_login(UserFactory())
    found(client, name="Rivals")
    for url in (
        reverse("guilds:unequip", args=[weapon.pk]),
        reverse("guilds:equip", args=[weapon.pk]),
    ):
        assert client.post(url, {"mercenary": 1}).status_code == 404
    weapon.refresh_from_db()
    assert weapon.mercenary is None


def enlist_okka(client, master):
    """A founded Guild with the demo basic set redeemed and Okka Ironjaw enlisted: Okka."""
    found(client)
    client.post(reverse("guilds:redeem"), {"code": set_code("Basic Guild Set: Rise of Guilds 1")})
    client.post(reverse("guilds:enlist"), {"card": card(models.MercenaryCard, "Okka Ironjaw")})
    return models.Guild.objects.get(master=master).mercenaries.get()


def test_dormitory_page_shows_limits_status_and_what_the_injured_need(client, master, demo):
    services.mercenary_status_set(
        mercenary_id=enlist_okka(client, master).pk,
        status="injured",
        heal_feods=20,
        note="Cracked ribs",
    )
    html = client.get(reverse("guilds:dormitory")).content.decode()
    assert re.search(r"1/4 slots", html)
    assert "Needs: 20 feods of care" in html and "Cracked ribs" in html


def test_a_dead_mercenary_s_line_says_it_once_even_with_a_note_of_before_6_4_1(
    client, master, demo
):
    # Missions closed before wrote "<mission>: Dead: stays in the dormitory, can never be used
    # again (6.4.1)." into the note; the line read "Dead: <that>. Stays listed; ..." (twice, "..").
    services.mercenary_status_set(
        mercenary_id=enlist_okka(client, master).pk,
        status="dead",
        note="The Drowned Bell: Dead: stays in the dormitory, can never be used again (6.4.1).",
    )
    html = " ".join(client.get(reverse("guilds:dormitory")).content.decode().split())
    assert (
        "Dead (The Drowned Bell): stays listed, can never be used again (6.4.1).</p>" in html
    )
    assert html.count("never be used again") == 1


@pytest.mark.parametrize(
    ("n", "currency", "words"),
    [(1, "feods", "feod"), (-1, "feods", "feod"), (2, "feods", "feods"), (0, "feods", "feods"),
     (1, "blood_stones", "blood stone"), (3, "blood_stones", "blood stones"), (1, "fame", "fame")],
)
def test_a_ledger_amount_takes_its_currency_in_the_right_number(n, currency, words):
    """Found by a new user: "+1 feods" in the ledger and the office; one feod, one blood stone."""
    from django.template.loader import render_to_string

    assert render_to_string("guilds/_currency.html", {"n": n, "currency": currency}) == words


def _guild_with_malve(client, master):
    """A Guild founded through the pages with the demo's mercenaries and codes redeemed and
    Malve of the Ash (arcane 2) enlisted: ``(guild, malve)``."""
    found(client)
    for name in ("Basic Guild Set: Rise of Guilds 1", "Rise of Guilds: Weapons and Arcane Codes"):
        client.post(reverse("guilds:redeem"), {"code": set_code(name)})
    client.post(reverse("guilds:enlist"), {"card": card(models.MercenaryCard, "Malve of the Ash")})
    guild = models.Guild.objects.get(master=master)
    malve = guild.mercenaries.get(card__name="Malve of the Ash")
    return guild, malve


def test_a_codex_nobody_could_summon_with_says_so_at_add_and_assign_5_1_5(client, master, demo):
    """Found by a new user: the Codex of Embers (summoning 1 common + 2 dark, 5.1.5) was bought
    for 15 feods and assigned to Malve, who holds at most 2 mana (5.1.1 arcane ability); the
    library warned only after. Its Add button's entry says beforehand that none of the Guild's
    characters could summon with it, and its Assign control names who never would, in the words
    the assignment says after (``rules.summon_beyond_reach``)."""
    guild, malve = _guild_with_malve(client, master)
    assert malve.card.arcane_ability < 3
    embers = models.ArcaneCodeCard.objects.get(name="Codex of Embers")
    most = malve.card.arcane_ability
    # its Crown of Fire costs 3 too: the words never say its powers can all be used
    said = (f"Its summoning needs 3 mana; Malve of the Ash holds at most {most}: "
            f"they never summon with it. Malve of the Ash holds at most {most} mana: never casts"
            " Crown of Fire (3 mana).")
    page = client.get(reverse("guilds:library")).content.decode()
    entry = page[page.index(f'id="add-{embers.pk}"'):]
    entry = entry[: entry.index("</form>")]
    assert f"None of your characters could pay all of it. {said}" in entry
    client.post(reverse("guilds:code_add"), {"card": embers.pk})
    code = guild.codes.get()
    page = client.get(reverse("guilds:library")).content.decode()
    row = page[page.index(f'id="code-{code.pk}"'):]
    row = row[: row.index("</form>")]
    assert said in row and "(arcane" in row and "· cannot pay all of it</option>" in row
    done = client.post(reverse("guilds:code_assign", args=[code.pk]), {"mercenary": malve.pk},
                       HTTP_HX_REQUEST="true").content.decode()
    assert f"Codex of Embers assigned to Malve of the Ash. {said}" in done


def test_a_power_nobody_could_cast_is_said_at_add_and_assign_5_1_5(client, master, demo):
    """Found by a new user: the Codex of the Undertow's summoning (2 mana) is within Malve's
    reach, but its Drowning Hymn costs 3 (1 common + 2 dark) and Malve holds at most 2 (5.1.1):
    the library warned of nothing. Said at its Add entry and its Assign control."""
    guild, malve = _guild_with_malve(client, master)
    assert malve.card.arcane_ability == 2
    undertow = models.ArcaneCodeCard.objects.get(name="Codex of the Undertow")
    said = "Malve of the Ash holds at most 2 mana: never casts Drowning Hymn (3 mana)."
    page = client.get(reverse("guilds:library")).content.decode()
    entry = page[page.index(f'id="add-{undertow.pk}"'):]
    entry = entry[: entry.index("</form>")]
    assert f"None of your characters could pay all of it. {said}" in entry
    assert "summoning" not in entry.split("data-summon-warning")[-1].split("</p>")[0]
    client.post(reverse("guilds:code_add"), {"card": undertow.pk})
    code = guild.codes.get()
    page = client.get(reverse("guilds:library")).content.decode()
    row = page[page.index(f'id="code-{code.pk}"'):]
    row = row[: row.index("</form>")]
    assert said in row and "· cannot pay all of it</option>" in row


@pytest.mark.parametrize("page", ["guilds:home", "guilds:dormitory", "guilds:armory", "guilds:city"])
def test_every_guild_page_leads_to_the_missions_6_4(client, master, demo, page):
    """A Guild is played at a table (6.4: a mission opened with the Guild): the office and the
    Guild menu of every Guild page link to the mission lobby (a new user found the home page's
    link the only way there)."""
    found(client)
    html = client.get(reverse(page)).content.decode()
    lobby = reverse("missions:lobby")
    assert f'<a href="{lobby}" data-missions-link>Missions</a>' in html
    if page == "guilds:home":
        assert f'href="{lobby}" data-missions-link>Missions: play at a table</a>' in html
