"""The traffic audit's findings and lines on disk, so the parent's memory stays flat as the corpus grows.

Why: a gateway's day is a million calls; with a finding on many of them, a merged in-memory result
(and the reports rendered from it as whole strings) grows with the corpus. Each file's share is
written here as it arrives (``Spool.add``); only counters stay in memory. The reports then read
every list back as an iterator (``Rows``), in the order the in-memory merge had: findings by
``TrafficFinding.sort_key`` (sorted on disk by SQLite when the shares did not arrive in that
order), every other list in file order, as merged.

A stdlib ``sqlite3`` database in a temporary directory outside the user's project
(``tempfile``), removed when ``temporary_spool`` ends, on error and on KeyboardInterrupt too
(a SIGKILL can leave it in the system's temporary folder, as any process's temp file).
Items are pickled: the database is this process's own scratch space, read by no one else.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import pickle
import sqlite3
import tempfile
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

__all__ = ["Groups", "Rows", "Spool", "iter_json", "sort_blob", "temporary_spool"]

T = TypeVar("T")
U = TypeVar("U")

#: Rows read from SQLite per fetch (bounded memory, few round trips).
_BATCH = 512


class Rows(Generic[T]):
    """A list read back from disk: its length, and its items in order on each iteration."""

    def __init__(self, length: int, read: Callable[[], Iterable[T]]) -> None:
        self._length = length
        self._read = read

    def __len__(self) -> int:
        return self._length

    def __bool__(self) -> bool:
        return self._length > 0

    def __iter__(self) -> Iterator[T]:
        return iter(self._read())

    def map(self, fn: Callable[[T], U]) -> Rows[U]:
        """The same rows through ``fn``, read lazily (nothing is held)."""
        return Rows(self._length, lambda: map(fn, self))

    @staticmethod
    def of(items: Sequence[U]) -> Rows[U]:
        """A list in memory as rows (what a caller with a small result passes)."""
        return Rows(len(items), lambda: items)


class Groups:
    """A JSON object of lists read from disk: ``(key, value)`` rows sorted by key then value,
    written as ``{key: [value, ...]}`` (what ``{k: sorted(v) for k, v in sorted(d.items())}`` is)."""

    def __init__(self, rows: Rows[tuple[str, Any]]) -> None:
        self.rows = rows

    def __iter__(self) -> Iterator[tuple[str, list[Any]]]:
        """Each key with its values (one key's values in memory at a time)."""
        for key, pairs in itertools.groupby(self.rows, key=lambda pair: pair[0]):
            yield key, [value for _, value in pairs]


def _dumps(value: Any, ensure_ascii: bool) -> str:
    return json.dumps(value, sort_keys=True, indent=1, ensure_ascii=ensure_ascii)


def iter_json(value: Any, *, ensure_ascii: bool = True, level: int = 0) -> Iterator[str]:
    """``json.dumps(value, sort_keys=True, indent=1, ensure_ascii=...)`` in pieces, ``Rows`` as lists
    and ``Groups`` as objects: objects are walked, lists written an item at a time."""
    pad, inner = "\n" + " " * level, "\n" + " " * (level + 1)
    if isinstance(value, dict | Groups):
        items = iter(sorted(cast(dict[str, Any], value).items())) if isinstance(value, dict) else iter(value)
        first = next(items, None)
        if first is None:
            yield "{}"
            return
        yield "{"
        for n, (key, item) in enumerate(itertools.chain([first], items)):
            yield f"{',' if n else ''}{inner}{_dumps(key, ensure_ascii)}: "
            yield from iter_json(item, ensure_ascii=ensure_ascii, level=level + 1)
        yield f"{pad}}}"
    elif isinstance(value, Rows | list):
        if not value:
            yield "[]"
            return
        yield "["
        for n, item in enumerate(cast(Iterable[Any], value)):
            # a JSON string never holds a raw newline: every line after an item's first is indented
            text = _dumps(item, ensure_ascii).replace("\n", inner)
            yield f"{',' if n else ''}{inner}{text}"
        yield f"{pad}]"
    else:
        yield _dumps(value, ensure_ascii).replace("\n", pad)


Key = tuple[str | int, ...]


def sort_blob(key: Key) -> bytes:
    """``key`` as bytes whose order (SQLite compares BLOBs with memcmp) is the tuple's order in
    Python: a string as UTF-8 (code point order; a lone surrogate kept, ``surrogatepass``) with
    its NULs escaped and a terminator that sorts below any character; an integer as 8 bytes,
    big-endian, offset to be unsigned."""
    out = bytearray()
    for part in key:
        if isinstance(part, int):
            out += (part + (1 << 63)).to_bytes(8, "big")
        else:
            out += part.encode("utf-8", "surrogatepass").replace(b"\x00", b"\x00\xff") + b"\x00\x00"
    return bytes(out)


class Spool:
    """Lists of items, appended in order, read back as ``Rows`` once ``finish`` has run: in the
    order added, or (the lists of ``sorted_by``) in the order of each item's key, ties in the
    order added (as Python's stable ``sorted``)."""

    def __init__(
        self, path: Path, names: Sequence[str], sorted_by: Mapping[str, Callable[[Any], Key]] | None = None
    ) -> None:
        self._db = sqlite3.connect(path, isolation_level=None)
        self._names = tuple(names)
        self._keys = dict(sorted_by or {})
        self._counts = dict.fromkeys(self._names, 0)
        #: The last key added to each sorted list: while keys arrive in order, no sort is needed.
        self._last: dict[str, Key | None] = dict.fromkeys(self._keys, None)
        self._in_order = dict.fromkeys(self._keys, True)
        self._finished = False
        # Scratch data: no journal, no fsync; SQLite's page cache (a few MB) bounds its memory,
        # and its sorter spills to temporary files beyond it.
        for pragma in ("journal_mode=OFF", "synchronous=OFF", "temp_store=FILE", "cache_size=-8192"):
            self._db.execute(f"PRAGMA {pragma}")
        for name in self._names:
            self._db.execute(f"CREATE TABLE {name} (seq INTEGER PRIMARY KEY, key BLOB, item BLOB)")
        self._db.execute("BEGIN")

    def add(self, name: str, items: Sequence[Any]) -> None:
        """Append ``items`` to list ``name``."""
        if not items:
            return
        assert not self._finished, "the spool is read-only once finished"
        self._counts[name] += len(items)
        keyed = self._keys.get(name)
        if keyed is None:
            self._db.executemany(
                f"INSERT INTO {name} (item) VALUES (?)", ((pickle.dumps(i, protocol=5),) for i in items)
            )
            return
        keys = [keyed(i) for i in items]
        last = self._last[name]
        for key in keys:
            if last is not None and key < last:
                self._in_order[name] = False
            last = key
        self._last[name] = last
        self._db.executemany(
            f"INSERT INTO {name} (key, item) VALUES (?, ?)",
            ((sort_blob(k), pickle.dumps(i, protocol=5)) for k, i in zip(keys, items, strict=True)),
        )

    def finish(self) -> None:
        """Every list complete: sort each sorted list on disk once (when its items came out of order)."""
        for name in self._keys:
            if not self._in_order[name]:
                self._db.execute(f"CREATE TABLE {name}_sorted (seq INTEGER PRIMARY KEY, key BLOB, item BLOB)")
                self._db.execute(
                    f"INSERT INTO {name}_sorted (key, item) SELECT key, item FROM {name} ORDER BY key, seq"
                )
                self._db.execute(f"DROP TABLE {name}")
                self._db.execute(f"ALTER TABLE {name}_sorted RENAME TO {name}")
        self._db.execute("COMMIT")
        self._finished = True

    def rows(self, name: str) -> Rows[Any]:
        """List ``name``, in order, read from disk on each iteration."""
        assert self._finished, "finish() the spool before reading it"
        return Rows(self._counts[name], lambda: self._read(name))

    def _read(self, name: str) -> Iterator[Any]:
        cursor = self._db.execute(f"SELECT item FROM {name} ORDER BY seq")
        try:
            while batch := cursor.fetchmany(_BATCH):
                for (item,) in batch:
                    yield pickle.loads(item)
        finally:
            cursor.close()

    def close(self) -> None:
        self._db.close()


@contextlib.contextmanager
def temporary_spool(
    names: Sequence[str], sorted_by: Mapping[str, Callable[[Any], Key]] | None = None
) -> Generator[Spool]:
    """A spool in a new temporary directory, removed (database and all) when the block ends."""
    with tempfile.TemporaryDirectory(prefix="harness-spool-") as folder:
        spool = Spool(Path(folder) / "spool.sqlite", names, sorted_by)
        try:
            yield spool
        finally:
            spool.close()
