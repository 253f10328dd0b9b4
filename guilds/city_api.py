"""JSON API of the map of DemLoc (docs/architecture.md "Interfaces and errors"), mounted with the Guild API at
``/api/guild/city...``. Same services as the page (docs/architecture.md "Guilds and timers"); everything starts from the
user's Guild, so another Guild's expedition or event answers 404. Unknown points are listed
without name, kind or income (the Guild has not explored them)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from tabletop.errors import NotFound

from . import services
from .api import ERRORS, _guild, _valid
from .city_views import map_context
from .ids import IdField

TAGS = ["city"]


class CityPartyIn(serializers.Serializer):
    point_id = IdField()
    mercenary_ids = serializers.ListField(child=IdField(), max_length=10)


class CityPreviewOut(serializers.Serializer):
    action = serializers.ChoiceField(choices=["explore", "acquire"])
    minutes = serializers.IntegerField(help_text="Until the party is back.")
    chance = serializers.IntegerField(help_text="Percent of success; 100 for an exploration.")
    holder = serializers.CharField(allow_null=True, help_text="Guild holding the point now.")


class CityExpeditionOut(serializers.Serializer):
    id = serializers.IntegerField()
    point_id = serializers.IntegerField()
    point = serializers.SerializerMethodField()
    action = serializers.CharField()
    mercenary_ids = serializers.SerializerMethodField()
    chance = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    due_at = serializers.DateTimeField()
    settled_at = serializers.DateTimeField(allow_null=True)
    outcome = serializers.CharField(help_text='"" while under way.')
    report = serializers.CharField()

    def get_point(self, obj) -> str | None:
        return obj.point.name if obj.action == "acquire" or obj.settled_at else None

    def get_mercenary_ids(self, obj) -> list[int]:
        return sorted(m.pk for m in obj.mercenaries.all())


class CityOptionOut(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    is_default = serializers.BooleanField()


class CityEventOut(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    text = serializers.CharField()
    posted_at = serializers.DateTimeField()
    due_at = serializers.DateTimeField(help_text="Answer before; then the default applies.")
    settled_at = serializers.DateTimeField(allow_null=True)
    options = serializers.SerializerMethodField()
    outcome = serializers.CharField()

    def get_options(self, obj) -> list[dict]:
        return CityOptionOut(obj.event.options.all(), many=True).data


class CityAnswerIn(serializers.Serializer):
    option_id = IdField()


class CityNewsOut(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    headline = serializers.CharField()
    body = serializers.CharField()
    reference = serializers.CharField()
    seen = serializers.SerializerMethodField()

    def get_seen(self, obj) -> bool:
        return obj.seen_at is not None


class CityPointOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)
    kind = serializers.CharField(allow_null=True)
    state = serializers.ChoiceField(choices=["unknown", "known", "held"])
    holder = serializers.CharField(allow_null=True, help_text="Guild name, or null when free.")
    income = serializers.DictField(allow_null=True)
    bonuses = serializers.ListField(child=serializers.CharField())
    party = serializers.IntegerField(allow_null=True, help_text="Expedition under way.")


class CityAreaOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    points = CityPointOut(many=True)


class CityOut(serializers.Serializer):
    server_now = serializers.DateTimeField()
    areas = CityAreaOut(many=True)
    expeditions = CityExpeditionOut(many=True)
    events = CityEventOut(many=True)
    digest = CityNewsOut(many=True)


def _point(row: dict) -> dict:
    p, state = row["point"], row["state"]
    hidden = state == "unknown"
    return {
        "id": p.pk,
        "name": None if hidden else p.name,
        "kind": None if hidden else p.kind,
        "state": state,
        "holder": p.holder.name if p.holder and not hidden else None,
        "income": None
        if hidden
        else {
            "fame": p.income_fame,
            "feods": p.income_feods,
            "blood_stones": p.income_blood_stones,
            "period_minutes": p.income_period_minutes,
        },
        "bonuses": [] if hidden else [str(b) for b in p.bonuses.all()],
        "party": row["party"].pk if row["party"] else None,
    }


@extend_schema(tags=TAGS, responses={200: CityOut, **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def city(request):
    """The map as your Guild sees it, parties under way, events to answer, unread news (6.2).
    Overdue timers of your Guild are settled first."""
    guild = _guild(request)
    services.city_overdue_settle(guild=guild)
    ctx = map_context(guild)
    return Response(
        {
            "server_now": ctx["server_now"],
            "areas": [
                {"id": a.pk, "name": a.name, "points": [_point(r) for r in rows]}
                for a, rows in ctx["areas"]
            ],
            "expeditions": CityExpeditionOut(ctx["parties"], many=True).data,
            "events": CityEventOut(ctx["events"], many=True).data,
            "digest": CityNewsOut(ctx["digest"], many=True).data,
        }
    )


@extend_schema(tags=TAGS, request=CityPartyIn, responses={200: CityPreviewOut, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def preview(request):
    """Duration and chance of sending these mercenaries to that point now (writes nothing)."""
    data = _valid(CityPartyIn, request)
    plan = services.expedition_preview(
        guild=_guild(request), point_id=data["point_id"], mercenary_ids=data["mercenary_ids"]
    )
    return Response(CityPreviewOut(plan).data)


@extend_schema(tags=TAGS, methods=["GET"], responses={200: CityExpeditionOut(many=True), **ERRORS})
@extend_schema(
    tags=TAGS, methods=["POST"], request=CityPartyIn, responses={201: CityExpeditionOut, **ERRORS}
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def expeditions(request):
    """Your expeditions, newest first (last 100). POST sends a party: Explore an unknown point,
    Acquire a known one (6.2)."""
    guild = _guild(request)
    if request.method == "POST":
        data = _valid(CityPartyIn, request)
        exp = services.expedition_start(
            guild=guild, point_id=data["point_id"], mercenary_ids=data["mercenary_ids"]
        )
        return Response(CityExpeditionOut(exp).data, status=status.HTTP_201_CREATED)
    rows = guild.expeditions.select_related("point").prefetch_related("mercenaries")[:100]
    return Response(CityExpeditionOut(rows, many=True).data)


@extend_schema(tags=TAGS, responses={200: CityExpeditionOut, **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def expedition(request, pk: int):
    """One expedition; if its deadline has passed it is settled first (idempotent), so a client
    whose countdown ended gets the result."""
    guild = _guild(request)
    if not guild.expeditions.filter(pk=pk).exists():
        raise NotFound("expedition_not_found", "No such expedition of your Guild.")
    exp = services.expedition_settle(expedition_id=pk, only_if_due=True)
    return Response(CityExpeditionOut(exp).data)


@extend_schema(tags=TAGS, request=CityAnswerIn, responses={200: CityEventOut, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def event_answer(request, pk: int):
    """Answer a city event with one of its options before its deadline (6.2 "Random events")."""
    event = services.city_event_answer(
        guild=_guild(request), event_id=pk, option_id=_valid(CityAnswerIn, request)["option_id"]
    )
    return Response(CityEventOut(event).data)


@extend_schema(tags=TAGS, responses={200: CityNewsOut(many=True), **ERRORS})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def news(request):
    """The city digest, newest first (last 100)."""
    return Response(CityNewsOut(_guild(request).city_news.all()[:100], many=True).data)


@extend_schema(tags=TAGS, request=None, responses={204: None, **ERRORS})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def news_seen(request):
    """Mark the digest and returned expeditions as read."""
    services.city_news_seen(guild=_guild(request))
    return Response(status=status.HTTP_204_NO_CONTENT)
