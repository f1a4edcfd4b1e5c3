"""A progress display for long runs: rich progress on stderr, only when stderr is a terminal.

Why only on a terminal: CI logs and pipes get no control sequences and no noise, and
stdout (where JSON and reports go) is never touched.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Generator
from contextlib import contextmanager

__all__ = ["progress_bar"]


@contextmanager
def progress_bar(label: str, *, ticking: bool = True) -> Generator[Callable[[int, int], None]]:
    """``advance(done, total)`` updates a bar on stderr (a no-op when stderr is not a terminal).

    ``ticking``: a thread redraws the bar (its clock) between advances. Without it the bar is
    redrawn by ``advance`` alone and the process keeps one thread, so it may fork workers
    (``harness.workers``)."""
    if not sys.stderr.isatty():
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
        auto_refresh=ticking,
    ) as progress:
        task = progress.add_task(label, total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total, refresh=not ticking)

        yield advance
