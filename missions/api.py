"""JSON API of the mission lifecycle (docs/architecture.md "Interfaces and errors"): the same services as the pages.
Logged-in Guild Masters (session) or a seat's ``X-Seat-Token``; errors as ``{"code",
"detail"}`` (``tabletop.api``). A mission's id is no address for strangers: everything by id
answers 404 ``not_seated`` to anyone without a seat at its table (the report by the table's
code is ``/missions/report/<code>/``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.response import Response

from guilds.ids import IdField
from tabletop.api import SEAT_TOKEN, api_seat, seat_out
from tabletop.errors import NotFound
from tabletop.openapi import KIT_CODES, error_responses

from . import report, services
from .codes import API_CODES
from .models import Mission, MissionDefinition, MissionMode

#: The answers of the mission endpoints: the kit's codes and those the mission services, the
#: report and these views raise (``missions.codes.API_CODES``; one list for the mission API).
ERRORS = error_responses(*KIT_CODES, *API_CODES)


class DefinitionOut(serializers.ModelSerializer):
    turn_limit = serializers.SerializerMethodField()

    class Meta:
        model = MissionDefinition
        fields = ["id", "name", "kind", "objective", "special_rules", "turn_limit", "slots"]

    def get_turn_limit(self, obj) -> int | None:
        """None when the mission hides its turn limit (DemLoc rulebook 7)."""
        return None if obj.turn_limit_hidden else obj.turn_limit


class OpenIn(serializers.Serializer):
    definition = IdField()
    mode = serializers.ChoiceField(choices=MissionMode.choices)
    options = serializers.DictField(required=False, default=dict)


class MissionOut(serializers.Serializer):
    mission_id = serializers.IntegerField()
    code = serializers.CharField()
    seat = serializers.IntegerField()
    seat_token = serializers.CharField()


class ResultOut(serializers.Serializer):
    mode = serializers.CharField()
    applies = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True)
    winner_name = serializers.CharField(allow_null=True)
    how = serializers.CharField()
    guilds = serializers.ListField(child=serializers.DictField())
    characters = serializers.ListField(child=serializers.DictField())
    control_point = serializers.DictField()


class ReportOut(serializers.Serializer):
    mission = serializers.CharField()
    mode = serializers.CharField()
    code = serializers.CharField()
    closed = serializers.CharField(allow_null=True)
    players = serializers.ListField(child=serializers.DictField())
    timeline = serializers.ListField(child=serializers.DictField())
    result = serializers.DictField(allow_null=True)


@extend_schema(responses={200: DefinitionOut(many=True)})
@api_view(["GET"])
def definitions(request):
    """The missions offered in the lobby (6.4.1 objective revealing phase)."""
    rows = MissionDefinition.objects.filter(is_active=True)
    return Response(DefinitionOut(rows, many=True).data)


@extend_schema(request=OpenIn, responses={201: MissionOut, **ERRORS})
@api_view(["POST"])
def mission_open(request):
    """Open a mission table; the caller (a Guild Master) takes seat 0 (6.4)."""
    body = OpenIn(data=request.data)
    body.is_valid(raise_exception=True)
    mission, seat = services.mission_open(
        host=request.user,
        definition_id=body.validated_data["definition"],
        mode=body.validated_data["mode"],
        options=body.validated_data["options"],
    )
    return Response({"mission_id": mission.pk, **seat_out(seat)}, status=status.HTTP_201_CREATED)


def _seated_mission(request, mission_id: int, queryset=None):
    """The mission and the caller's seat at its table; ``NotFound`` (404) for a mission that
    does not exist or has no seat of the caller's."""
    mission = (queryset or Mission.objects).select_related("table").filter(pk=mission_id).first()
    seat = api_seat(request, mission.table) if mission is not None else None
    if seat is None:
        raise NotFound("not_seated", "No such mission, or no seat of yours at its table.")
    return mission, seat


@extend_schema(request=None, responses={204: None, **ERRORS}, parameters=[SEAT_TOKEN])
@api_view(["POST"])
def mission_bind(request, mission_id: int):
    """Bring the caller's Guild to the mission (its seat is found by the session)."""
    mission, seat = _seated_mission(request, mission_id)
    services.mission_guild_bind(table=mission.table, seat=seat, user=request.user)
    return Response(status=status.HTTP_204_NO_CONTENT)


class LeaveOut(serializers.Serializer):
    left = serializers.ChoiceField(choices=["preparation", "play"])
    closed = serializers.BooleanField()


@extend_schema(request=None, responses={200: LeaveOut, **ERRORS}, parameters=[SEAT_TOKEN])
@api_view(["POST"])
def mission_leave(request, mission_id: int):
    """Take the caller's Guild out of the mission (6.4 "disconnecting"; the rule:
    ``missions.rules.leave``): in the preparation it is unbound; in play its characters
    escape, and a mission that ends so is closed at once."""
    mission, seat = _seated_mission(request, mission_id)
    return Response(
        services.mission_guild_leave(table=mission.table, seat=seat, user=request.user)
    )


@extend_schema(request=None, responses={200: ResultOut, **ERRORS}, parameters=[SEAT_TOKEN])
@api_view(["POST"])
def mission_close(request, mission_id: int):
    """Close the ended mission: its result goes into the guilds, exactly once (6.4.1)."""
    mission, _seat = _seated_mission(request, mission_id)
    return Response(services.mission_close(mission_id=mission.pk))


@extend_schema(request=OpenIn, responses={201: MissionOut, **ERRORS})
@api_view(["POST"])
def mission_continue(request, mission_id: int):
    """Another mission with the same players (6.4.1); every Guild is brought at once."""
    _seated_mission(request, mission_id)
    body = OpenIn(data=request.data)
    body.is_valid(raise_exception=True)
    new = services.mission_continue(
        mission_id=mission_id,
        user=request.user,
        definition_id=body.validated_data["definition"],
        mode=body.validated_data["mode"],
    )
    seat = new.table.seats.get(user=request.user)
    return Response({"mission_id": new.pk, **seat_out(seat)}, status=status.HTTP_201_CREATED)


@extend_schema(responses={200: ReportOut, **ERRORS}, parameters=[SEAT_TOKEN])
@api_view(["GET"])
def mission_report(request, mission_id: int):
    """The battle report: timeline and result, for the table's players (anyone else shares
    it by the table's code: ``/missions/report/<code>.json``)."""
    mission, _seat = _seated_mission(
        request, mission_id, Mission.objects.select_related("definition")
    )
    return Response(report.battle_report(mission))
