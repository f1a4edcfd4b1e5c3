"""A live progress line on stderr while a response streams: bytes, SSE events, elapsed time.

Live recordings take seconds to minutes; a silent terminal looks hung. stdout stays
free for machine-readable output, and nothing shown here comes from request headers.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from harness.stream.sse import SSEDecoder

__all__ = ["StreamProgress"]


class StreamProgress:
    """``with progress.track("turn 1/2 anthropic") as on_chunk:`` and feed it every body chunk."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(stderr=True)

    @contextmanager
    def track(self, label: str) -> Generator[Callable[[bytes], None]]:
        decoder = SSEDecoder()
        counts = {"bytes": 0, "events": 0, "chunks": 0}
        columns = (
            SpinnerColumn(),
            TextColumn("{task.description}"),
            TextColumn("{task.fields[stats]}"),
            TimeElapsedColumn(),
        )
        live = self.console.is_terminal  # in logs, the per-turn summary line is enough
        with Progress(*columns, console=self.console, transient=True, disable=not live) as progress:
            task = progress.add_task(label, stats="waiting for the response")

            def on_chunk(chunk: bytes) -> None:
                counts["bytes"] += len(chunk)
                counts["chunks"] += 1
                counts["events"] += len(decoder.feed(chunk))
                stats = (
                    f"{counts['bytes'] / 1000:.1f} kB, {counts['events']} events, {counts['chunks']} chunks"
                )
                progress.update(task, stats=stats)

            yield on_chunk
