"""Reading catalog files: encoding, line endings, format detection and whole-file errors."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path

SNIFF_BYTES = 64 * 1024
READ_BYTES = 1024 * 1024
"""Bytes read (and decoded) at a time."""


class CatalogFormat(StrEnum):
    """Catalog file formats paperclub reads."""

    LISTING = "listing"
    JSONL = "jsonl"
    BIBTEX = "bibtex"


class CatalogFileError(Exception):
    """The file as a whole cannot be loaded; the message says why, for a person."""


class LineReader:
    """Numbered lines of a UTF-8 file, BOM and CR/LF removed, tracking bytes read for progress.

    Invalid UTF-8 is kept as lone surrogates so the parser can reject that record by line number.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.total_bytes = path.stat().st_size
        self.bytes_read = 0

    def __iter__(self) -> Iterator[tuple[int, str]]:
        number = 0
        for block in self._blocks():
            lines = block.decode("utf-8", errors="surrogateescape").split("\n")
            if number == 0:
                lines[0] = lines[0].removeprefix("\ufeff")
            if lines[-1] == "":  # the block ends with its last line's newline
                lines.pop()
            for text in lines:
                number += 1
                yield number, text.rstrip("\r")

    def _blocks(self) -> Iterator[bytes]:
        """The file in blocks of whole lines (decoding a block or each of its lines gives the
        same text: a newline always ends an invalid UTF-8 sequence)."""
        rest = b""
        with self.path.open("rb") as handle:
            while block := handle.read(READ_BYTES):
                block = rest + block
                end = block.rfind(b"\n") + 1
                rest = block[end:]
                if end:
                    self.bytes_read += end
                    yield block[:end]
        if rest:
            self.bytes_read += len(rest)
            yield rest


def _kind_of(path: Path) -> str:
    """What a path that is no regular file or directory is, in words."""
    mode = path.stat().st_mode
    kinds = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))
    return next((name for test, name in kinds if test(mode)), "a special file")


_BIBTEX_START = re.compile(rb"@[A-Za-z]+\s*[{(]")


def inspect_file(path: Path, fmt: CatalogFormat | None = None) -> CatalogFormat:
    """Check that the file can be a catalog and tell its format (`fmt` when given, else from
    the name's extension or the first bytes); raises `CatalogFileError`."""
    if not path.exists():
        raise CatalogFileError(f"{path}: no such file")
    if path.is_dir():
        raise CatalogFileError(f"{path}: is a directory, not a catalog file")
    if not path.is_file():  # reading a FIFO or a device would wait for a writer, or forever
        raise CatalogFileError(f"{path}: is {_kind_of(path)}, not a regular file: save the "
                               "catalog to a file and import that")
    if not os.access(path, os.R_OK):
        raise CatalogFileError(f"{path}: not readable (permission denied)")
    with path.open("rb") as handle:
        head = handle.read(SNIFF_BYTES)
    if not head.strip():
        raise CatalogFileError(f"{path}: the file is empty")
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise CatalogFileError(f"{path}: UTF-16 text; save the catalog as UTF-8")
    if b"\x00" in head:
        raise CatalogFileError(f"{path}: binary data (NUL bytes), not a text catalog")
    if _looks_like_gbk(head):
        raise CatalogFileError(f"{path}: not UTF-8 but GBK/GB18030 (Chinese Windows) text; "
                               "save the catalog as UTF-8 and import it again")
    first = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if fmt is not None:
        return fmt
    if path.suffix.lower() == ".bib" or _BIBTEX_START.match(first):
        return CatalogFormat.BIBTEX
    if first.startswith(b"[") and first[1:].lstrip()[:1] in (b"{", b"]"):
        raise CatalogFileError(
            f"{path}: this is a JSON array; paperclub reads JSON Lines (one object per line)")
    if path.suffix.lower() in {".jsonl", ".ndjson"} or first.startswith(b"{"):
        return CatalogFormat.JSONL
    return CatalogFormat.LISTING


def _in_gb2312(char: str) -> bool:
    try:
        char.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def _looks_like_gbk(head: bytes) -> bool:
    """The file's first lines are not UTF-8 but GB18030, and mostly of its common Chinese
    set (GB2312: both bytes past 0xA0), which Latin-1 accents before ASCII letters are not."""
    head = head[:head.rfind(b"\n") + 1] or head
    try:
        head.decode("utf-8")
        return False
    except UnicodeDecodeError:
        pass
    try:
        text = head.decode("gb18030")
    except UnicodeDecodeError:
        return False
    wide = [char for char in text if not char.isascii()]
    return sum(map(_in_gb2312, wide)) >= 0.9 * len(wide)
