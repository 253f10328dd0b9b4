"""The error answers of the JSON APIs in their OpenAPI schema: which codes each endpoint may
answer, by HTTP status (the catalogue fixes one status per code: ``tabletop.error_codes``).
Shared by the kit's API and the APIs of the other apps (``guilds.api``, ``missions.api``), which
name their codes from their own ``codes.py`` (``API_CODES``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.apps import apps
from drf_spectacular.utils import OpenApiResponse

from tabletop.error_codes import catalogue, codes_of
from tabletop.registry import all_rulesets

_STATUS_TEXT = {
    400: 'Broken rule or bad input: {"code", "detail"}',
    403: "Not yours to do",
    404: "No such table, a wrong code, or no seat of yours there (the same answer)",
    409: "Stale expected_version or reused idempotency key",
}


#: DRF's own codes (``exception_handler`` keeps them): malformed JSON, a field that does not
#: validate, no login, a wrong method or body type. Every endpoint lists the first two.
DRF_CODES = {
    "parse_error": 400,
    "invalid": 400,
    "not_authenticated": 403,
    "permission_denied": 403,
    "method_not_allowed": 405,
    "unsupported_media_type": 415,
}


def code_status(code: str) -> int:
    """The HTTP status of ``code``: the catalogue's class, or DRF's for ``DRF_CODES``."""
    return DRF_CODES[code] if code in DRF_CODES else catalogue()[code][0].status


def error_responses(
    *codes: str,
    more: str = "",
    games: Mapping[str, Iterable[str]] | None = None,
    texts: Mapping[int, str] | None = None,
) -> dict[int, OpenApiResponse]:
    """The error answers of an endpoint for its OpenAPI schema: for each status, the codes it
    can return (``code_status``: the catalogue fixes one status per code) with DRF's
    ``parse_error`` and ``invalid``, plus 429 ``throttled``. ``more``: a sentence added to the
    400 answer. ``games``: ``{game title: codes}`` the table's game may answer besides
    ``codes`` (``game_codes``), listed per status with the game named. ``texts``: the
    description of a status, instead of the table kit's (``_STATUS_TEXT``)."""
    codes = (*codes, "parse_error", "invalid")
    by_status: dict[int, set[str]] = {}
    for code in codes:
        by_status.setdefault(code_status(code), set()).add(code)
    per_game: dict[int, dict[str, list[str]]] = {}
    for title, game in (games or {}).items():
        for code in sorted(set(game) - set(codes)):
            per_game.setdefault(code_status(code), {}).setdefault(title, []).append(code)
    wording = {**_STATUS_TEXT, **(texts or {})}
    out = {}
    for status_code in sorted(set(by_status) | set(per_game) | {400, 404}):
        listed = ", ".join(f"`{c}`" for c in sorted(by_status.get(status_code, [])))
        text = wording.get(status_code, "Error")
        extra = f" {more}" if more and status_code == 400 else ""
        for title, game_listed in sorted(per_game.get(status_code, {}).items()):
            extra += f"; {title} also: " + ", ".join(f"`{c}`" for c in game_listed)
        out[status_code] = OpenApiResponse(
            description=f"{text}. Codes: {listed or 'none'}{extra}"
        )
    out[429] = OpenApiResponse(description='Too many tries: {"code": "throttled", "detail", "wait"}')
    return out


#: Every kit code a table endpoint may answer (the generic set for endpoints of other apps).
KIT_CODES = (
    "bad_command", "too_large", "bad_idempotency_key", "not_started", "game_over",
    "unknown_command", "nothing_happened", "nothing_to_undo", "nothing_to_redo",
    "already_started", "not_enough_players", "host_only", "not_your_action", "not_seated",
    "stale_version", "idempotency_key_reused", "not_found",
)


def game_codes() -> dict[str, frozenset[str]]:
    """``{game title: codes}`` a table command of each registered game may answer besides the
    kit's: the ``COMMAND_CODES`` its app declares in its ``codes.py`` (the app the ruleset's
    module belongs to: the refusals of its rules and of the content it gathers, and for DemLoc
    those of the Guild hold that ``command_applied`` runs in the command's transaction)."""
    out = {}
    for ruleset in all_rulesets():
        config = apps.get_containing_app_config(type(ruleset).__module__)
        module = codes_of(config) if config is not None else None
        out[ruleset.title] = frozenset(getattr(module, "COMMAND_CODES", ()))
    return out
