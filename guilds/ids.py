"""Row ids that come in from outside (form fields, JSON bodies, URL parts), checked once.

Every id of ours is a database primary key: a whole number from 1 to ``MAX_ID`` (2**63 - 1, the
largest BIGINT of PostgreSQL and INTEGER of SQLite). A larger number would not be "no such row"
but a crash in the database driver (``OverflowError`` on SQLite, ``NumericValueOutOfRange`` on
PostgreSQL), so it must be refused before any query:

- ``parse_id(value)``: the id as ``int``, or ``None`` for anything else (services answer their
  usual ``NotFound`` then);
- ``IdField``: the DRF field for ids in JSON bodies (400 ``invalid`` out of range);
- the ``id`` URL converter (``<id:pk>``): a path part out of range does not match (404), like
  ``abc`` does for ``<int:pk>``.
"""

from __future__ import annotations

from django.urls import register_converter
from rest_framework import serializers

# Parsed in one place for the whole product: ``tabletop.ids`` (pure; rules use it too).
from tabletop.ids import MAX_ID, parse_id  # noqa: E402

__all__ = ["MAX_ID", "IdConverter", "IdField", "parse_id"]


class IdField(serializers.IntegerField):
    """An id in a JSON body: a whole number in 1..``MAX_ID`` (400 ``invalid`` otherwise)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(**kwargs)


class IdConverter:
    """``<id:name>`` in a URL: 1 to 19 digits within 1..``MAX_ID``, as ``int``."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = parse_id(value)
        if number is None:
            raise ValueError(value)  # Django: this route does not match (404)
        return number

    def to_url(self, value) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
