"""Every bundled hand file validates, and matches the JSON Schema shipped for editors."""

import json

import pytest
import yaml

from conftest import HANDS
from whistbook.corpus import check_hand, check_file
from whistbook.schema import SCHEMA_PATH

FILES = sorted(HANDS.rglob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(HANDS).as_posix() for p in FILES])
def test_hand_file_validates(path):
    ch = check_file(path)
    errors = [str(d) for d in ch.diagnostics if d.level in ("error", "warning")]
    assert errors == []


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(HANDS).as_posix() for p in FILES])
def test_hand_file_matches_json_schema(path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), schema)


def test_schema_and_loader_agree_on_keys():
    from whistbook import handfile, handfile_parts

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert set(schema["properties"]) == handfile._TOP_KEYS
    trick = next(v for v in schema["properties"]["tricks"]["items"]["oneOf"] if v.get("type") == "object")
    assert set(trick["properties"]) == handfile._TRICK_KEYS
    assert set(schema["properties"]["ending"]["properties"]) == handfile_parts._ENDING_KEYS


def test_cavendish_files_are_named_by_hand_number():
    for p in (HANDS / "cavendish").glob("*.yaml"):
        n = int(p.name[:2])
        assert 1 <= n <= 39 and p.name[2] == "-"


def test_format_doc_example_validates():
    """The complete example in docs/format.md is a valid hand."""
    import re

    from conftest import ROOT
    from whistbook.handfile import loads

    text = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
    example = re.search(r"```yaml\n(# yaml-language-server.*?)```", text, re.S).group(1)
    ch = check_hand(loads(example, "docs/format.md"))
    assert [str(d) for d in ch.diagnostics] == []
