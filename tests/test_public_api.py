"""The public surface: ``harness.__all__`` is exactly what an adopter needs, and importing it is cheap."""

from __future__ import annotations

import subprocess
import sys

import harness


def test_all_is_exactly_the_public_names_and_each_resolves() -> None:
    public = [*harness._EXPORTS, *harness._MODULES]  # pyright: ignore[reportPrivateUsage]
    assert sorted(harness.__all__) == sorted(public) and len(set(harness.__all__)) == len(public)
    for name in harness.__all__:
        assert getattr(harness, name) is not None, name
    expected = {"AssistantMessage", "CallParams", "Rendered", "CallResult", "Target", "get_target"}
    assert expected | {"run_invariants", "load_scenarios", "strategies", "kit", "Kind"} <= set(
        harness.__all__
    )
    assert not [n for n in harness.__all__ if n.startswith("_")]


def test_importing_harness_loads_nothing_heavy() -> None:
    code = "import sys, harness; print(sorted(m for m in sys.modules if m.startswith('harness')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['harness']", loaded


def test_the_kit_is_public_and_cheap() -> None:
    assert {"OfflineWire", "WorkerTarget", "final_result", "stop_reason", "usage", "sent_id"} <= set(
        harness.kit.__all__
    )
    for name in harness.kit.__all__:
        assert getattr(harness.kit, name) is not None, name
    code = "import sys, harness.kit; print(sorted(m for m in sys.modules if m.startswith('harness')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['harness', 'harness.kit']", loaded
