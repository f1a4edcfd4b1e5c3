"""Shared checks for targets that run in their own environment (klaude-code, pydantic-ai)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.targets import Target, TargetError, get_target

__all__ = ["load_or_skip", "render_without_library"]


def load_or_skip(name: str) -> Target:
    """The target, or a skip that says how to install it (never a vacuous pass)."""
    try:
        return get_target(name)
    except TargetError as exc:
        pytest.skip(str(exc))


def render_without_library(tmp_path: Path, target: str, python_variable: str) -> list[str]:
    """stderr lines of ``harness render --target TARGET`` pointed at an interpreter without the library.

    Skips when this interpreter has the library installed (the error cannot be shown then).
    """
    history = tmp_path / "h.jsonl"
    history.write_text('{"role":"user","parts":[{"type":"text","text":"hi"}]}\n', encoding="utf-8")
    env = {**os.environ, python_variable: sys.executable}
    code = "from harness.cli.main import app; app()"
    args = ["render", str(history), "--provider", "anthropic", "--target", target]
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode == 0:
        pytest.skip(f"this interpreter has {target} installed")
    assert done.returncode == 2, done.stderr
    return done.stderr.strip().splitlines()
