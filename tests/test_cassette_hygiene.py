"""Cassette hygiene: every model call in a committed cassette is replayed by some test.

``test_every_committed_interaction_is_replayed`` is marked ``cassette_hygiene``, so the
harness plugin runs it after every other test of the session and it can read what
they replayed (see harness/record/played.py). It only judges a whole-suite run: with
``-k``, or a file or node id on the command line, it skips and says why. Under xdist
(the default run, ``-n 2``) the test hands the judgement to the controller, which merges
every worker's replays and fails the run when an interaction was never replayed.
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from harness.providers import get_parser
from harness.providers.replay import load_exchanges, replay_exchange
from harness.record.played import PlayRegistry, install_tracking, unplayed
from tests.support.record import CASSETTES, ROOT

pytest_plugins = ["pytester"]
ROUNDTRIP = CASSETTES / "anthropic" / "llmanthropic__haiku35_parallel_tool_use_roundtrip.yaml"


@pytest.mark.cassette_hygiene
def test_every_committed_interaction_is_replayed(
    harness_play_registry: PlayRegistry,
    harness_partial_session: str | None,
    harness_defer_hygiene: Callable[[Sequence[Path], Path], bool],
) -> None:
    cassettes = sorted(CASSETTES.rglob("*.y*ml"))
    if harness_defer_hygiene(cassettes, ROOT):
        return  # an xdist worker of a whole-suite run: the controller judges every worker's replays at the end
    if harness_partial_session:
        pytest.skip(f"cassette hygiene needs the whole suite ({harness_partial_session})")
    missing = unplayed(cassettes, harness_play_registry, root=ROOT)
    assert not missing, "interactions no test replays (remove them or add a test):\n" + "\n".join(missing)


def test_unplayed_names_the_interaction_no_test_replayed(tmp_path: Path) -> None:
    cassette = tmp_path / "anthropic" / "two.yaml"
    cassette.parent.mkdir()
    shutil.copy(ROUNDTRIP, cassette)
    registry = PlayRegistry()
    undo = install_tracking(registry)
    try:
        import harness.providers.replay as replay_module

        first = load_exchanges(cassette, "anthropic")[0]
        replay_module.replay_exchange(get_parser("anthropic"), first)
    finally:
        undo()
    assert unplayed([cassette], registry, root=tmp_path) == [
        "anthropic/two.yaml: interactions[1] POST https://api.anthropic.com/v1/messages: never replayed"
    ]
    assert replay_module.replay_exchange is replay_exchange  # undo restored the session's wrapper


def test_non_model_calls_are_exempt() -> None:
    path = CASSETTES / "openrouter" / "llmopenrouter__gpt41mini_chat_tool_calls_roundtrip.yaml"
    exchanges = load_exchanges(path, "openrouter")
    assert any(not e.is_model_call for e in exchanges)  # GET /models, kept from the original recording
    registry = PlayRegistry()
    for exchange in exchanges:
        if exchange.is_model_call:
            registry.note_exchange(exchange)
    assert unplayed([path], registry) == []


def test_hygiene_fails_a_session_that_leaves_an_interaction_unplayed(pytester: pytest.Pytester) -> None:
    """End to end through the plugin: ordering (hygiene last), the registry, and the failure message."""
    (pytester.path / "cassettes" / "anthropic").mkdir(parents=True)
    shutil.copy(ROUNDTRIP, pytester.path / "cassettes" / "anthropic" / "two.yaml")
    pytester.makepyfile(
        test_a_hygiene=textwrap.dedent(
            """
            from pathlib import Path
            import pytest
            from harness.record.played import unplayed

            @pytest.mark.cassette_hygiene
            def test_hygiene(harness_play_registry, harness_partial_session):
                assert harness_partial_session is None
                found = unplayed(sorted(Path("cassettes").rglob("*.yaml")), harness_play_registry)
                assert not found, "\\n".join(found)
            """
        ),
        test_b_replay=textwrap.dedent(
            """
            from harness.providers.replay import load_exchanges, replay_exchange
            from harness.providers import get_parser

            def test_replays_only_the_first_call():
                first = load_exchanges("cassettes/anthropic/two.yaml", "anthropic")[0]
                replay_exchange(get_parser("anthropic"), first)
            """
        ),
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*test_b_replay.py::test_replays_only_the_first_call PASSED*",
            "*test_a_hygiene.py::test_hygiene FAILED*",  # collected first, run last
            "*two.yaml: interactions[[]1[]] POST*never replayed*",
        ]
    )
    partial = pytester.runpytest("-p", "no:cacheprovider", "-k", "hygiene")
    partial.assert_outcomes(failed=1)  # the inner test asserts a whole-suite session: -k makes it partial


def test_hygiene_under_xdist_is_judged_by_the_controller(pytester: pytest.Pytester) -> None:
    """Two xdist workers: the controller judges the union of their replays and fails the run on a gap."""
    (pytester.path / "cassettes" / "anthropic").mkdir(parents=True)
    shutil.copy(ROUNDTRIP, pytester.path / "cassettes" / "anthropic" / "two.yaml")
    pytester.makepyfile(
        test_a_hygiene=textwrap.dedent(
            """
            from pathlib import Path
            import pytest

            @pytest.mark.cassette_hygiene
            def test_hygiene(harness_defer_hygiene):
                assert harness_defer_hygiene(sorted(Path("cassettes").rglob("*.yaml")), Path.cwd())
            """
        ),
        test_b_replay=textwrap.dedent(
            """
            from harness.providers.replay import load_exchanges, replay_exchange
            from harness.providers import get_parser

            def test_replays_only_the_first_call():
                first = load_exchanges("cassettes/anthropic/two.yaml", "anthropic")[0]
                replay_exchange(get_parser("anthropic"), first)
            """
        ),
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2")
    assert result.ret == 1, result.stdout.str()  # both tests passed: the controller's verdict fails the run
    result.stdout.fnmatch_lines(
        ["*judged by the controller*", "*two.yaml: interactions[[]1[]] POST*never replayed*"]
    )
    assert "interactions[0]" not in result.stdout.str()  # replayed in a worker, merged by the controller


def _imported_from_traffic() -> list[tuple[Path, Path]]:
    """(bundled cassette, the recording under traffic/ it was imported from), by its provenance block."""
    import yaml

    pairs: list[tuple[Path, Path]] = []
    for path in sorted(CASSETTES.glob("*/*.yaml")):
        document: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
        provenance: dict[str, Any] = document.get("provenance") or {}
        source = ROOT / "traffic" / str(provenance.get("original_file", ""))
        if source.is_file():
            pairs.append((path, source))
    return pairs


def test_imported_cassettes_keep_the_recorded_responses_byte_for_byte() -> None:
    """Scrubbing and the harness format change no response byte: Bedrock's binary event-stream
    bodies (``!!binary``) and the dialects' SSE and JSON bodies replay exactly as recorded."""
    pairs = _imported_from_traffic()
    assert any(p.parent.name == "bedrock" for p, _ in pairs), "no bundled Bedrock cassette from traffic/"
    for path, source in pairs:
        ours, theirs = load_exchanges(path, None), load_exchanges(source, None)
        assert [(e.uri, e.status, e.body) for e in ours] == [(e.uri, e.status, e.body) for e in theirs], path
