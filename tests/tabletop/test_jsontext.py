"""``tabletop.jsontext``: orjson on the command path with the standard library's meaning.
Pure: no database."""

from __future__ import annotations

import json
import math

from hypothesis import given
from hypothesis import strategies as st

from tabletop import jsontext

# JSON-shaped values as games store them: str keys, ints of any size, finite floats.
scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@given(values)
def test_dumps_gives_the_value_json_dumps_gives(value):
    assert json.loads(jsontext.dumps(value)) == json.loads(json.dumps(value))


@given(values)
def test_loads_reads_what_json_loads_reads(value):
    text = json.dumps(value)
    assert jsontext.loads(text) == json.loads(text)
    assert jsontext.loads(text.encode()) == json.loads(text)


def test_what_orjson_refuses_or_reads_otherwise_takes_the_standard_path():
    assert json.loads(jsontext.dumps({1: "a", (2): [3]})) == {"1": "a", "2": [3]}
    big = 2**70
    assert jsontext.loads(jsontext.dumps({"x": big}))["x"] == big  # not a float
    assert jsontext.loads(b'[12345678901234567890]') == [12345678901234567890]
    assert jsontext.dumps(1e400 * 0) == "NaN"  # as json.dumps: never "null"
    assert math.isinf(jsontext.loads("[Infinity]")[0])
    assert jsontext.dumps((1, 2)) == "[1,2]"


def test_bad_json_raises_value_error():
    for text in ("{bad", "", "[1,]"):
        try:
            jsontext.loads(text)
        except ValueError:
            continue
        raise AssertionError(f"{text!r} was read")
