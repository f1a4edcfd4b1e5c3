"""syrupy extension: one readable JSON file per snapshot under the top-level ``goldens/`` folder.

A test module ``tests/test_X.py`` owns ``goldens/X/``; each snapshot is named by the
test's parameter id alone (``anthropic-plain_chat.json``), so a golden is easy to find
from a provider and a scenario name.
"""

from __future__ import annotations

import re
from pathlib import Path

from syrupy.data import SnapshotCollection
from syrupy.extensions.json import JSONSnapshotExtension
from syrupy.location import PyTestLocation
from syrupy.types import SnapshotIndex

from harness.data_paths import checkout_goldens_dir
from harness.outputs import write_text

__all__ = ["GOLDENS_DIR", "GoldenJSON"]

GOLDENS_DIR = checkout_goldens_dir()


class GoldenJSON(JSONSnapshotExtension):
    goldens_dir: Path = GOLDENS_DIR

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        stem = Path(test_location.filepath).stem.removeprefix("test_")
        return str(cls.goldens_dir / stem)

    @classmethod
    def matches_test_location(cls, *, test_location: PyTestLocation, snapshot_location: str) -> bool:
        """A golden belongs to the test whose module owns its folder and whose parameter id is its name."""
        path = Path(snapshot_location)
        return path.parent == Path(cls.dirname(test_location=test_location)) and path.stem == (
            cls.get_snapshot_name(test_location=test_location)
        )

    @classmethod
    def get_snapshot_name(cls, *, test_location: PyTestLocation, index: SnapshotIndex = 0) -> str:
        name = super().get_snapshot_name(test_location=test_location, index=index)
        match = re.search(r"\[(.+)\]", name)
        return match.group(1) if match else name

    @classmethod
    def write_snapshot_collection(
        cls, *, snapshot_collection: SnapshotCollection, name_order: dict[str, int] | None = None
    ) -> None:
        """Atomically (``harness.outputs``): an interrupted ``--snapshot-update`` never truncates a golden."""
        data = next(iter(snapshot_collection)).data
        if not isinstance(data, str):
            raise TypeError(f"a golden is text, got {type(data).__name__}")
        write_text(snapshot_collection.location, data)
