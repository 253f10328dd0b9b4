"""factory_boy factories for the guild catalog (tests only)."""

import factory
from django.contrib.auth import get_user_model

from guilds import models

PASSWORD = "pw-for-tests-123"
_hash: list[str] = []


def _password_hash() -> str:
    from django.contrib.auth.hashers import make_password

    if not _hash:
        _hash.append(make_password(PASSWORD))
    return _hash[0]


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"master{n}")
    # One hash for every user: hashing per user would cost ~0.3 s each.
    password = factory.LazyFunction(_password_hash)


class AreaFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.CityArea
        django_get_or_create = ("name",)

    name = "Ashen Market"


class KabbalahFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Kabbalah
        django_get_or_create = ("name",)

    name = "Black Mirror"


class CardSetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.CardSet

    name = factory.Sequence(lambda n: f"Test Set {n}")
    slug = factory.Sequence(lambda n: f"test-{n}")
    kind = models.CardSet.Kind.BASIC_GUILD


class MercenaryCardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.MercenaryCard

    name = factory.Sequence(lambda n: f"Mercenary {n}")
    type = "hunter"
    level = 1
    area = factory.SubFactory(AreaFactory)
    arcane_ability = 0


class WeaponCardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.WeaponCard

    name = factory.Sequence(lambda n: f"Weapon {n}")
    type = "swords"
    grip = "one"
    damage = 2
    price_feods = 10


class ArcaneCodeCardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.ArcaneCodeCard

    name = factory.Sequence(lambda n: f"Codex {n}")
    kabbalah = factory.SubFactory(KabbalahFactory)
    price_feods = 15


class FollowerCardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.FollowerCard

    name = factory.Sequence(lambda n: f"Follower {n}")
    can_enlist_permanently = True
    permanent_feods = 20


class DaemonCardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.DaemonCard

    name = factory.Sequence(lambda n: f"Daemon {n}")
    kabbalah = factory.SubFactory(KabbalahFactory)
    level = 1
