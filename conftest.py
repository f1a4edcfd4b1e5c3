"""Top-level pytest configuration: this repository's Hypothesis profile and the ``golden`` fixture.

The ``harness`` profile is the harness plugin's (registered, never loaded, by the plugin:
installing the package must not change a host project's settings); this repository opts in
here. ``--hypothesis-profile=harness-deep`` still wins: Hypothesis's own plugin loads it later.

typer's ``CliRunner`` builds the click command from the ``Typer`` app on every ``invoke``
(about 35 ms: every command's signature and string annotations evaluated again), which the
CLI tests paid hundreds of times (hypothesis tests invoke it once per example). An app's
commands are fixed at import (``harness.cli.main``), so each app's command is built once.
"""

from __future__ import annotations

import os
from functools import cache

import pytest
import typer.main
import typer.testing
from hypothesis import settings
from syrupy.assertion import SnapshotAssertion

from harness.testing.goldens import GoldenJSON
from harness.testing.pytest_plugin import register_profiles

register_profiles()
settings.load_profile("harness")
setattr(typer.testing, "_get_command", cache(typer.main.get_command))  # noqa: B010 - the runner looks it up there


@pytest.fixture(scope="session", autouse=True)
def _share_corpus_runs(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Under xdist, the whole-corpus runs (``tests.support.traffic``) are computed by one worker."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        from tests.support.traffic import share_between_workers

        share_between_workers(tmp_path_factory.getbasetemp().parent)


@pytest.fixture
def golden(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(GoldenJSON)
