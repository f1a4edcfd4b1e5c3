"""Repo-only tools: run from a checkout (``python tools/<name>.py``), never shipped in the wheel."""

from __future__ import annotations

import sys
from collections.abc import Callable

from harness.outputs import write_text

__all__ = ["write_page"]


def write_page(render: Callable[[], str]) -> None:
    """A generated page's command line: with a path, written atomically (an interrupted run never
    truncates it); without one, to stdout."""
    if len(sys.argv) > 1:
        write_text(sys.argv[1], render())
    else:
        sys.stdout.write(render())
