"""JSON Lines records get the listing's limits and checks (issue 9, item 3)."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.features.catalog.files import CatalogFileError, LineReader, inspect_file
from bot.features.catalog.jsonl import parse_jsonl
from bot.features.catalog.listing import MAX_FIELD_CHARS, MAX_TITLE_CHARS, ParsedPaper, RecordError
from domain.paper import Links

MINIMAL = {"title_en": "A Paper", "title_zh": "论文", "authors": ["Ann"], "summary_zh": "摘要。"}


def _one(line: str) -> ParsedPaper | RecordError:
    (item,) = parse_jsonl([(1, line)])
    return item


@pytest.mark.parametrize(("key", "value", "limit"), [
    ("title_en", "x" * (MAX_TITLE_CHARS + 1), MAX_TITLE_CHARS),
    ("title_zh", "论" * (MAX_FIELD_CHARS + 1), MAX_FIELD_CHARS),
    ("summary_zh", "摘" * 5_000_000, MAX_FIELD_CHARS),
    ("comments", "c" * (MAX_FIELD_CHARS + 1), MAX_FIELD_CHARS),
    ("journal_ref", "j" * (MAX_FIELD_CHARS + 1), MAX_FIELD_CHARS),
    ("authors", ["Ann Author"] * 5000, MAX_FIELD_CHARS),
    ("affiliations", [{"en": "Some Institute", "zh": "某研究所"}] * 5000, MAX_FIELD_CHARS),
])
def test_overlong_fields_are_rejected_with_the_listing_limits(
        key: str, value: object, limit: int) -> None:
    item = _one(json.dumps({**MINIMAL, key: value}, ensure_ascii=False))
    assert isinstance(item, RecordError)
    assert key in item.reason
    assert f"{limit:,}" in item.reason


def test_fields_at_the_limit_are_accepted() -> None:
    record = {**MINIMAL, "title_en": "x" * MAX_TITLE_CHARS, "summary_zh": "摘" * MAX_FIELD_CHARS}
    assert isinstance(_one(json.dumps(record, ensure_ascii=False)), ParsedPaper)


def test_invalid_utf8_is_rejected_with_its_line(tmp_path: Path) -> None:
    good = json.dumps(MINIMAL, ensure_ascii=False).encode()
    bad = good.replace("摘要".encode(), b"\xff\xfe")
    path = tmp_path / "bad.jsonl"
    path.write_bytes(good + b"\n" + bad + b"\n")
    items = list(parse_jsonl(LineReader(path)))
    assert isinstance(items[0], ParsedPaper)
    assert isinstance(items[1], RecordError)
    assert (items[1].line, items[1].reason) == (2, "line is not valid UTF-8")


@pytest.mark.parametrize("data", [
    b'[\n  {"title_en": "A"},\n  {"title_en": "B"}\n]\n',
    b'[{"title_en": "A"}]',
    b"  []\n",
])
@pytest.mark.parametrize("name", ["papers.json", "papers.jsonl", "papers.txt"])
def test_json_array_file_is_named_as_such(tmp_path: Path, name: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(CatalogFileError) as raised:
        inspect_file(path)
    assert str(raised.value) == (
        f"{path}: this is a JSON array; paperclub reads JSON Lines (one object per line)")


def test_listing_whose_query_starts_with_a_bracket_is_a_listing(tmp_path: Path) -> None:
    path = tmp_path / "listing.txt"
    path.write_text("[ICML] search\n\nTitle\n\n标题\n\nAnn\n\nAI总结 摘要。\n", encoding="utf-8")
    assert inspect_file(path).value == "listing"


def test_unknown_fields_are_warnings_not_rejections() -> None:
    item = _one(json.dumps({**MINIMAL, "bogus": 1, "venue": {"year": 2026, "colour": "red"}}))
    assert isinstance(item, ParsedPaper)
    assert item.paper.title_en == "A Paper"
    assert item.paper.venue.year == 2026
    assert [(w.line, w.reason) for w in item.warnings] == [
        (1, "unknown field 'bogus' ignored"), (1, "unknown field 'venue.colour' ignored")]


def test_url_arxiv_id_and_doi_are_kept() -> None:
    record = {**MINIMAL, "url": "https://arxiv.org/abs/2601.00001", "arxiv_id": "2601.00001",
              "doi": "10.48550/arXiv.2601.00001", "published": "2026-01-02T03:04:05"}
    item = _one(json.dumps(record))
    assert isinstance(item, ParsedPaper)
    assert item.warnings == ()
    assert item.paper.links == Links(
        arxiv_id="2601.00001", doi="10.48550/arXiv.2601.00001",
        url="https://arxiv.org/abs/2601.00001", published=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("arxiv_version", -1, "'arxiv_version' must be a whole number"),
    ("arxiv_version", "2", "'arxiv_version' must be a whole number"),
    ("categories", "cs.LG", "'categories' must be a list of strings"),
    ("published", "yesterday", "'published' must be an ISO 8601 time or null"),
    ("updated", 1700000000, "'updated' must be an ISO 8601 time or null"),
    ("summary_en", ["a"], "'summary_en' must be a string"),
])
def test_bad_link_fields_are_named(field: str, value: object, reason: str) -> None:
    item = _one(json.dumps({**MINIMAL, field: value}))
    assert isinstance(item, RecordError) and reason in item.reason


def test_a_fifo_is_refused_without_reading_it(tmp_path: Path) -> None:
    """A FIFO nobody writes to would block the import forever: refused at once, one line."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    path = tmp_path / "catalog.bib"
    os.mkfifo(path)
    with pytest.raises(CatalogFileError) as raised:
        inspect_file(path)
    assert str(raised.value) == (f"{path}: is a named pipe (FIFO), not a regular file: save "
                                 "the catalog to a file and import that")


def test_a_character_device_is_refused() -> None:
    device = Path("/dev/zero")  # reads forever: never a catalog
    if not device.exists():
        pytest.skip("no /dev/zero here")
    with pytest.raises(CatalogFileError, match="is a character device, not a regular file"):
        inspect_file(device)
