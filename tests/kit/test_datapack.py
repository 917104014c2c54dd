"""The shared data-pack loader: strict JSON, schema errors naming records by id, cross-checks, R006."""

from __future__ import annotations

import pytest

from pbem.errors import DataPackError
from pbem.kit.datapack import PackModel, Slug, SourceText, load_pack, parse_pack_json, require_unique


class RowSources(PackModel):
    value: SourceText


class Row(PackModel):
    id: Slug
    value: int
    sources: RowSources


class Pack(PackModel):
    rows: tuple[Row, ...]


def _unique_rows(pack: Pack) -> None:
    require_unique("demo", (row.id for row in pack.rows), "row")


def load(raw: bytes) -> Pack:
    return load_pack(raw, Pack, game="demo", cross_checks=(_unique_rows,))


GOOD = b'{"rows": [{"id": "a", "value": 1, "sources": {"value": "rulebook \\u00a73.1"}}]}'


def test_kit_datapack_loads_a_valid_pack_one_line_and_pretty() -> None:
    assert load(GOOD).rows[0].value == 1
    pretty = b'{\n  "rows": [\n    {"id": "a", "value": 1, "sources": {"value": "reconstructed: a guess"}}\n  ]\n}\n'
    assert load(pretty).rows[0].sources.value == "reconstructed: a guess"


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        (b'{"rows": [{"id": "a", "value": 1.5, "sources": {"value": "rulebook \\u00a71"}}]}', "1.5"),
        (b'{\n"rows": [], "rows": []\n}', "duplicate key 'rows'"),
        (b'{\n"rows": NaN\n}', "NaN"),
        (b"\xef\xbb\xbf{\n}", "byte order mark"),
        (b"[\n]", "not an object"),
        (b"{\n\xff}", "UTF-8"),
        (b'{"rows": [{"id": "a", "value": 1, "sources": {"value": "because"}}]}', "rows[0] (id 'a').sources.value"),
        (b'{"rows": [{"id": "a", "value": "1", "sources": {"value": "rulebook \\u00a71"}}]}', "rows[0] (id 'a').value"),
        (
            b'{"rows": [{"id": "a", "value": 1, "sources": {"value": "rulebook \\u00a71"}},'
            b' {"id": "a", "value": 2, "sources": {"value": "rulebook \\u00a71"}}]}',
            "row id 'a' appears twice",
        ),
    ],
)
def test_kit_datapack_refuses_with_r006_naming_the_defect(raw: bytes, needle: str) -> None:
    with pytest.raises(DataPackError) as info:
        load(raw)
    assert info.value.code.id == "R006"
    assert needle in info.value.message
    assert info.value.message.startswith("demo data pack: ")


def test_kit_datapack_parse_keeps_integers_exact() -> None:
    assert parse_pack_json(b'{\n"n": 9007199254740991\n}', game="demo") == {"n": 9007199254740991}
