"""Who sits where: signed seat tokens for guests and the lookup of a phone's seat.

A guest's seat token is ``django.core.signing`` of ``{"s": seat_id, "n": nonce}`` (salted);
it travels in the cookie ``seat_<table id>`` (a year long, so a phone that lost its Django
session still finds its seat when the join link is opened again), in the ``X-Seat-Token``
header for the API, or in a rejoin link (``/rejoin/<token>/``) shown as a QR code on the
seat's own phone. Resetting the seat's nonce revokes every token.
"""

from __future__ import annotations

from django.core import signing

from tabletop.models import Seat, Table

SALT = "tabletop.seat"
COOKIE_AGE = 365 * 24 * 3600


def cookie_name(table_id: int) -> str:
    return f"seat_{table_id}"


def seat_token(seat: Seat) -> str:
    """A signed token that proves the holder may act for ``seat``."""
    return signing.dumps({"s": seat.pk, "n": seat.nonce}, salt=SALT, compress=True)


def seat_from_token(token: str | None, table_id: int | None = None) -> Seat | None:
    """The seat a token stands for, or None if it is forged, revoked or for another table."""
    if not token:
        return None
    try:
        data = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    seat = (
        Seat.objects.filter(pk=data.get("s"), nonce=data.get("n")).select_related("table").first()
    )
    if seat is None or (table_id is not None and seat.table_id != table_id):
        return None
    return seat


def find_seat(table: Table, user, cookies: dict, header_token: str | None = None) -> Seat | None:
    """The seat of the caller at ``table``: the logged-in user's, else a valid token's."""
    if header_token:
        return seat_from_token(header_token, table.pk)
    if user is not None and getattr(user, "is_authenticated", False):
        seat = table.seats.filter(user=user).first()
        if seat is not None:
            return seat
    return seat_from_token(cookies.get(cookie_name(table.pk)), table.pk)
