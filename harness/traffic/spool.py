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
import pickle
import sqlite3
import tempfile
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from harness.traffic.findings import TrafficFinding

__all__ = ["SORTED", "Rows", "Spool", "temporary_spool"]

T = TypeVar("T")
U = TypeVar("U")

#: The lists kept in ``TrafficFinding.sort_key`` order; every other list keeps its merge order.
SORTED = ("findings", "disagreements")
#: Rows read from SQLite per fetch (bounded memory, few round trips).
_BATCH = 512


def _text(value: str) -> bytes:
    """A string as a BLOB whose byte order is its code point order (as Python compares strings),
    a lone surrogate included (``surrogatepass``: sqlite3 refuses one in TEXT)."""
    return value.encode("utf-8", "surrogatepass")


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


class Spool:
    """Lists of items, appended in order, read back as ``Rows`` once ``finish`` has run."""

    def __init__(self, path: Path, names: Sequence[str]) -> None:
        self._db = sqlite3.connect(path, isolation_level=None)
        self._names = tuple(names)
        self._counts = dict.fromkeys(self._names, 0)
        #: The last sort key added to each sorted list: while keys arrive in order, no sort is needed.
        self._last: dict[str, tuple[str, int, str, str, str] | None] = dict.fromkeys(SORTED, None)
        self._in_order = dict.fromkeys(SORTED, True)
        self._finished = False
        # Scratch data: no journal, no fsync; SQLite's page cache (a few MB) bounds its memory,
        # and its sorter spills to temporary files beyond it.
        for pragma in ("journal_mode=OFF", "synchronous=OFF", "temp_store=FILE", "cache_size=-8192"):
            self._db.execute(f"PRAGMA {pragma}")
        for name in self._names:
            if name in SORTED:
                self._db.execute(
                    f"CREATE TABLE {name} (seq INTEGER PRIMARY KEY, file BLOB, idx INTEGER, chk BLOB, "
                    "path BLOB, message BLOB, item BLOB)"
                )
            else:
                self._db.execute(f"CREATE TABLE {name} (seq INTEGER PRIMARY KEY, item BLOB)")
        self._db.execute("BEGIN")

    def add(self, name: str, items: Sequence[Any]) -> None:
        """Append ``items`` to list ``name`` (findings: each a ``TrafficFinding``)."""
        if not items:
            return
        assert not self._finished, "the spool is read-only once finished"
        self._counts[name] += len(items)
        if name not in SORTED:
            self._db.executemany(
                f"INSERT INTO {name} (item) VALUES (?)", ((pickle.dumps(i, protocol=5),) for i in items)
            )
            return
        findings: Sequence[TrafficFinding] = items
        last = self._last[name]
        for f in findings:
            key = f.sort_key()
            if last is not None and key < last:
                self._in_order[name] = False
            last = key
        self._last[name] = last
        self._db.executemany(
            f"INSERT INTO {name} (file, idx, chk, path, message, item) VALUES (?, ?, ?, ?, ?, ?)",
            (
                (_text(f.file), f.index, _text(f.check), _text(f.path), _text(f.message),
                 pickle.dumps(f, protocol=5))
                for f in findings
            ),
        )  # fmt: skip

    def finish(self) -> None:
        """Every list complete: sort the findings on disk once (when the shares were out of order)."""
        for name in SORTED:
            if name in self._counts and not self._in_order[name]:
                self._db.execute(f"CREATE TABLE {name}_sorted (seq INTEGER PRIMARY KEY, item BLOB)")
                self._db.execute(
                    f"INSERT INTO {name}_sorted (item) SELECT item FROM {name} "
                    "ORDER BY file, idx, chk, path, message, seq"
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
def temporary_spool(names: Sequence[str]) -> Generator[Spool]:
    """A spool in a new temporary directory, removed (database and all) when the block ends."""
    with tempfile.TemporaryDirectory(prefix="harness-spool-") as folder:
        spool = Spool(Path(folder) / "spool.sqlite", names)
        try:
            yield spool
        finally:
            spool.close()
