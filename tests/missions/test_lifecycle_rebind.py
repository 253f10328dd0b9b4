"""Bringing a Guild again from the table page after enlisting and equipping in the guild pages
(our rule on 6.4 "connect their profiles"), and the follower pool of the Characters step
greyed for followers outside the Guild's card database (5.1.2)."""

import pytest
from django.urls import reverse

from guilds import models as gm
from guilds import services as gs
from tests.guilds.factories import AreaFactory, MercenaryCardFactory, WeaponCardFactory

from .lifecycle_flow import open_table, state, to_stage

pytestmark = pytest.mark.django_db


def test_a_master_brings_the_guild_again_after_enlisting_and_equipping(
    client, make_guild, demo_missions
):
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    mission, table, (sa, sb) = open_table([a, b], demo_missions["objective"])
    to_stage(table, [sa, sb], "characters")
    client.force_login(b.master)
    url = reverse("tabletop:table", args=[table.code])
    html = client.get(url).content.decode()
    assert "Thorn" not in html and "Bring my Guild again" in html and "taken <time" in html
    # In the guild pages: a new mercenary and a weapon for him.
    thorn = MercenaryCardFactory(name="Thorn", area=AreaFactory(), hit_factor=3, armor=3)
    axe = WeaponCardFactory(price_feods=0)
    card_set = gm.CardSet.objects.create(name="More", kind=gm.CardSet.Kind.EQUIPMENT)
    gm.SetCard.objects.create(card_set=card_set, card=thorn, quantity=1)
    gm.SetCard.objects.create(card_set=card_set, card=axe, quantity=1)
    code = gm.SetCode.objects.create(card_set=card_set, code="MORE-0000-0001")
    gs.set_code_redeem(guild=b, code=code.code)
    merc = gs.mercenary_enlist(guild=b, card_id=thorn.pk)
    weapon = gs.weapon_buy(guild=b, card_id=axe.pk)
    gs.weapon_equip(guild=b, weapon_id=weapon.pk, mercenary_id=merc.pk)

    response = client.post(reverse("missions:bind", args=[table.code]))
    assert response.status_code == 200
    html = client.get(url).content.decode()
    assert "Thorn" in html and 'value="demloc.setup.pick"' in html
    roster = state(table)["setup"]["guilds"][str(sb.number)]["roster"]
    assert [c["ready"] for c in roster if c["name"] == "Thorn"] == [True]
    # Once B taps Next at Characters the Guild stays as it was brought.
    from .lifecycle_flow import cmd, roster_id

    cmd(table, sb, "setup.pick", character=roster_id(table, sb, "Thorn"))
    cmd(table, sb, "setup.next")
    html = client.get(url).content.decode()
    assert "Bring my Guild again" not in html
    response = client.post(reverse("missions:bind", args=[table.code]))
    assert 'data-code="characters_done"' in response.content.decode()


def _pool(client, table):
    html = client.get(reverse("tabletop:table", args=[table.code])).content.decode()
    pool = html[html.index('class="dl-pool"') :]
    return pool[: pool.index("</ul>")]


def test_followers_outside_the_guild_database_are_greyed_with_the_reason(client, make_guild):
    from guilds.demo import load_demo_content
    from missions.demo import load_demo_missions

    load_demo_content()
    definition = load_demo_missions()[0]
    offered = [f.card for f in definition.followers.all()]
    assert offered
    a = make_guild("House Ash", "red", ("Rook",))
    b = make_guild("House Birch", "blue", ("Ash",))
    followers = gm.CardSet.objects.create(name="Followers", kind=gm.CardSet.Kind.EQUIPMENT)
    for card in offered:
        gm.SetCard.objects.create(card_set=followers, card=card, quantity=1)
    code = gm.SetCode.objects.create(card_set=followers, code="FOLL-0000-0001")
    gs.set_code_redeem(guild=b, code=code.code)
    mission, table, (sa, sb) = open_table([a, b], definition)
    to_stage(table, [sa, sb], "characters")
    client.force_login(a.master)
    pool = _pool(client, table)
    assert pool.count("not in your card database") == len(offered)
    assert 'value="demloc.setup.hire"' not in pool
    client.force_login(b.master)
    pool = _pool(client, table)
    assert "not in your card database" not in pool
    assert pool.count('value="demloc.setup.hire"') == len(offered)
