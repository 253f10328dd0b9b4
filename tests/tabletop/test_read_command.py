"""One parser of a command's body (``tabletop.api.read_command``): both command views read a
body with it, and it takes and refuses exactly what DRF's ``CommandIn`` serializer does, with
the same messages (docs/architecture.md "Interfaces and errors")."""

from __future__ import annotations

import pytest
from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from tabletop.api import CommandIn, read_command
from tabletop.errors import RuleViolation

texts = st.one_of(
    st.text(max_size=90),
    st.sampled_from(["counter.add", " counter.add ", "", "  ", "a\x00b", "\ud800", "x" * 80,
                     "x" * 81, " " + "x" * 80, "k\n", "é\u2003", "٣"]),
)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False), texts,
)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=6,
)
field_values = st.one_of(values, st.sampled_from(["2", "2.0", " 3 ", "-1", "1e3", 2.0, 2.5, -0.0]))
bodies = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={"type": field_values, "data": field_values, "expected_version": field_values,
                  "idempotency_key": field_values, "other": values},
    ),
    values,
)


def _outcome(read, body):
    try:
        return "ok", dict(read(body))
    except ValidationError as exc:
        return "invalid", exc.get_full_details()
    except RuleViolation as exc:
        return exc.code, exc.message


def _serializer(body):
    checked = CommandIn(data=body)
    checked.is_valid(raise_exception=True)
    return checked.validated_data


@settings(max_examples=600, deadline=None)
@given(bodies)
def test_read_command_takes_and_refuses_what_the_serializer_does(body):
    """Any JSON body (an object with the command's fields in every shape, or another value):
    the same command or the same errors, field by field, with their messages and codes."""
    assert _outcome(read_command, body) == _outcome(_serializer, body)


@pytest.mark.parametrize(
    "body",
    [
        {"type": " counter.add ", "data": {"amount": 2}, "expected_version": "2"},
        {"type": "counter.add", "data": {"amount": 2}, "expected_version": 2.0},
        {"type": "counter.add", "idempotency_key": 7},
        {"type": "", "data": None, "expected_version": -1, "idempotency_key": "k" * 81},
        {"type": "counter.add", "data": {"amount": "²"}, "expected_version": "x"},
        {"type": "counter\x00add"},
        {"data": {}},
        [],
        None,
        QueryDict("type=counter.add&expected_version=3"),
    ],
)
def test_read_command_on_the_bodies_that_need_the_fields(body):
    """The coercions (a trimmed type, a version written as a string or a float, a number as
    the key), every field's error at once, bad_number first, a body that is not an object
    and a form's body."""
    assert _outcome(read_command, body) == _outcome(_serializer, body)
