"""The first-access tour (DemLoc rulebook 6.2: "At the first access to the app, players watch a
tutorial explaining the main rules of the game"): shown on the Guild office after the Guild is
founded, until it is finished or skipped; the office's Tour link opens it again. The browser
side (one step at a time, focus, keyboard, 360 px) is ``tests/e2e/test_guild_tour.py``."""

import importlib
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.urls import reverse

from guilds import models, services
from guilds.demo import load_demo_content

from .factories import UserFactory

TOUR = 'id="tour" data-tour'

pytestmark = pytest.mark.django_db


def test_the_tour_shows_once_and_the_link_reopens_it_6_2(client):
    load_demo_content()
    user = UserFactory()
    client.force_login(user)
    code = models.AccountCode.objects.filter(guild__isnull=True).first().code
    response = client.post(
        reverse("guilds:found"), {"code": code, "name": "House Vesper", "colour": "green"}
    )
    assert response.status_code == 302 and response["Location"] == reverse("guilds:home")
    office = client.get(reverse("guilds:home")).content.decode()
    assert TOUR in office and "A short tour of your Guild" in office
    for step in (
        "Your Guild",
        "City Gate and Dormitory",
        "Armory",
        "Open a mission",
        "At the table",
    ):
        assert f"<h3>{step}" in office
    assert (
        "turn bar" in office
        and "<strong>Undo</strong>" in office
        and "<strong>Next</strong>" in office
    )
    assert "data-tour-link>Tour</a>" in office
    assert TOUR in client.get(reverse("guilds:home")).content.decode()  # not dismissed yet

    response = client.post(reverse("guilds:tour_seen"))  # Skip the tour (no script)
    assert response.status_code == 302 and response["Location"] == reverse("guilds:home")
    assert models.Guild.objects.get(master=user).tour_seen
    office = client.get(reverse("guilds:home")).content.decode()
    assert TOUR not in office and "data-tour-link>Tour</a>" in office  # it does not come back

    reopened = client.get(reverse("guilds:home") + "?tour=1").content.decode()
    assert TOUR in reopened  # the Tour link
    assert TOUR not in client.get(reverse("guilds:home")).content.decode()


def test_closing_through_htmx_empties_the_tour_and_is_idempotent_6_2(client, guild):
    client.force_login(guild.master)
    assert TOUR in client.get(reverse("guilds:home")).content.decode()
    for _ in range(2):
        response = client.post(reverse("guilds:tour_seen"), HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        assert response.content.decode().strip() == '<div id="guild-tour"></div>'
    guild.refresh_from_db()
    assert guild.tour_seen
    assert services.guild_tour_seen(guild=guild).tour_seen


def test_the_tour_needs_a_login_and_a_guild_6_2(client):
    response = client.post(reverse("guilds:tour_seen"))
    assert response.status_code == 302 and "/login" in response["Location"]
    client.force_login(UserFactory())
    response = client.post(reverse("guilds:tour_seen"))  # no Guild yet: the founding form
    assert response.status_code == 302 and response["Location"] == reverse("guilds:home")
    assert client.get(reverse("guilds:tour_seen")).status_code == 302  # a reload goes home


def test_guilds_founded_before_the_tour_have_had_their_first_visit(found_guild):
    """The migration marks every existing Guild as having seen the tour; new ones have not."""
    old = found_guild()
    assert not old.tour_seen
    migration = importlib.import_module("guilds.migrations.0009_guild_tour_seen")
    migration.existing_guilds_have_seen_it(apps, None)
    old.refresh_from_db()
    assert old.tour_seen
    assert not found_guild(name="House Newer", colour="blue").tour_seen


def test_the_tour_names_every_preparation_step_6_4_1():
    """Found by a new user: the tour listed 5 preparation steps of 9."""
    from django.template.loader import render_to_string

    from missions.rules.setup import STAGE_LABELS

    html = render_to_string("guilds/_tour.html", {"tour": True})
    listed = html.split("data-tour-stages>")[1].split("</span>")[0]
    named = [step.split(" (")[0] for step in listed.split(", ")]
    assert named == list(STAGE_LABELS.values())
    # Found by a new user: docs/playing.md named six steps, one of them ("followers") no step.
    docs = " ".join((Path(settings.BASE_DIR) / "docs" / "playing.md").read_text().split())
    in_docs = docs.split("the preparation's nine steps (")[1].split(": the same list")[0]
    assert in_docs == listed


def test_after_founding_the_highlighted_tile_is_the_city_gate_then_the_map_6_2(client):
    """Found by a new user: after founding the message names the City Gate but the highlighted
    tile was the Map. Until a set is redeemed the City Gate is the highlighted tile."""
    load_demo_content()
    user = UserFactory()
    client.force_login(user)
    code = models.AccountCode.objects.filter(guild__isnull=True).first().code
    client.post(reverse("guilds:found"), {"code": code, "name": "House Vesper", "colour": "red"})
    office = client.get(reverse("guilds:home")).content.decode()
    assert 'class="btn btn-primary" href="/guild/gate/" data-gate-link>' in office
    assert 'class="btn" href="/guild/city/" data-city-link>' in office
    guild = models.Guild.objects.get(master=user)
    first = models.SetCode.objects.filter(redeemed_by__isnull=True).first()
    services.set_code_redeem(guild=guild, code=first.code)
    office = client.get(reverse("guilds:home")).content.decode()
    assert 'class="btn" href="/guild/gate/" data-gate-link>' in office
    assert 'class="btn btn-primary" href="/guild/city/" data-city-link>' in office
