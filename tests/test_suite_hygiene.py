"""The default run must select every collected test: a deselection switches off two guards.

syrupy reports unused goldens only when every collected test was selected, and the
cassette-hygiene check only judges a full run; a ``-m``/``-k`` in ``addopts`` (for example
to keep expensive tests out) would silently turn both off. Expensive tests skip instead.
"""

from __future__ import annotations

import shlex
import tomllib
from pathlib import Path


def test_default_options_deselect_nothing() -> None:
    config = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text("utf-8"))
    addopts = shlex.split(config["tool"]["pytest"]["ini_options"].get("addopts", ""))
    assert not {"-m", "-k", "--deselect"} & set(addopts), addopts
