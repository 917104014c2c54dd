"""Strict parsing and canonical encoding (pbem.log.canon): research-crypto §2 and cases C1-C5."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import LogFormatError
from pbem.log.canon import (
    MAX_DEPTH,
    MAX_LINE_BYTES,
    MAX_SAFE_INTEGER,
    MAX_STRING,
    canonical,
    check_value,
    jcs,
    parse_line,
)

SUITE = Path(__file__).parent.parent / "vectors" / "third_party" / "jsontestsuite" / "parsing.json"


def code_of(raw: bytes) -> str:
    """The L code parse_line raises for ``raw`` (fails the test if it accepts the line)."""
    with pytest.raises(LogFormatError) as info:
        parse_line(raw)
    return info.value.code.id


def nest(depth: int, inner: str = "1") -> bytes:
    """An object line whose containers nest ``depth`` deep (the top-level object counts as 1)."""
    return ('{"a":' * depth + inner + "}" * depth).encode()


# --- one test per L code -------------------------------------------------------------------------


@pytest.mark.case("C2")
@pytest.mark.parametrize(
    "raw",
    [
        b'{"a":"\x80"}',  # lone continuation byte
        b'{"a":"\xbf\xbf"}',  # two continuation bytes
        b'{"a":"\xc0\xaf"}',  # overlong "/" (2 bytes)
        b'{"a":"\xe0\x80\xaf"}',  # overlong "/" (3 bytes)
        b'{"a":"\xf0\x80\x80\xaf"}',  # overlong "/" (4 bytes)
        b'{"a":"\xe2\x82"}',  # truncated 3-byte sequence
        b'{"a":"\xf0\x9f\x98"}',  # truncated 4-byte sequence
        b'{"a":"caf\xe9"}',  # Latin-1 e acute
        b'{"a":"\xed\xa0\x80"}',  # UTF-8-encoded surrogate U+D800 (CESU)
        b'{"a":"\xf4\x90\x80\x80"}',  # beyond U+10FFFF
        b'{"a":"\xff"}',  # never valid in UTF-8
        b'{"\xe9":1}',  # in a key
        b'{"a":1}\xe9',  # after the object
    ],
)
def test_invalid_utf8_is_L001(raw: bytes) -> None:
    assert code_of(raw) == "L001"


@pytest.mark.case("C2")
@pytest.mark.parametrize("raw", [b'\xef\xbb\xbf{"a":1}', b"\xef\xbb\xbf{}", b"\xef\xbb\xbf"])
def test_bom_is_L002(raw: bytes) -> None:
    assert code_of(raw) == "L002"


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"   ",
        b"{",
        b'{"a":1',
        b'{"a":1,}',
        b"{'a':1}",
        b'{"a":1}{"b":2}',
        b'{"a":01}',
        b'{"a":+1}',
        b'{"a":"\x01"}',  # raw control character in a string
        b'{"a":"\\x41"}',  # invalid escape
        b'{"a":tru}',
        b"{a:1}",
        b'{"a":1}\x00',
    ],
)
def test_not_json_is_L003(raw: bytes) -> None:
    assert code_of(raw) == "L003"


@pytest.mark.case("C1")
@pytest.mark.parametrize(
    "raw",
    [
        b'{"a":1,"a":2}',  # top level
        b'{"a":1,"a":1}',  # same value twice is still a duplicate
        b'{"a":1,"b":2,"a":3}',
        b'{"a":1,"\\u0061":2}',  # the same key once escaped
        b'{"x":{"b":1,"b":2}}',  # nested
        b'{"x":[{"b":1},{"c":1,"c":1}]}',  # in an array
        nest(20, '{"k":null,"k":null}'),  # deep
    ],
)
def test_duplicate_key_is_L004(raw: bytes) -> None:
    assert code_of(raw) == "L004"


@pytest.mark.case("C1")
@pytest.mark.parametrize(
    "number",
    ["1.0", "0.5", "-0.0", "1e5", "1E+2", "1e-2", "-1.5e300", "1e5000", "NaN", "Infinity", "-Infinity"],
)
def test_float_and_constants_are_L005(number: str) -> None:
    assert code_of(b'{"a":%s}' % number.encode()) == "L005"
    assert code_of(b'{"a":[1,{"b":%s}]}' % number.encode()) == "L005"


@pytest.mark.case("C1")
@pytest.mark.case("C3")
@pytest.mark.parametrize(
    "number",
    [
        str(2**53),
        str(-(2**53)),
        str(2**63),
        "12345678901234567",  # 17 digits
        "-12345678901234567",
        "1" * 5000,  # beyond Python's 4300-digit int() limit: must not surface as ValueError
        "-" + "9" * 5000,
        "7" * 60000,
    ],
)
def test_integer_out_of_range_is_L006(number: str) -> None:
    assert code_of(b'{"a":%s}' % number.encode()) == "L006"
    assert code_of(b'{"a":{"b":[%s]}}' % number.encode()) == "L006"


def test_integer_bounds_are_inclusive() -> None:
    assert parse_line(b'{"a":%d}' % MAX_SAFE_INTEGER) == {"a": 2**53 - 1}
    assert parse_line(b'{"a":%d}' % -MAX_SAFE_INTEGER) == {"a": -(2**53 - 1)}
    assert parse_line(b'{"a":1234567890123456}') == {"a": 1234567890123456}  # 16 digits


@pytest.mark.case("C2")
@pytest.mark.parametrize(
    "raw",
    [
        '{"a":"e\u0301"}'.encode(),  # decomposed e acute, raw UTF-8
        b'{"a":"e\\u0301"}',  # the same, escaped (an ASCII-only line)
        '{"a":["ok","\u212b"]}'.encode(),  # ANGSTROM SIGN: NFC maps it to U+00C5
        '{"a":{"b":"\u1100\u1161"}}'.encode(),  # conjoining Hangul jamo
    ],
)
def test_non_nfc_string_is_L007(raw: bytes) -> None:
    assert code_of(raw) == "L007"


@pytest.mark.case("C2")
@pytest.mark.parametrize(
    "raw",
    ['{"\u00e9":1}'.encode(), b'{"\\u00e9":1}', '{"a":{"\u00fcber":1}}'.encode(), '{"\U0001f600":1}'.encode()],
)
def test_non_ascii_key_is_L008(raw: bytes) -> None:
    assert code_of(raw) == "L008"


@pytest.mark.case("C3")
def test_nesting_ten_thousand_deep_is_L009_not_recursion_error() -> None:
    assert code_of(b"[" * 10**4 + b"]" * 10**4) == "L009"
    assert code_of(nest(10**4, "{}")) == "L009"


@pytest.mark.case("C3")
def test_depth_limit_boundary() -> None:
    assert MAX_DEPTH == 24
    assert parse_line(nest(24)) is not None
    assert code_of(nest(25)) == "L009"
    # arrays count too, and a line that needs the full walk (non-ASCII) behaves the same
    assert parse_line(b'{"a":' + b"[" * 23 + b"]" * 23 + b"}") is not None
    assert code_of(b'{"a":' + b"[" * 24 + b"]" * 24 + b"}") == "L009"
    assert parse_line(nest(24, '"\u00e9"')) is not None
    assert code_of(nest(25, '"\u00e9"')) == "L009"


@pytest.mark.case("C3")
def test_line_over_64_kib_is_L010() -> None:
    assert MAX_LINE_BYTES == 65536
    line = b'{"a":[1' + b" " * (MAX_LINE_BYTES - len(b'{"a":[1]}')) + b"]}"  # JSON whitespace inside
    assert len(line) == MAX_LINE_BYTES
    assert parse_line(line) == {"a": [1]}
    assert code_of(line[:-2] + b" ]}") == "L010"
    assert code_of(b'{"a":"' + b"x" * MAX_LINE_BYTES + b'"}') == "L010"
    assert code_of(b"[" * 10**5) == "L010"


@pytest.mark.parametrize("raw", [b"[]", b'[{"a":1}]', b'"a"', b"1", b"-0", b"null", b"true", b"false"])
def test_top_level_not_an_object_is_L011(raw: bytes) -> None:
    assert code_of(raw) == "L011"


@pytest.mark.case("C2")
@pytest.mark.parametrize(
    "raw",
    [
        b'{"a":"\\ud800"}',  # lone high surrogate, ASCII-only line
        b'{"a":"\\udc00"}',  # lone low surrogate
        b'{"a":"x\\ud83dy"}',
        b'{"a":"\\ude00\\ud83d"}',  # a pair in the wrong order
        '{"a":["\u00e9","\\ud800"]}'.encode(),  # in a line that is not ASCII
    ],
)
def test_lone_surrogate_is_L012(raw: bytes) -> None:
    assert code_of(raw) == "L012"


@pytest.mark.case("C2")
def test_lone_surrogate_in_key_is_a_non_ascii_key() -> None:
    assert code_of(b'{"\\ud800":1}') == "L008"


@pytest.mark.case("C3")
def test_string_length_limit_is_L012() -> None:
    assert MAX_STRING == 4096
    assert parse_line(b'{"a":"' + b"x" * MAX_STRING + b'"}')["a"] == "x" * MAX_STRING
    assert code_of(b'{"a":"' + b"x" * (MAX_STRING + 1) + b'"}') == "L012"
    assert code_of(b'{"a":"' + "\u00e9".encode() * (MAX_STRING + 1) + b'"}') == "L012"
    assert code_of(b'{"' + b"k" * (MAX_STRING + 1) + b'":1}') == "L012"  # keys too


# --- what is accepted ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a":1}\r\n',
        b'{"a":1}\n',
        b'  {"a":1}  ',
        b'\t{"a":1}\t\r\n',
        b'\r\n{"a":1}',
        b'{ "a" : 1 }',
        b'{\r\n  "a": 1\r\n}\r\n',
    ],
)
def test_surrounding_whitespace_and_crlf_are_tolerated(raw: bytes) -> None:
    assert parse_line(raw) == {"a": 1}
    assert canonical(parse_line(raw)) == b'{"a":1}'


def test_negative_zero_integer_parses_as_zero() -> None:
    parsed = parse_line(b'{"a":-0,"b":[-0]}')
    assert parsed == {"a": 0, "b": [0]}
    assert canonical(parsed) == b'{"a":0,"b":[0]}'


def test_escapes_and_nfc_strings_are_accepted() -> None:
    assert parse_line(b'{"a":"\\ud83d\\ude00"}') == {"a": "\U0001f600"}  # a valid surrogate pair
    assert parse_line('{"a":"\u00e9"}'.encode()) == {"a": "\u00e9"}
    assert parse_line(b'{"a":"\\u00e9"}') == {"a": "\u00e9"}
    assert parse_line(b'{"a":"\\u0000","\\u0000":true}') == {"a": "\x00", "\x00": True}


# --- JSONTestSuite (C4) ------------------------------------------------------------------------------

# The names parse_line accepts among the y_ and i_ files; every other y_/i_ file is refused by policy
# (top level not an object, floats, large numbers, duplicates, non-ASCII keys, BOM).
ACCEPTED = (
    "y_object.json",
    "y_object_basic.json",
    "y_object_empty.json",
    "y_object_empty_key.json",
    "y_object_escaped_null_in_key.json",
    "y_object_long_strings.json",
    "y_object_simple.json",
    "y_object_string_unicode.json",
    "y_object_with_newlines.json",
)


def _suite() -> list[dict[str, str]]:
    cases: list[dict[str, str]] = json.loads(SUITE.read_text(encoding="utf-8"))
    return cases


def _verdict(text: str) -> str | None:
    """None if parse_line accepts, else the L code; anything but LogFormatError propagates."""
    try:
        parse_line(text.encode("utf-8"))
    except LogFormatError as exc:
        return exc.code.id
    return None


@pytest.mark.case("C4")
def test_jsontestsuite_every_n_file_is_rejected() -> None:
    cases = [c for c in _suite() if c["name"].startswith("n_")]
    assert len(cases) == 176
    accepted = [c["name"] for c in cases if _verdict(c["input"]) is None]
    assert accepted == []


@pytest.mark.case("C4")
def test_jsontestsuite_y_and_i_verdicts_are_pinned() -> None:
    cases = [c for c in _suite() if c["name"][:2] in ("y_", "i_")]
    assert len(cases) == 95 + 22
    accepted = tuple(sorted(c["name"] for c in cases if _verdict(c["input"]) is None))
    assert accepted == ACCEPTED


@pytest.mark.case("C4")
def test_jsontestsuite_accepted_files_round_trip_canonically() -> None:
    by_name = {c["name"]: c["input"] for c in _suite()}
    for name in ACCEPTED:
        parsed = parse_line(by_name[name].encode())
        assert parsed == json.loads(by_name[name])
        assert parse_line(canonical(parsed)) == parsed
        assert canonical(parsed) == jcs(parsed)


# --- Hypothesis: the data model ----------------------------------------------------------------------

KEYS = st.text(alphabet=st.characters(max_codepoint=127), max_size=8)
STRINGS = st.text(st.characters(exclude_categories=["Cs"]), max_size=20).filter(
    lambda s: unicodedata.is_normalized("NFC", s)
)
SCALARS = st.none() | st.booleans() | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER) | STRINGS


def values(depth: int) -> st.SearchStrategy[Any]:
    """Values inside the data model whose containers nest at most ``depth`` deep."""
    if depth == 0:
        return SCALARS
    inner = values(depth - 1)
    return SCALARS | st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4)


VALUES = values(6)
OBJECTS = st.dictionaries(KEYS, values(5), max_size=6)


def shuffled(value: Any, rnd: Any) -> Any:
    """``value`` with every object's keys in a random order (dicts keep insertion order)."""
    if isinstance(value, dict):
        keys = list(value)
        rnd.shuffle(keys)
        return {k: shuffled(value[k], rnd) for k in keys}
    if isinstance(value, list):
        return [shuffled(v, rnd) for v in value]
    return value


@pytest.mark.case("C5")
@settings(max_examples=200, deadline=None)
@given(VALUES)
def test_fast_canonical_equals_rfc8785(value: Any) -> None:
    check_value(value)
    assert canonical(value) == jcs(value)


@settings(max_examples=200, deadline=None)
@given(OBJECTS)
def test_parse_of_canonical_is_identity(obj: dict[str, Any]) -> None:
    line = canonical(obj)
    parsed = parse_line(line)
    assert parsed == obj
    assert canonical(parsed) == line  # also tells true from 1


@pytest.mark.case("C5")
@settings(max_examples=200, deadline=None)
@given(
    OBJECTS,
    st.randoms(use_true_random=False),
    st.sampled_from([None, 0, 1, 2, "\t", " \t "]),
    st.sampled_from([(",", ":"), (", ", ": "), (" ,", " : "), (",\t", ":\r\n")]),
    st.booleans(),
    st.sampled_from(["", " ", "\t", "\r\n", "\n", "  \r\n"]),
    st.sampled_from(["", " ", "\t"]),
)
def test_reserialized_line_gives_the_same_canonical_bytes(
    obj: dict[str, Any],
    rnd: Any,
    indent: int | str | None,
    separators: tuple[str, str],
    ensure_ascii: bool,
    tail: str,
    head: str,
) -> None:
    """Key reordering and whitespace in transit never change the canonical bytes (research §9 C5)."""
    text = json.dumps(shuffled(obj, rnd), indent=indent, separators=separators, ensure_ascii=ensure_ascii)
    raw = (head + text + tail).encode()
    if len(raw) > MAX_LINE_BYTES:  # pretty-printing can in principle outgrow the line limit
        return
    assert canonical(parse_line(raw)) == canonical(obj)


# --- check_value ----------------------------------------------------------------------------------------


@pytest.mark.case("C1")
@pytest.mark.parametrize(
    ("value", "code"),
    [
        ({"a": 1.0}, "L005"),
        ({"a": [0.5]}, "L005"),
        ({"a": -0.0}, "L005"),
        ({"a": float("nan")}, "L005"),
        ({"a": float("inf")}, "L005"),
        (1.5, "L005"),
        ({"a": 2**53}, "L006"),
        ({"a": -(2**53)}, "L006"),
        ({"a": [{"b": 10**20}]}, "L006"),
        ({1: "a"}, "L008"),
        ({None: "a"}, "L008"),
        ({True: "a"}, "L008"),
        ({b"a": "a"}, "L008"),
        ({"a": {2: 1}}, "L008"),
        ({"\u00e9": 1}, "L008"),
        ({"a": {"\U0001f600": 1}}, "L008"),
        ({"a": "e\u0301"}, "L007"),
        ({"a": "\ud800"}, "L012"),
        ({"a": "x" * (MAX_STRING + 1)}, "L012"),
        ({"a": b"bytes"}, "L011"),
        ({"a": {1, 2}}, "L011"),
        ({"a": object()}, "L011"),
    ],
)
def test_check_value_rejects(value: Any, code: str) -> None:
    with pytest.raises(LogFormatError) as info:
        check_value(value)
    assert info.value.code.id == code


def test_check_value_depth_limit() -> None:
    deep: Any = 1
    for _ in range(MAX_DEPTH):
        deep = [deep]
    check_value(deep)
    with pytest.raises(LogFormatError) as info:
        check_value([deep])
    assert info.value.code.id == "L009"
    deep = 1
    for _ in range(10**4):  # iterative: no RecursionError
        deep = {"a": deep}
    with pytest.raises(LogFormatError) as info:
        check_value(deep)
    assert info.value.code.id == "L009"


def test_check_value_accepts_the_data_model() -> None:
    check_value(
        {
            "n": None,
            "t": True,
            "f": False,
            "i": [MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER, 0],
            "s": "\u00e9\U0001f600",
            "o": {"": [], "x": {}},
            "tuple": (1, 2),
        }
    )


# --- strict-parser rejections as a property ------------------------------------------------------------

DEFECTS: dict[str, tuple[str, str]] = {
    # code: (text that replaces the marker member, description); keys are longer than any KEYS draws, so a
    # defect never collides with a generated key (which would be a duplicate key, L004, instead)
    "L004": ('"zz-defect-zz":1,"zz-defect-zz":2', "duplicate key"),
    "L005": ('"zz-defect-zz":1.5', "float"),
    "L006": ('"zz-defect-zz":9007199254740993', "integer beyond 2^53"),
    "L007": ('"zz-defect-zz":"e\u0301"', "non-NFC string"),
    "L008": ('"zz-d\u00e9fect-zz":1', "non-ASCII key"),
    "L012": ('"zz-defect-zz":"\\udc00"', "lone surrogate"),
}


@pytest.mark.case("C1")
@pytest.mark.case("C2")
@settings(max_examples=200, deadline=None)
@given(OBJECTS, st.sampled_from(sorted(DEFECTS)), st.data())
def test_any_single_defect_in_a_valid_object_gives_its_code(obj: dict[str, Any], code: str, data: Any) -> None:
    """Wherever a defect sits in an otherwise valid line, the parser names that defect."""
    holders = [obj]
    for holder in holders:  # every object nested in obj (through objects and arrays)
        for child in holder.values():
            stack = [child]
            while stack:
                item = stack.pop()
                if isinstance(item, dict):
                    holders.append(item)
                elif isinstance(item, list):
                    stack.extend(item)
    data.draw(st.sampled_from(holders))["zz-defect-zz"] = 0  # a marker the defect then replaces
    line = canonical(obj).replace(b'"zz-defect-zz":0', DEFECTS[code][0].encode())
    with pytest.raises(LogFormatError) as raised:
        parse_line(line)
    assert raised.value.code.id == code


@pytest.mark.case("C2")
@settings(max_examples=100, deadline=None)
@given(OBJECTS, st.sampled_from([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\x80"]), st.data())
def test_an_invalid_utf8_byte_anywhere_is_refused(obj: dict[str, Any], bad: bytes, data: Any) -> None:
    line = canonical(obj)
    at = data.draw(st.integers(0, len(line)))
    with pytest.raises(LogFormatError) as raised:
        parse_line(line[:at] + bad + line[at:])
    assert raised.value.code.id == "L001"


@pytest.mark.parametrize("raw", [b'{"a": "open', b'{"a": "\\q"}', b'{"a": "tab\there"}', b'{"a" 1}'])
def test_not_json_says_at_column_once(raw: bytes) -> None:
    """json's own message may end in "at" ("Unterminated string starting at"): the column is named once."""
    with pytest.raises(LogFormatError) as failed:
        parse_line(raw)
    assert failed.value.code.id == "L003"
    assert " at column " in failed.value.message and " at at " not in failed.value.message
