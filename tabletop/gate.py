"""The table gate (docs/architecture.md: "a table's code is its gate"): every public address of a table
goes through its join code, found here and only here; a wrong or absent code is the same
``NotFound("not_found")`` as a table that does not exist.

Guesses are throttled with DRF's throttling (``CodeGuessThrottle``): every lookup of a code that
matches no table counts against the caller's address, and past ``TABLETOP_CODE_GUESS_RATE``
(default 30 a minute) every lookup by code answers ``Throttled`` ("try again in N s") until the
oldest miss leaves the window. Right codes cost nothing, so a table of phones is never slowed.
"""

from __future__ import annotations

import math
import re
from urllib.parse import urlsplit

from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http import JsonResponse
from django.http.request import split_domain_port, validate_host
from django.shortcuts import render
from django.utils import timezone
from rest_framework.throttling import SimpleRateThrottle

from tabletop.errors import NotFound, Throttled
from tabletop.models import Seat, Table
from tabletop.seats import seat_from_token

# New codes are CODE_LENGTH letters of CODE_ALPHABET; older ones may be any 4-12 capitals/digits.
_CODE = re.compile("[A-Z0-9]{4,12}")


def normalize_code(code) -> str | None:
    """A join code as typed or scanned ("acd-efg", " ACDEFG ") in canonical form, or None when
    it cannot be one (wrong length or letters, not a string). Never raises."""
    if not isinstance(code, str) or len(code) > 32:
        return None
    text = code.upper().replace("-", "").replace(" ", "").strip()
    return text if text.isascii() and _CODE.fullmatch(text) else None


class CodeGuessThrottle(SimpleRateThrottle):
    """Misses of table codes per client address (DRF's ``SimpleRateThrottle`` over the cache):
    ``peek`` says whether the caller is over the rate, ``miss`` records one wrong code."""

    scope = "code_guess"

    def get_rate(self):
        return getattr(settings, "TABLETOP_CODE_GUESS_RATE", "30/min")

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def _load(self, request) -> None:
        self.key = self.get_cache_key(request, None)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()

    def peek(self, request) -> None:
        """Raise ``Throttled`` when the caller already missed too often."""
        self._load(request)
        if len(self.history) >= self.num_requests:
            raise Throttled(
                "throttled", f"Too many wrong table codes from here: try again in {int(self.wait() or 1) + 1} s.", wait=int(self.wait() or 1) + 1
            )

    def miss(self, request) -> None:
        """Count one wrong code for the caller."""
        self._load(request)
        self.history.insert(0, self.now)
        self.cache.set(self.key, self.history, self.duration)


class SeatJoinThrottle(SimpleRateThrottle):
    """Seats taken (page or API) per client address: ``TABLETOP_SEAT_JOIN_RATE`` (default
    20 a minute: a game night's phones behind one router fit easily)."""

    scope = "seat_join"

    def get_rate(self):
        return getattr(settings, "TABLETOP_SEAT_JOIN_RATE", "20/min")

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TableCreateThrottle(SeatJoinThrottle):
    """Tables opened per client address: ``TABLETOP_TABLE_CREATE_RATE`` (default 20/min)."""

    scope = "table_create"

    def get_rate(self):
        return getattr(settings, "TABLETOP_TABLE_CREATE_RATE", "20/min")


def throttle(request, throttle_class) -> None:
    """Count one try of ``request`` against ``throttle_class`` (a DRF ``SimpleRateThrottle``);
    raise ``Throttled`` with the wait when it is over the rate."""
    limiter = throttle_class()
    if not limiter.allow_request(request, None):
        wait = int(limiter.wait() or 1) + 1
        raise Throttled("throttled", f"Too many tries from here: try again in {wait} s.", wait=wait)


class _Scope:
    """What DRF's ``get_ident`` reads: ``META`` (REMOTE_ADDR) and ``headers``."""

    def __init__(self, meta: dict, headers: dict) -> None:
        self.META = meta
        self.headers = headers


def scope_request(scope: dict) -> _Scope:
    """A websocket scope as far as the throttle needs it (the client's address)."""
    client = scope.get("client") or ("", 0)
    headers = dict(scope.get("headers") or [])
    meta = {"REMOTE_ADDR": client[0] or ""}
    named = {}
    forwarded = headers.get(b"x-forwarded-for")
    if forwarded:
        meta["HTTP_X_FORWARDED_FOR"] = named["x-forwarded-for"] = forwarded.decode("latin-1")
    return _Scope(meta, named)


def table_by_code(code, request=None) -> Table:
    """The table whose join code is ``code`` (any case, dashes or spaces allowed).

    ``request`` (an ``HttpRequest`` or ``scope_request``) is throttled: too many misses from its
    address raise ``Throttled``. Raises ``NotFound("not_found")`` for a code that names no table
    (counted as a miss)."""
    throttle = CodeGuessThrottle() if request is not None else None
    if throttle is not None:
        throttle.peek(request)
    clean = normalize_code(code)
    table = Table.objects.filter(code=clean).first() if clean else None
    if table is None:
        if throttle is not None:
            throttle.miss(request)
        raise NotFound("not_found", "No such table: check the code.")
    return table


def seat_by_token(code, token: str | None) -> Seat | None:
    """The seat a valid ``X-Seat-Token`` stands for, with its table loaded, when that table's
    code is ``code``; else None (no token, forged, revoked, expired, another table's code).

    A signed token cannot be guessed, so this path skips the code-guess throttle and the
    separate lookup by code: one query for the seat and its table (the command path).
    Callers fall back to ``table_by_code`` when it answers None, so a wrong code still answers
    ``not_found`` and a table without the caller's seat ``not_seated``."""
    clean = normalize_code(code)
    if not clean or not token:
        return None
    seat = seat_from_token(token)
    return seat if seat is not None and seat.table.code == clean else None


def websocket_origin_ok(scope: dict) -> bool:
    """True when a websocket's ``Origin`` is this site itself: the same scheme (``wss`` <->
    ``https``, or ``https`` as told by a trusted proxy through ``SECURE_PROXY_SSL_HEADER``),
    the same host (one of ``ALLOWED_HOSTS``) and the same port as the ``Host`` it was sent to,
    or one of ``CSRF_TRUSTED_ORIGINS``. A missing Origin is refused: browsers always send it."""
    headers = {k.lower(): v for k, v in scope.get("headers") or []}
    origin = headers.get(b"origin", b"").decode("latin-1").strip()
    host = headers.get(b"host", b"").decode("latin-1").strip().lower()
    if not origin or not host:
        return False
    if origin in getattr(settings, "CSRF_TRUSTED_ORIGINS", []):
        return True
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    secure = scope.get("scheme") == "wss"
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not secure and proxy:
        name = proxy[0].removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
        secure = headers.get(name, b"").decode("latin-1").strip() == proxy[1]
    scheme = "https" if secure else "http"
    try:
        parts = urlsplit(origin)
        origin_port = parts.port
    except ValueError:
        return False
    if parts.scheme != scheme or not parts.hostname or parts.path not in ("", "/"):
        return False
    default = 443 if scheme == "https" else 80
    _, host_port = split_domain_port(host)
    want = int(host_port) if host_port.isascii() and host_port.isdigit() else default
    return parts.hostname == domain and (origin_port or default) == want


class SameOriginWebsocket:
    """ASGI middleware: closes (HTTP 403 at the handshake) a websocket whose Origin is not this
    site's own scheme, host and port (``websocket_origin_ok``), before any seat is looked up."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not websocket_origin_ok(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)


def login_locked_out(request, response, credentials):
    """django-axes' lockout answer (``AXES_LOCKOUT_CALLABLE``): 429 with "try again in N s"
    (the seconds left of this username's cool-off at this address), JSON for JSON callers."""
    username = (credentials or {}).get("username") or request.POST.get("username")
    attempt = AccessAttempt.objects.filter(username=username).order_by("-attempt_time").first()
    wait = 60
    if attempt is not None:
        expiration = getattr(attempt, "expiration", None)
        until = getattr(expiration, "expires_at", None) if expiration is not None else None
        cool_off = get_cool_off(request)
        if until is None and cool_off:
            until = attempt.attempt_time + cool_off
        if until is not None:
            wait = max(1, math.ceil((until - timezone.now()).total_seconds()))
    error = Throttled("login_locked", f"Too many failed logins: try again in {wait} s.", wait=wait)
    if "application/json" in request.headers.get("Accept", ""):
        answer = JsonResponse(error.as_dict(), status=429)
    else:
        answer = render(request, "frontend/error.html", {"error": error}, status=429)
    answer["Retry-After"] = str(wait)
    return answer
