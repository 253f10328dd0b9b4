"""Guild names are cleaned and compared as seat names are (tabletop.names): found by a new user
on two phones, a Guild could take another's name with a trailing zero-width space or a
straight apostrophe, or be named with three zero-width spaces and show an empty heading. The
name is the Guild's seat at the table (DemLoc rulebook 6.4.1), so two look-alikes would be two
seats nobody can tell apart."""

import pytest
from django.urls import reverse

from guilds import models, services
from tabletop.errors import RuleViolation
from tabletop.names import clean_name, names_clash

from .factories import UserFactory

pytestmark = pytest.mark.django_db

BOB = "Bob\u2019s \U0001f409 Guild"
LOOK_ALIKES = [
    BOB,
    BOB + "\u200b",
    "Bob's \U0001f409 Guild",
    "BOB`S \U0001f409 GUILD",
    "Bob\u2019s  \U0001f409\u2060 Gu\u0456ld",  # Cyrillic i, a word joiner, two spaces
    "Bob\u2019s \U0001f409 Gui1d",
]


def assert_rename_refused(client, mine, user, name: str, code: str) -> None:
    """Renaming ``mine`` to ``name`` answers 400 with ``code`` at the rename field and
    changes nothing."""
    client.force_login(user)
    response = client.post(reverse("guilds:rename"), {"at": "rename", "name": name})
    assert response.status_code == 400
    rename_form = response.content.decode().split("data-rename")[1].split("</form>")[0]
    assert f'data-code="{code}"' in rename_form
    mine.refresh_from_db()
    assert mine.name == "House Vesper"


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_rename_to_a_look_alike_of_another_guilds_name_is_refused_at_the_field(
    client, found_guild, name
):
    found_guild(name=BOB)
    user = UserFactory()
    assert_rename_refused(client, found_guild(name="House Vesper", user=user), user, name,
                          "name_taken")


@pytest.mark.parametrize(
    "name", ["\u200b\u200b\u200b", " \u200b \u2060 ", "\u3164\u3164", "\u2800\u2800"]
)
def test_a_guild_name_with_nothing_visible_is_refused_at_the_field(client, found_guild, name):
    user = UserFactory()
    assert_rename_refused(client, found_guild(name="House Vesper", user=user), user, name,
                          "bad_name")


def test_founding_a_guild_cleans_the_name_and_refuses_look_alikes(found_guild):
    first = found_guild(name=" Bob\u2019s\u200b \U0001f409   Guild ")
    assert first.name == BOB
    for name in LOOK_ALIKES + ["\u200b\u200b\u200b"]:
        with pytest.raises(RuleViolation) as exc:
            found_guild(name=name)
        assert exc.value.code in ("name_taken", "bad_name")
    assert models.Guild.objects.count() == 1


def test_the_admin_check_and_the_guest_guilds_use_the_same_cleaning(guild, found_guild):
    found_guild(name=BOB)
    with pytest.raises(RuleViolation) as exc:
        services.guild_name_check("Bob's \U0001f409 Guild")
    assert exc.value.code == "name_taken"
    with pytest.raises(RuleViolation) as exc:
        services.guest_guild_prepare(guild=guild, name="\u200b\u200b", colour="red", roster=[])
    assert exc.value.code == "bad_name"
    with pytest.raises(RuleViolation) as exc:
        services.guild_name_check("\u200b\u200b\u200b")
    assert exc.value.code == "bad_name"


def test_a_renamed_guild_keeps_an_emoji_sequence_whole():
    # A zero-width joiner between two pictographs draws one emoji: it stays.
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert clean_name(f"The {family} Guild") == f"The {family} Guild"
    assert clean_name("A\u200dB") == "AB"


@pytest.mark.parametrize(
    "a, b",
    [
        ("Rock\u2014Guild", "Rock-Guild"),
        ("\u201cCrows\u201d", '"Crows"'),
        ("Jos\u00e9", "JOSE"),
        ("Corvo", "C0rvo"),
        ("Morn", "Mom"),
        ("Ann's\u200bBlades", "Ann's Blades"),  # a zero-width space for the space (fresh8)
        ("Anns Ravens", "Ann's Ravens"),  # punctuation left out (fresh-user review, session 7)
        ("Ann's Ravens \U0001f985", "\u0410nn\u2019s Ravens"),  # an emoji, a Cyrillic A (fresh8)
        ("Ann \U0001f3b2", "\u0410nn"),
        ("A-Team", "A Team."),
    ],
)
def test_quotes_dashes_accents_and_latin_look_alikes_clash(a, b):
    assert names_clash(a, b)


def test_different_names_do_not_clash():
    assert not names_clash("House Vesper", "House Corvo")
    assert not names_clash("Ann", "Anna")
    assert not names_clash("!!!", "???")  # a name of punctuation only keeps it in its key
    assert not names_clash("\U0001f409", "\U0001f43a")  # emoji only: each keeps its own
