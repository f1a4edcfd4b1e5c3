"""tools/relayout.py: the tree is in the new layout, and the rewrite turns old-layout code into new
once and only once (so it can run again after each branch written against the old layout)."""

from __future__ import annotations

import pytest

from tools.relayout import MOVES, rewrite, run

OLD_TO_NEW = [
    ("from harness.cli import app\n", "from harness.cli.main import app\n"),
    (
        "import harness.cli\nmonkeypatch.setattr(harness.cli, 'x', y)\n",
        "import harness.cli.main\nmonkeypatch.setattr(harness.cli.main, 'x', y)\n",
    ),
    ("import harness.cli as cli\n", "import harness.cli.main as cli\n"),
    ("from harness import import_shapes as shapes\n", "from harness.importcheck import shapes\n"),
    ("from harness import cli_style\n", "from harness.cli import style as cli_style\n"),
    (
        "from harness import model, import_pending\n",
        "from harness import model\nfrom harness.importcheck import allowlist as import_pending\n",
    ),
    ("from harness.import_pending import PENDING\n", "from harness.importcheck.allowlist import PENDING\n"),
    ("from harness.replay import replay_file\n", "from harness.providers.replay import replay_file\n"),
    (
        'monkeypatch.setattr("harness.import_check.get_target", f)\n',
        'monkeypatch.setattr("harness.importcheck.check.get_target", f)\n',
    ),
    (
        'importlib.import_module("harness.closed_loop")\n',
        'importlib.import_module("harness.loop.closed_loop")\n',
    ),
    ('harness = "harness.cli:app"\n', 'harness = "harness.cli.main:app"\n'),
    ('harness = "harness.pytest_plugin"\n', 'harness = "harness.testing.pytest_plugin"\n'),
    ("from harness.testing import judge\n", "from harness.testing.suite import judge\n"),
    (
        "see `harness/import_allowlist.py` and tests/test_adapter_gemini.py\n",
        "see `harness/importcheck/allowlist.py` and tests/providers/gemini/test_adapter_gemini.py\n",
    ),
    ("python -m harness.screenshots\n", "python -m tools.screenshots\n"),
    (
        "from tests.test_stream_anthropic import CASES\n",
        "from tests.providers.anthropic.test_stream_anthropic import CASES\n",
    ),
]

CURRENT = [
    "from harness.testing import TargetConformance\n",
    "from harness.cli import style\n",
    "from harness.cli.main import app\n",
    "the harness.testing package\n",
    '_refuse(f"harness.testing: {exc}")\n',
    "from harness.audit.replay_summary import x\n",
    "from harness.providers.replay import replay_file\n",
    "harness/cli/main.py\n",
]


@pytest.mark.parametrize(("old", "new"), OLD_TO_NEW)
def test_old_layout_code_is_rewritten_once(old: str, new: str) -> None:
    assert rewrite(old) == new
    assert rewrite(new) == new


@pytest.mark.parametrize("text", CURRENT)
def test_new_layout_code_is_left_alone(text: str) -> None:
    assert rewrite(text) == text


def test_the_tree_is_in_the_new_layout_with_no_stale_reference() -> None:
    said: list[str] = []
    assert run(check=True, say=said.append) == 0, said


def test_every_move_lands_in_a_package_or_tools() -> None:
    assert all(new.startswith(("harness/", "tools/", "tests/")) for new in MOVES.values())
    assert len(set(MOVES.values())) == len(MOVES)
