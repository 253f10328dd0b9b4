"""JSON API of the Guild (docs/architecture.md "Interfaces and errors"), mounted at ``/api/guild/``.

One view per operation, explicit input and output serializers, the same services as the pages.
Everything starts from ``request.user.guild``: another Guild's ids answer 404.
Errors (``tabletop.api.exception_handler``): 400 ``{"code", "detail"}`` for a broken rule or bad
input, 404 for what you cannot see, 403 when not logged in.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from tabletop.errors import NotFound, RuleViolation
from tabletop.openapi import error_responses

from . import models, rules, services
from .codes import API_CODES
from .ids import IdField
from .services import queries

#: The answers of every guild endpoint: the codes the guild services and these views raise
#: (``guilds.codes.API_CODES``; one list for the whole guild API).
ERRORS = error_responses(
    *API_CODES,
    "not_authenticated",
    "not_found",
    more='(while the Guild plays a mission (6.4), changing a mercenary at the table answers '
    '"on_mission" and spending the feods the mission will charge "feods_reserved", both with '
    '"link", the mission\'s table page, and "mission", its title)',
    texts={
        400: 'A broken rule or bad input: {"code", "detail"}',
        403: "Not logged in",
        404: "No Guild yet, or no such row in your Guild",
    },
)
TAGS = ["guild"]


def _guild(request) -> models.Guild:
    # A fresh row, not the user's cached ``.guild``: balances change between requests.
    found = models.Guild.objects.filter(master=request.user).first()
    if found is None:
        raise NotFound("no_guild", "Found your Guild first.")
    return found


# --- serializers ---------------------------------------------------------------------------------


class GuildIn(serializers.Serializer):
    account_code = serializers.CharField(max_length=40)
    name = serializers.CharField(max_length=rules.GUILD_NAME_MAX)
    colour = serializers.ChoiceField(choices=models.GuildColour.choices)


class GuildUpdateIn(serializers.Serializer):
    name = serializers.CharField(max_length=rules.GUILD_NAME_MAX, required=False)
    colour = serializers.ChoiceField(choices=models.GuildColour.choices, required=False)


class BuildingOut(serializers.ModelSerializer):
    effects = serializers.SerializerMethodField()
    upgrade_cost = serializers.SerializerMethodField()

    class Meta:
        model = models.Building
        fields = ["kind", "level", "effects", "upgrade_cost"]

    def get_effects(self, obj) -> dict:
        effects = rules.building_effects(obj.kind, obj.level)
        if "per_level" in effects:
            effects["per_level"] = {str(k): v for k, v in effects["per_level"].items()}
        return effects

    def get_upgrade_cost(self, obj) -> dict | None:
        if obj.level >= rules.MAX_BUILDING_LEVEL:
            return None
        cost = rules.upgrade_cost(obj.kind, obj.level)
        return {"feods": cost.feods, "blood_stones": cost.blood_stones}


class GuildOut(serializers.ModelSerializer):
    buildings = BuildingOut(many=True, read_only=True)

    class Meta:
        model = models.Guild
        fields = [
            "id",
            "name",
            "colour",
            "fame",
            "feods",
            "blood_stones",
            "created_at",
            "buildings",
        ]


class CodeIn(serializers.Serializer):
    code = serializers.CharField(max_length=40)


class RedeemOut(serializers.Serializer):
    code = serializers.CharField()
    card_set = serializers.CharField(source="card_set.name")
    redeemed_at = serializers.DateTimeField()


class CardIdIn(serializers.Serializer):
    card_id = IdField()


class MercenaryIdIn(serializers.Serializer):
    mercenary_id = IdField()


class EquipIn(MercenaryIdIn):
    slot = serializers.ChoiceField(
        choices=models.ArmoryWeapon.Slot.choices, required=False, allow_null=True
    )


class DatabaseEntryOut(serializers.Serializer):
    card_id = serializers.IntegerField(source="card.pk")
    name = serializers.CharField(source="card.name")
    kind = serializers.CharField(source="card.kind")
    copies = serializers.IntegerField()
    used = serializers.IntegerField()
    left = serializers.IntegerField()


class WeaponCardOut(serializers.ModelSerializer):
    features = serializers.StringRelatedField(many=True)

    class Meta:
        model = models.WeaponCard
        fields = [
            "id",
            "name",
            "type",
            "characteristic",
            "grip",
            "damage",
            "melee_damage",
            "range",
            "price_feods",
            "features",
        ]


class ArmoryWeaponOut(serializers.ModelSerializer):
    card = WeaponCardOut()
    mercenary_id = serializers.IntegerField(allow_null=True)

    class Meta:
        model = models.ArmoryWeapon
        fields = ["id", "card", "mercenary_id", "slot", "price_paid", "bought_at"]


class ArcaneCodeOut(serializers.ModelSerializer):
    kabbalah = serializers.StringRelatedField()

    class Meta:
        model = models.ArcaneCodeCard
        fields = [
            "id",
            "name",
            "kabbalah",
            "summoning_white",
            "summoning_black",
            "pentacle_name",
            "price_feods",
        ]


class LibraryCodeOut(serializers.ModelSerializer):
    card = ArcaneCodeOut()
    mercenary_id = serializers.IntegerField(allow_null=True)

    class Meta:
        model = models.LibraryCode
        fields = ["id", "card", "mercenary_id", "price_paid", "added_at"]


class MercenaryOut(serializers.ModelSerializer):
    name = serializers.CharField(source="card.name")
    card_id = serializers.IntegerField(source="card.pk")
    type = serializers.CharField(source="card.type")
    level = serializers.IntegerField(source="card.level")
    arcane_ability = serializers.IntegerField(source="card.arcane_ability")
    weapons = serializers.SerializerMethodField()
    codes = serializers.SerializerMethodField()
    mission_ready = serializers.SerializerMethodField()
    not_ready_code = serializers.SerializerMethodField()

    class Meta:
        model = models.Mercenary
        fields = [
            "id",
            "card_id",
            "name",
            "type",
            "level",
            "arcane_ability",
            "status",
            "heal_feods",
            "status_note",
            "weapons",
            "codes",
            "mission_ready",
            "not_ready_code",
        ]

    def get_weapons(self, obj) -> list[dict]:
        return [{"id": w.pk, "name": w.card.name, "slot": w.slot} for w in obj.weapons.all()]

    def get_codes(self, obj) -> list[dict]:
        return [{"id": c.pk, "name": c.card.name} for c in obj.codes.all()]

    def get_mission_ready(self, obj) -> bool:
        return services.mercenary_can_go_on_mission(obj).ok

    def get_not_ready_code(self, obj) -> str:
        return services.mercenary_can_go_on_mission(obj).code


class GuestOut(serializers.ModelSerializer):
    name = serializers.CharField(source="card.name")
    card_id = serializers.IntegerField(source="card.pk")

    class Meta:
        model = models.GuestFollower
        fields = ["id", "card_id", "name", "price_paid", "enlisted_at"]


class PantheonOut(serializers.ModelSerializer):
    name = serializers.CharField(source="card.name")
    card_id = serializers.IntegerField(source="card.pk")
    kabbalah = serializers.CharField(source="card.kabbalah.name")
    level = serializers.IntegerField(source="card.level")

    class Meta:
        model = models.PantheonDaemon
        fields = ["id", "card_id", "name", "kabbalah", "level", "added_at"]


class LedgerOut(serializers.ModelSerializer):
    class Meta:
        model = models.LedgerEntry
        fields = ["id", "currency", "amount", "balance_after", "reason", "note", "created_at"]


def _valid(serializer_class, request) -> dict:
    body = serializer_class(data=request.data)
    body.is_valid(raise_exception=True)
    return body.validated_data


def _mercenaries(guild):
    return queries.roster(guild)


def _mercenary(guild, pk):
    return MercenaryOut(_mercenaries(guild).get(pk=pk)).data


# --- the Guild ----------------------------------------------------------------------------------


@extend_schema(tags=TAGS, methods=["GET"], responses={200: GuildOut, **ERRORS})
@extend_schema(
    tags=TAGS,
    methods=["POST"],
    request=GuildIn,
    responses={201: GuildOut, **ERRORS},
    description="Found your Guild with a player account card code (6.2).",
)
@extend_schema(
    tags=TAGS, methods=["PATCH"], request=GuildUpdateIn, responses={200: GuildOut, **ERRORS}
)
@api_view(["GET", "POST", "PATCH"])
@permission_classes([IsAuthenticated])
def guild(request):
    """Your Guild: balances and buildings. POST founds it; PATCH renames or recolours it."""
    if request.method == "POST":
        data = _valid(GuildIn, request)
        created = services.guild_create(master=request.user, **data)
        return Response(GuildOut(created).data, status=status.HTTP_201_CREATED)
    current = _guild(request)
    if request.method == "PATCH":
        current = services.guild_update(guild=current, **_valid(GuildUpdateIn, request))
    return Response(GuildOut(current).data)


@extend_schema(tags=TAGS, request=CodeIn, responses={201: RedeemOut, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def redeem(request):
    """City Gate: redeem a set code; its cards join your database (6.2 item 1)."""
    row = services.set_code_redeem(guild=_guild(request), code=_valid(CodeIn, request)["code"])
    return Response(RedeemOut(row).data, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=TAGS,
    parameters=[OpenApiParameter("kind", enum=models.Card.Kind.values, required=True)],
    responses={200: DatabaseEntryOut(many=True), **ERRORS},
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def database(request):
    """The cards of one kind in your database, with copies and copies in use."""
    kind = request.query_params.get("kind", "")
    if kind not in models.Card.Kind.values:
        raise RuleViolation("bad_kind", f"kind is one of {', '.join(models.Card.Kind.values)}.")
    return Response(DatabaseEntryOut(queries.guild_database(_guild(request), kind), many=True).data)


# --- Dormitory ----------------------------------------------------------------------------------


@extend_schema(tags=TAGS, methods=["GET"], responses={200: MercenaryOut(many=True), **ERRORS})
@extend_schema(
    tags=TAGS, methods=["POST"], request=CardIdIn, responses={201: MercenaryOut, **ERRORS}
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def mercenaries(request):
    """The dormitory. POST enlists a mercenary card of your database (5.1.1)."""
    current = _guild(request)
    if request.method == "POST":
        card_id = _valid(CardIdIn, request)["card_id"]
        created = services.mercenary_enlist(guild=current, card_id=card_id)
        return Response(_mercenary(current, created.pk), status=status.HTTP_201_CREATED)
    return Response(MercenaryOut(_mercenaries(current), many=True).data)


@extend_schema(tags=TAGS, request=None, responses={204: None, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def mercenary_dismiss(request, pk: int):
    """Dismiss a mercenary (not the dead: they stay listed)."""
    services.mercenary_dismiss(guild=_guild(request), mercenary_id=pk)
    return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=TAGS, request=None, responses={200: MercenaryOut, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def mercenary_heal(request, pk: int):
    """Pay what an injured mercenary needs to be active again."""
    current = _guild(request)
    services.mercenary_heal(guild=current, mercenary_id=pk)
    return Response(_mercenary(current, pk))


# --- Armory -------------------------------------------------------------------------------------


@extend_schema(tags=TAGS, methods=["GET"], responses={200: ArmoryWeaponOut(many=True), **ERRORS})
@extend_schema(
    tags=TAGS, methods=["POST"], request=CardIdIn, responses={201: ArmoryWeaponOut, **ERRORS}
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def weapons(request):
    """The armory. POST buys a weapon card of your database with feods (5.1.4)."""
    current = _guild(request)
    if request.method == "POST":
        bought = services.weapon_buy(guild=current, card_id=_valid(CardIdIn, request)["card_id"])
        return Response(ArmoryWeaponOut(bought).data, status=status.HTTP_201_CREATED)
    rows = current.weapons.select_related("card").prefetch_related("card__features")
    return Response(ArmoryWeaponOut(rows, many=True).data)


@extend_schema(tags=TAGS, request=EquipIn, responses={200: ArmoryWeaponOut, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def weapon_equip(request, pk: int):
    """Give a weapon to a mercenary; ``slot`` primary (top), secondary or omitted (5.1.4)."""
    data = _valid(EquipIn, request)
    weapon = services.weapon_equip(
        guild=_guild(request),
        weapon_id=pk,
        mercenary_id=data["mercenary_id"],
        slot=data.get("slot"),
    )
    return Response(ArmoryWeaponOut(weapon).data)


@extend_schema(tags=TAGS, request=None, responses={200: ArmoryWeaponOut, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def weapon_unequip(request, pk: int):
    """Put a weapon back in the armory."""
    weapon = services.weapon_unequip(guild=_guild(request), weapon_id=pk)
    return Response(ArmoryWeaponOut(weapon).data)


# --- Arcane Library -----------------------------------------------------------------------------


@extend_schema(tags=TAGS, methods=["GET"], responses={200: LibraryCodeOut(many=True), **ERRORS})
@extend_schema(
    tags=TAGS, methods=["POST"], request=CardIdIn, responses={201: LibraryCodeOut, **ERRORS}
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def codes(request):
    """The Arcane Library. POST adds an Arcane Code card of your database (5.1.5)."""
    current = _guild(request)
    if request.method == "POST":
        added = services.arcane_code_add(
            guild=current, card_id=_valid(CardIdIn, request)["card_id"]
        )
        return Response(LibraryCodeOut(added).data, status=status.HTTP_201_CREATED)
    return Response(LibraryCodeOut(current.codes.select_related("card__kabbalah"), many=True).data)


@extend_schema(tags=TAGS, request=MercenaryIdIn, responses={200: LibraryCodeOut, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def code_assign(request, pk: int):
    """Give an Arcane Code to a character with arcane ability above 0 (at most that many)."""
    code = services.arcane_code_assign(
        guild=_guild(request),
        code_id=pk,
        mercenary_id=_valid(MercenaryIdIn, request)["mercenary_id"],
    )
    return Response(LibraryCodeOut(code).data)


@extend_schema(tags=TAGS, request=None, responses={200: LibraryCodeOut, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def code_unassign(request, pk: int):
    """Put an Arcane Code back on the shelf."""
    return Response(
        LibraryCodeOut(services.arcane_code_unassign(guild=_guild(request), code_id=pk)).data
    )


# --- Guesthouse and pantheon --------------------------------------------------------------------


@extend_schema(tags=TAGS, methods=["GET"], responses={200: GuestOut(many=True), **ERRORS})
@extend_schema(tags=TAGS, methods=["POST"], request=CardIdIn, responses={201: GuestOut, **ERRORS})
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def guests(request):
    """The Guesthouse. POST enlists a follower permanently (5.1.2)."""
    current = _guild(request)
    if request.method == "POST":
        guest = services.follower_enlist(
            guild=current, card_id=_valid(CardIdIn, request)["card_id"]
        )
        return Response(GuestOut(guest).data, status=status.HTTP_201_CREATED)
    return Response(GuestOut(current.guests.select_related("card"), many=True).data)


@extend_schema(tags=TAGS, request=None, responses={204: None, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def guest_dismiss(request, pk: int):
    """Send a permanently enlisted follower away (no refund)."""
    services.follower_dismiss(guild=_guild(request), guest_id=pk)
    return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=TAGS, methods=["GET"], responses={200: PantheonOut(many=True), **ERRORS})
@extend_schema(
    tags=TAGS, methods=["POST"], request=CardIdIn, responses={201: PantheonOut, **ERRORS}
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def pantheon(request):
    """The daemonic pantheon, by kabbalah and level. POST adds a daemon (5.1.3)."""
    current = _guild(request)
    if request.method == "POST":
        entry = services.daemon_add(guild=current, card_id=_valid(CardIdIn, request)["card_id"])
        return Response(PantheonOut(entry).data, status=status.HTTP_201_CREATED)
    return Response(PantheonOut(current.pantheon.select_related("card__kabbalah"), many=True).data)


@extend_schema(tags=TAGS, request=None, responses={204: None, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def pantheon_remove(request, pk: int):
    """Take a daemon out of the pantheon."""
    services.daemon_remove(guild=_guild(request), entry_id=pk)
    return Response(status=status.HTTP_204_NO_CONTENT)


# --- Buildings, ledger, roster ------------------------------------------------------------------


@extend_schema(tags=TAGS, request=None, responses={200: BuildingOut, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def building_upgrade(request, kind: str):
    """Raise a building one level for its cost in feods (and blood stones) (6.2 item 4)."""
    return Response(BuildingOut(services.building_upgrade(guild=_guild(request), kind=kind)).data)


@extend_schema(tags=TAGS, responses={200: LedgerOut(many=True), **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def ledger(request):
    """Every change of fame, feods and blood stones, newest first (last 500)."""
    return Response(LedgerOut(_guild(request).ledger.all()[:500], many=True).data)


@extend_schema(
    tags=TAGS, responses={200: OpenApiResponse(description="guild_snapshot()"), **ERRORS}
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def roster(request):
    """The Guild box roster (5.8, 6.3): every mercenary with factors, weapons (top first),
    codes and mission readiness; guesthouse and pantheon."""
    return Response(queries.guild_snapshot(_guild(request)))
