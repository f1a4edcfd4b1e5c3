"""The command line as a user meets it: outputs, warnings on stderr, one-line errors with exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

import pytest
from typer.testing import CliRunner

from harness.cli.main import app
from harness.codec import dumps_history
from harness.scenarios import get_scenario, load_scenarios

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def _write_scenario(tmp_path: Path, name: str) -> tuple[Path, Path]:
    scenario = get_scenario(name)
    history = tmp_path / "h.jsonl"
    history.write_text(dumps_history(scenario.history), encoding="utf-8")
    params = tmp_path / "p.json"
    params.write_text(scenario.params.model_dump_json(exclude_none=True), encoding="utf-8")
    return history, params


def test_render_prints_sorted_json_and_warnings_on_stderr(tmp_path: Path) -> None:
    history, params = _write_scenario(tmp_path, "tool_parallel_results_out_of_order")
    result = runner.invoke(app, ["render", str(history), "--provider", "anthropic", "--params", str(params)])
    assert result.exit_code == 0, result.stderr
    body = json.loads(result.stdout)
    assert result.stdout == json.dumps(body, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assert "tool-results-reordered" in result.stderr


def test_render_model_option_overrides_params(tmp_path: Path) -> None:
    history, params = _write_scenario(tmp_path, "plain_single_turn")
    result = runner.invoke(
        app,
        ["render", str(history), "--provider", "openai-chat", "--model", "gpt-4o", "--params", str(params)],
    )
    assert json.loads(result.stdout)["model"] == "gpt-4o"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            '{"role":"user","parts":[{"type":"text","text":"hi"}]}\n{"role":"assistant","parts":[{"type":"tool_call"}]}\n',
            "h.jsonl:2: parts[0].call_id: Field required",
        ),
        ('{"role":"user","parts":[]}\nnot json\n', "h.jsonl:2: (json): invalid JSON"),
    ],
)
def test_render_invalid_history_is_one_line_exit_2(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "h.jsonl"
    path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["render", str(path), "--provider", "gemini"])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0]
    assert "Traceback" not in result.stderr


def test_render_invalid_params_names_file_line_and_field(tmp_path: Path) -> None:
    history, _ = _write_scenario(tmp_path, "plain_single_turn")
    params = tmp_path / "p.json"
    params.write_text('{\n  "model": "x",\n  "max_tokens": "lots"\n}\n', encoding="utf-8")
    result = runner.invoke(app, ["render", str(history), "--provider", "anthropic", "--params", str(params)])
    assert result.exit_code == 2
    assert "p.json:3: max_tokens:" in result.stderr


def test_unknown_provider_and_target_exit_2(tmp_path: Path) -> None:
    history, _ = _write_scenario(tmp_path, "plain_single_turn")
    bad = runner.invoke(app, ["render", str(history), "--provider", "nope"])
    assert bad.exit_code == 2 and "unknown provider 'nope'" in bad.stderr
    bad = runner.invoke(app, ["render", str(history), "--provider", "gemini", "--target", "nope"])
    assert bad.exit_code == 2 and "unknown target 'nope'" in bad.stderr


def test_scenarios_lists_and_prints() -> None:
    listing = runner.invoke(app, ["scenarios"])
    assert listing.exit_code == 0
    assert len(listing.stdout.strip().splitlines()) == len(load_scenarios())
    one = runner.invoke(app, ["scenarios", "plain_single_turn"])
    assert one.stdout == dumps_history(get_scenario("plain_single_turn").history)
    missing = runner.invoke(app, ["scenarios", "plain_single_trun"])
    assert missing.exit_code == 2 and "plain_single_turn" in missing.stderr


def test_replay_cassette_gives_one_object_per_model_call() -> None:
    cassette = ROOT / "cassettes" / "openrouter" / "llmopenrouter__gpt41mini_chat_tool_calls_roundtrip.yaml"
    result = runner.invoke(app, ["replay", str(cassette), "--provider", "openrouter"])
    assert result.exit_code == 0, result.stderr
    calls = json.loads(result.stdout)
    assert len(calls) == 2  # the GET /models interaction is skipped
    assert [sorted(c) for c in calls] == [["errors", "events", "items", "message"]] * 2
    assert calls[0]["message"]["stop_reason"] == "tool_use"
    assert "not a model call" in result.stderr


def test_replay_missing_and_broken_files_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.yaml"), "--provider", "anthropic"])
    assert result.exit_code == 2 and "no such file" in result.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text("interactions: [\n  - {", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(broken), "--provider", "anthropic"])
    assert result.exit_code == 2 and "broken.yaml" in result.stderr and "Traceback" not in result.stderr


def test_replay_through_a_target_without_a_stream_parser_is_one_line_exit_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import harness.targets
    from harness.targets.reference import ReferenceTarget

    class RequestsOnly(ReferenceTarget):
        name = "requests-only"
        lacks = frozenset({"parser"})

    monkeypatch.setattr(harness.targets, "get_target", lambda name: RequestsOnly())  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    cassette = ROOT / "cassettes" / "openrouter" / "llmopenrouter__gpt41mini_chat_tool_calls_roundtrip.yaml"
    result = runner.invoke(app, ["replay", str(cassette), "--target", "requests-only"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == (
        "harness: --target: target 'requests-only' declares no stream parser (lacks 'parser'), "
        "so its output side is not judged; replay needs one"
    )


def test_a_crashing_target_is_one_line_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from collections.abc import Sequence

    import harness.targets
    from harness.contract.rendered import Rendered
    from harness.model import HistoryEvent
    from harness.params import CallParams
    from harness.targets.reference import ReferenceTarget

    class Crashing(ReferenceTarget):
        def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
            raise RuntimeError("boom")

    def crashing(name: str) -> Crashing:
        return Crashing()

    monkeypatch.setattr(harness.targets, "get_target", crashing)  # the CLI looks it up when a command runs
    history, _ = _write_scenario(tmp_path, "plain_single_turn")
    result = runner.invoke(app, ["render", str(history), "--provider", "anthropic"])
    assert result.exit_code == 1
    assert (
        result.stderr.strip()
        == "harness: target 'reference' failed to render for anthropic: RuntimeError: boom"
    )


@pytest.mark.parametrize("columns", [80, 160])
def test_conformance_wraps_its_legend_at_the_terminal_width(
    columns: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The default console is as wide as ``COLUMNS`` says: every line fits, and the legend uses the width."""
    from harness.cli.conformance import Summary, print_summary

    monkeypatch.setenv("COLUMNS", str(columns))
    print_summary(Summary())  # the legend is the same whatever the cases: none are needed
    lines = capsys.readouterr().out.splitlines()
    below_table = max(n for n, line in enumerate(lines) if line.startswith("└")) + 1
    legend = lines[below_table : lines.index("all requests valid")]
    assert lines and max(len(line) for line in lines) <= columns
    assert len(legend) > 1 and legend[0].startswith("valid: ")
    assert max(len(line) for line in legend) > columns - 20, legend  # wrapped at the width, not before


def test_conformance_fits_80_columns_and_names_its_target() -> None:
    import io

    from rich.console import Console

    from harness.cli.conformance import print_summary, run_conformance

    summary = run_conformance(["openai-responses", "anthropic"])
    console = Console(file=io.StringIO(), width=80, color_system=None)
    print_summary(summary, console)
    out = cast(io.StringIO, console.file).getvalue()
    assert "…" not in out
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "openai-responses" in out and "stable" in out
    assert out.startswith("reference adapters")
