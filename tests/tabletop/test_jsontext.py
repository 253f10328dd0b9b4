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


def test_a_nan_or_infinity_beside_nulls_takes_the_standard_path():
    """A state full of nulls with one NaN or infinity deep inside (orjson would write it
    ``null``): the text is the standard library's, as before the read-back check."""
    for bad in (math.nan, math.inf, -math.inf):
        value = {"a": None, "b": [None, {"c": bad}], "d": (None, 1.5)}
        assert jsontext.dumps(value) == json.dumps(value)
    assert jsontext.dumps({"a": None, "t": (1, None)}) == '{"a":null,"t":[1,null]}'


def test_a_long_number_anywhere_is_read_by_the_standard_library():
    """Nineteen digits in a row, in a str or in bytes, after any text (non-ASCII included):
    read as ``json.loads`` reads them (an integer, never a float)."""
    for text in ('{"é": "x", "n": 1234567890123456789012}', '["a", -98765432109876543210]'):
        assert jsontext.loads(text) == json.loads(text)
        assert jsontext.loads(text.encode()) == json.loads(text)
        assert isinstance(jsontext.loads(text)[-1] if text.startswith("[")
                          else jsontext.loads(text)["n"], int)


@given(values)
def test_copy_json_is_an_equal_copy_sharing_nothing(value):
    from tabletop.decider import copy_json

    original = {"v": value, "t": (1, [2])}
    copied = copy_json(original)
    assert copied == {"v": value, "t": [1, [2]]}

    def containers(x):
        if isinstance(x, dict | list | tuple):
            yield id(x)
            for item in (x.values() if isinstance(x, dict) else x):
                yield from containers(item)

    assert not set(containers(copied)) & set(containers(original))


def test_copy_json_keeps_what_json_cannot_read_back():
    from tabletop.decider import copy_json

    state = {"n": math.nan, "k": {1: "a"}, "big": 2**70, "t": ((1,),)}
    copied = copy_json(state)
    assert math.isnan(copied["n"]) and copied["k"] == {1: "a"} and copied["big"] == 2**70
    assert copied["t"] == [[1]]
    nested = {"a": [{"b": [1, 2]}]}
    copied = copy_json(nested)
    copied["a"][0]["b"].append(3)
    assert nested == {"a": [{"b": [1, 2]}]}


def test_a_kept_text_reads_as_the_very_value_written_and_anything_else_is_decoded():
    """``dumps_kept``/``loads_kept``: the fan-out of a state this process just committed
    takes that state itself (what was worked out from it is shared); a text this process
    did not write (another process's command), or one dropped since, is decoded afresh."""
    state = {"b": [1, 2.5, None], "a": {"x": "é", "n": None}}
    text = jsontext.dumps_kept(state)
    assert text == jsontext.dumps(state)
    assert jsontext.loads_kept(text) is state
    copy = "".join(list(text))  # equal text, another string (as read from Redis)
    assert copy is not text and jsontext.loads_kept(copy) is state
    other = jsontext.dumps({"b": [1], "a": {}})
    assert jsontext.loads_kept(other) == {"b": [1], "a": {}}
    for n in range(jsontext.KEPT):  # the oldest go first
        jsontext.dumps_kept({"n": n})
    dropped = jsontext.loads_kept(text)
    assert dropped == state and dropped is not state
    assert list(dropped) == ["b", "a"]


def test_a_value_that_reads_back_otherwise_is_not_kept():
    """A tuple reads back as a list and a number key as a string: such a value is never
    given for its text (the fan-out gets what a read of the row would give)."""
    for value in ({"t": (1, 2)}, {1: "one"}):
        text = jsontext.dumps_kept(value)
        assert jsontext.loads_kept(text) == json.loads(text)
        assert jsontext.loads_kept(text) is not value
