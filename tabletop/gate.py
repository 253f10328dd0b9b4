"""The table gate (docs/architecture.md "The event-sourced table": a table's code is its gate): every public address of
a table goes through its join code, found here and only here; a wrong or absent code is the
same ``NotFound("not_found")`` as a table that does not exist.

Misses are throttled, not hits (DRF's throttling, ``CodeGuessThrottle``): every lookup of a code
that matches no table counts against the caller's address, and past
``TABLETOP_CODE_GUESS_RATE`` (default 30 a minute) a miss answers ``Throttled`` ("try again in
N s") until the oldest miss leaves the window. The right code is never slowed for the phones
already at that table: a lookup that carries a seat of the table (seat cookie, token or
account) always passes, and so does a code already opened from this address while someone
there was guessing (a watcher at the same router). Only a right code *new* to a guessing
address waits, or the throttle would stop no guesser (who simply keeps guessing until a hit).

The counts live in the shared cache (Redis) when it answers; when it does not (down, hung),
the throttles count in the process instead (``FailOpenCache``): no lookup that PostgreSQL can
answer waits for Redis or fails because of it.

Every throttle and login lock counts ``client_address``: the address the server itself
resolved (uvicorn believes ``X-Forwarded-For`` only from ``--forwarded-allow-ips``, the
configured proxy; bin/run passes it with ``BEHIND_PROXY=1`` only), never a header a client
may write.
"""

from __future__ import annotations

import logging
import math
import re
import time
from urllib.parse import urlsplit

from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.core.cache.backends.locmem import LocMemCache
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.http.request import split_domain_port, validate_host
from django.shortcuts import render
from django.utils import timezone
from rest_framework.throttling import SimpleRateThrottle

from tabletop.errors import NotFound, Throttled
from tabletop.models import Seat, Table
from tabletop.process_cache import process_cache
from tabletop.seats import cookie_entries, find_seat, seat_from_token, seat_usable, seats_at_code

log = logging.getLogger(__name__)

# New codes are CODE_LENGTH letters of CODE_ALPHABET; older ones may be any 4-12 capitals/digits.
_CODE = re.compile("[A-Z0-9]{4,12}")


def normalize_code(code) -> str | None:
    """A join code as typed or scanned ("acd-efg", " ACDEFG ") in canonical form, or None when
    it cannot be one (wrong length or letters, not a string). Never raises."""
    if not isinstance(code, str) or len(code) > 32:
        return None
    text = code.upper().replace("-", "").replace(" ", "").strip()
    return text if text.isascii() and _CODE.fullmatch(text) else None


def client_address(request, *_args) -> str:
    """The caller's address as the server itself resolved it: ``REMOTE_ADDR`` (an
    ``HttpRequest``, DRF's ``Request`` or ``scope_request``), which uvicorn sets from
    ``X-Forwarded-For`` only when the peer is one of its ``--forwarded-allow-ips`` (the proxy
    of ``BEHIND_PROXY=1``). The one rule of every throttle, django-axes
    (``AXES_CLIENT_IP_CALLABLE``) and the websocket gate. ``""`` when unknown."""
    meta = getattr(request, "META", None) or {}
    return str(meta.get("REMOTE_ADDR") or "")


class FailOpenCache:
    """The throttles' cache: the shared one (Redis) while it answers; when a call fails (down,
    hung past its 1 s timeout) the counts go to this process's own memory (Django's LocMemCache)
    for ``RETRY_SECONDS`` before the shared cache is tried again, so a Redis outage costs at
    most one slow call per process every few seconds and never an error. Only ``get`` and
    ``set`` (what DRF's ``SimpleRateThrottle`` calls)."""

    RETRY_SECONDS = 5.0

    def __init__(self) -> None:
        self.local = LocMemCache("tabletop-gate", {"OPTIONS": {"MAX_ENTRIES": 10000}})
        self.down_until = 0.0

    def _shared(self):
        # One cache object for the process, not the one Django keeps per asyncio context (a
        # Redis connection per phone's socket: tabletop.process_cache).
        return process_cache() if time.monotonic() >= self.down_until else None

    def _failed(self, exc: Exception) -> None:
        self.down_until = time.monotonic() + self.RETRY_SECONDS
        log.warning("The throttles count in this process: the cache failed (%s).", type(exc).__name__)

    def get(self, key, default=None):
        cache = self._shared()
        if cache is not None:
            try:
                return cache.get(key, default)
            except Exception as exc:  # redis-py's ConnectionError, TimeoutError, ...
                self._failed(exc)
        return self.local.get(key, default)

    def set(self, key, value, timeout=None) -> None:
        cache = self._shared()
        if cache is not None:
            try:
                cache.set(key, value, timeout)
                return
            except Exception as exc:
                self._failed(exc)
        self.local.set(key, value, timeout)


#: One per process, shared by every throttle of the gate.
GATE_CACHE = FailOpenCache()


class GateThrottle(SimpleRateThrottle):
    """DRF's ``SimpleRateThrottle`` keyed by ``client_address`` over ``GATE_CACHE``."""

    cache = GATE_CACHE
    rate_setting = ""
    default_rate = "20/min"

    def get_rate(self):
        return getattr(settings, self.rate_setting, self.default_rate)

    def get_ident(self, request):
        return client_address(request)

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    # Counting only failures (a miss, a wrong password): ``over`` before, ``record`` after.

    def _load(self, request) -> None:
        self.key = self.get_cache_key(request, None)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()

    def over(self, request) -> bool:
        """True when the caller's failures in the window reached the rate (loads them)."""
        self._load(request)
        return len(self.history) >= self.num_requests

    def record(self, request) -> None:
        """Count one failure for the caller."""
        if not hasattr(self, "history"):
            self._load(request)
        self.history.insert(0, self.now)
        self.cache.set(self.key, self.history, self.duration)

    message = "Too many tries from here: try again in {wait} s."

    def refusal(self) -> Throttled:
        """The ``Throttled`` error with the seconds until the oldest failure leaves."""
        wait = int(self.wait() or 1) + 1
        return Throttled("throttled", self.message.format(wait=wait), wait=wait)


class CodeGuessThrottle(GateThrottle):
    """Misses of table codes per client address: ``over`` says whether the caller already
    missed too often, ``miss`` records one wrong code, ``known``/``remember`` the codes found
    from this address while it was guessing."""

    scope = "code_guess"
    rate_setting = "TABLETOP_CODE_GUESS_RATE"
    default_rate = "30/min"
    message = "Too many wrong table codes from here: try again in {wait} s."

    def miss(self, request) -> None:
        """Count one wrong code for the caller (after ``over`` loaded the history)."""
        self.record(request)

    def _known_key(self, request, code: str) -> str:
        return f"{self.key}:known:{code}"

    def known(self, request, code: str) -> bool:
        return bool(self.cache.get(self._known_key(request, code)))

    def remember(self, request, code: str) -> None:
        """Mark ``code`` as opened from this address (kept six hours): it keeps passing when
        the address goes over the rate (a watcher beside a guesser)."""
        self.cache.set(self._known_key(request, code), 1, 6 * 3600)


class SeatJoinThrottle(GateThrottle):
    """Seats taken (page or API) per client address: ``TABLETOP_SEAT_JOIN_RATE`` (default
    20 a minute: a game night's phones behind one router fit easily)."""

    scope = "seat_join"
    rate_setting = "TABLETOP_SEAT_JOIN_RATE"


class TableCreateThrottle(GateThrottle):
    """Tables opened per client address: ``TABLETOP_TABLE_CREATE_RATE`` (default 20/min)."""

    scope = "table_create"
    rate_setting = "TABLETOP_TABLE_CREATE_RATE"


class SignUpThrottle(GateThrottle):
    """Accounts made per client address: ``ACCOUNTS_SIGNUP_RATE`` (default 10 an hour)."""

    scope = "sign_up"
    rate_setting = "ACCOUNTS_SIGNUP_RATE"
    default_rate = "10/hour"


class LoginFailureThrottle(GateThrottle):
    """Failed logins per client address whatever the names tried:
    ``ACCOUNTS_LOGIN_FAILURE_RATE`` (default 30 an hour; django-axes locks one name at one
    address after 5)."""

    scope = "login_failure"
    rate_setting = "ACCOUNTS_LOGIN_FAILURE_RATE"
    default_rate = "30/hour"
    message = "Too many failed logins from here: try again in {wait} s."


def throttle(request, throttle_class) -> None:
    """Count one try of ``request`` against ``throttle_class`` (a DRF ``SimpleRateThrottle``);
    raise ``Throttled`` with the wait when it is over the rate."""
    limiter = throttle_class()
    if not limiter.allow_request(request, None):
        wait = int(limiter.wait() or 1) + 1
        raise Throttled("throttled", f"Too many tries from here: try again in {wait} s.", wait=wait)


class _Scope:
    """What the gate reads of a request: ``META`` (REMOTE_ADDR), ``headers``, ``COOKIES`` and
    ``user``."""

    def __init__(self, meta: dict, headers: dict, cookies: dict, user) -> None:
        self.META = meta
        self.headers = headers
        self.COOKIES = cookies
        self.user = user


def scope_request(scope: dict) -> _Scope:
    """A websocket scope as far as the gate needs it: the client's address as the server
    resolved it (``scope["client"]``), the seat token header, the cookies and the user."""
    client = scope.get("client") or ("", 0)
    headers = dict(scope.get("headers") or [])
    named = {}
    token = headers.get(b"x-seat-token")
    if token:
        named["X-Seat-Token"] = token.decode("latin-1")
    return _Scope(
        {"REMOTE_ADDR": client[0] or ""}, named, scope.get("cookies") or {}, scope.get("user")
    )


def _seated_here(request, table: Table) -> bool:
    headers = getattr(request, "headers", None) or {}
    return (
        find_seat(
            table,
            getattr(request, "user", None),
            getattr(request, "COOKIES", None) or {},
            headers.get("X-Seat-Token") or None,
        )
        is not None
    )


def table_by_code(code, request=None) -> Table:
    """The table whose join code is ``code`` (any case, dashes or spaces allowed).

    ``request`` (an ``HttpRequest``, DRF ``Request`` or ``scope_request``) is throttled on
    misses (module docstring): raises ``Throttled`` for a miss past the rate, and for a right
    code past the rate unless the request carries a seat of that table or the code was opened
    from this address before. Raises ``NotFound("not_found")`` for a code that names no table
    (counted as a miss). Never raises for the cache (``FailOpenCache``)."""
    clean = normalize_code(code)
    table = Table.objects.filter(code=clean).first() if clean else None
    if request is None:
        if table is None:
            raise NotFound("not_found", "No such table: check the code.")
        return table
    guesses = CodeGuessThrottle()
    over = guesses.over(request)
    if table is None:
        if over:
            raise guesses.refusal()
        guesses.miss(request)
        raise NotFound("not_found", "No such table: check the code.")
    if not guesses.history:  # nobody at this address is guessing: the common case, no write
        return table
    if not over:
        guesses.remember(request, table.code)
        return table
    if guesses.known(request, table.code) or _seated_here(request, table):
        return table
    raise guesses.refusal()


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


def seat_by_cookie(code, request) -> Seat | None:
    """The seat the phone's seat cookie holds at the table whose code is ``code``, with its
    table loaded, in one query (the command path, like ``seat_by_token``); None when the
    cookie holds none there (or is forged, the seat revoked, the table long finished) and when
    the caller is signed in: then ``tabletop.seats.find_seat`` decides (a user's own seat
    comes before the cookie's). Callers fall back to ``table_by_code`` and ``find_seat``, so
    a wrong code still answers ``not_found`` and the code-guess throttle still counts it."""
    clean = normalize_code(code)
    user = getattr(request, "user", None)
    if not clean or (user is not None and user.is_authenticated):
        return None
    entries = cookie_entries(request.COOKIES)
    if not entries:
        return None
    # one prepared query; the table's JSON columns are not decoded into the model (a DemLoc
    # table's setup is its whole content): run_command decides on the row read here
    found = seats_at_code(clean, [e[0] for e in entries])
    for pk, nonce, _table_id in entries:
        seat = found.get(pk)
        if seat is not None and seat.nonce == nonce:
            return seat if seat_usable(seat) else None
    return None


def websocket_origin_ok(scope: dict) -> bool:
    """True when a websocket's ``Origin`` is this site itself: the same scheme (``wss`` <->
    ``https``; behind a proxy the scope's scheme is the one uvicorn took from
    ``X-Forwarded-Proto`` of a peer in ``--forwarded-allow-ips``, never the header itself),
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
    scheme = "https" if scope.get("scheme") == "wss" else "http"
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
    return throttled_response(request, error)


class LoginFailureGate:
    """An authentication backend, first in ``AUTHENTICATION_BACKENDS``: refuses every login
    (``PermissionDenied``: no later backend is asked) from an address over
    ``LoginFailureThrottle``'s rate, on every login form (the site's and the admin's). The
    failures are counted by ``count_login_failure`` (Django's ``user_login_failed``)."""

    def authenticate(self, request, **credentials):
        if request is not None and LoginFailureThrottle().over(request):
            raise PermissionDenied("Too many failed logins from this address.")
        return None  # (no get_user: no session is ever this backend's)


def count_login_failure(sender, credentials=None, request=None, **kwargs) -> None:
    """``user_login_failed`` receiver: one failure for the request's address."""
    if request is not None:
        LoginFailureThrottle().record(request)


def throttled_response(request, error: Throttled):
    """``error`` as a 429 with ``Retry-After``: JSON ``{"code", "detail", "wait"}`` for JSON
    callers, else the error page."""
    if "application/json" in request.headers.get("Accept", ""):
        answer = JsonResponse(error.as_dict(), status=429)
    else:
        answer = render(request, "frontend/error.html", {"error": error}, status=429)
    answer["Retry-After"] = str(error.wait)
    return answer
