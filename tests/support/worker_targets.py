"""Shared checks for targets that run in their own environment (klaude-code, pydantic-ai)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from harness.targets import Target, TargetError, TargetNotInstalled, get_target

__all__ = ["load_or_skip", "or_one_skip", "render_without_library"]


def load_or_skip(name: str) -> Target:
    """The target; a skip with the install hint when it is not installed; an error for any other load failure.

    Only "not installed" is environmental: a target that is there but broken (a NameError in
    its bridge, a worker that dies) must turn the run red with the cause, never skip it.
    """
    try:
        return get_target(name)
    except TargetNotInstalled as exc:
        pytest.skip(str(exc))
    except TargetError as exc:
        pytest.fail(f"target {name!r} is installed but failed to load: {exc}", pytrace=False)


def or_one_skip(name: str, params: Sequence[Any], width: int = 1) -> list[Any]:
    """``params`` when target ``name`` is installed (or broken: its tests then error with the cause);
    otherwise one skipped param with the install hint, so a missing environment is one skip per
    test rather than one per case (``-rs`` lists each environmental reason once per test)."""
    try:
        get_target(name)
    except TargetNotInstalled as exc:
        return [pytest.param(*([None] * width), id="not-installed", marks=pytest.mark.skip(reason=str(exc)))]
    except TargetError:
        pass
    return list(params)


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
