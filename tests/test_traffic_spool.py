"""audit-traffic (and calibrate) spool their findings and lines to disk: the reports are the in-memory merge's, byte
for byte, the parent keeps no list of findings, and the temporary spool is always removed."""

from __future__ import annotations

import copy
import gc
import json
import shutil
import tempfile
from collections.abc import Generator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from harness.cli.main import app
from harness.contract.kinds import DEFAULT_FAIL_ON, KINDS
from harness.oracles import PROVIDERS
from harness.traffic.audit import (
    FIGURES,
    SpooledAudit,
    TrafficAudit,
    audit_file,
    audit_traffic,
    load_baseline,
    spool_traffic,
)
from harness.traffic.audit_report import render_html, render_json, render_markdown, report_data
from harness.traffic.calibrate import (
    Calibration,
    Failure,
    Rejection,
    SpooledCalibration,
    calibrate,
    calibrate_file,
    spool_calibration,
)
from harness.traffic.findings import TrafficFinding, one_per_check
from harness.traffic.loader import iter_files
from harness.traffic.spool import Rows, Spool, sort_blob, temporary_spool

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def _in_memory(paths: list[Path]) -> TrafficAudit:
    """The audit as merged before the spool: every share in file order, one_per_check over them all."""
    result = TrafficAudit()
    for path in iter_files(paths):
        part = audit_file(path)
        result.files += part.files
        for name in ("findings", "disagreements", "rejections", "skipped", "unreadable", "notes"):
            getattr(result, name).extend(getattr(part, name))
        for provider, row in part.figures.items():
            mine = result.figures.setdefault(provider, dict.fromkeys(FIGURES, 0))
            for figure, n in row.items():
                mine[figure] += n
    result.findings = one_per_check(result.findings)
    result.disagreements = one_per_check(result.disagreements)
    for provider in PROVIDERS:
        result.figures.setdefault(provider, dict.fromkeys(FIGURES, 0))
    return result


def _listed(data: dict[str, Any]) -> dict[str, Any]:
    return {k: list(cast(Rows[Any], v)) if isinstance(v, Rows) else v for k, v in data.items()}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Bundled cassettes with findings, 4xx, notes and skips; a disagreement (SYNTHETIC: a real cassette
    with its messages emptied, answered 200); an unreadable file; and two copies of a cassette with
    findings named so that file order ('x/a/b' before 'x/a-c') is not the findings' order (by string)."""
    tmp = tmp_path_factory.mktemp("spool")
    source = ROOT / "cassettes" / "anthropic" / "llmanthropic__haiku35_parallel_tool_use_roundtrip.yaml"
    document = yaml.safe_load(source.read_text(encoding="utf-8"))
    document["interactions"] = document["interactions"][:1]
    body = copy.deepcopy(document["interactions"][0]["request"]["parsed_body"])
    body["messages"] = []
    document["interactions"][0]["request"]["parsed_body"] = body
    (tmp / "disagreement.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
    (tmp / "bad.yaml").write_text("interactions: [\n", encoding="utf-8")
    more = ROOT / "traffic" / "pydantic-ai-more"
    found = more / "models__test_groq__test_tool_use_failed_error.yaml"
    (tmp / "x" / "a").mkdir(parents=True)
    shutil.copy(found, tmp / "x" / "a" / "b.yaml")
    shutil.copy(found, tmp / "x" / "a-c.yaml")
    openai = (
        ROOT / "traffic" / "clients2" / "langchain" / "libs" / "partners" / "openai" / "tests" / "cassettes"
    )
    return [
        tmp,
        openai / "test_mcp_builtin_zdr.yaml.gz",
        openai / "test_schema_parsing_failures.yaml.gz",
        ROOT / "traffic" / "pydantic-ai" / "models__test_openai_responses__test_openai_responses_thinking_with_modified_history.yaml",
        more / "models__test_deepseek_responses__test_deepseek_responses_rejects_interleaved_function_calls.yaml",
        more / "models__test_bedrock__test_bedrock_model_other_parameters.yaml",  # edited by hand: not judged
        *sorted((ROOT / "traffic" / "pydantic-ai").glob("models__test_anthropic__*.yaml"))[::6],
    ]  # fmt: skip


def test_the_spooled_reports_are_the_in_memory_reports_byte_for_byte(
    corpus: list[Path], tmp_path: Path
) -> None:
    memory = _in_memory(corpus)
    assert memory.findings and memory.disagreements and memory.rejections and memory.unreadable
    assert memory.skipped and memory.notes
    files = [f.file for f in memory.findings]
    assert files.index(str(corpus[0] / "x" / "a-c.yaml")) < files.index(str(corpus[0] / "x" / "a" / "b.yaml"))
    out = tmp_path / "out"
    baseline = tmp_path / "baseline.json"  # accepts every other finding
    baseline.write_text(json.dumps({"findings": [vars(f) for f in memory.findings[::2]]}), encoding="utf-8")
    for accepted, fail_on in ((set[Any](), DEFAULT_FAIL_ON), (load_baseline(baseline), KINDS)):
        named = str(baseline) if accepted else None
        before = _listed(report_data(memory, fail_on, accepted, named))
        expected = {
            "traffic-audit.json": json.dumps(before, sort_keys=True, indent=1, ensure_ascii=False) + "\n",
            "traffic-audit.md": render_markdown(before, out),
            "traffic-audit.html": render_html(before, out),
        }
        args = ["audit-traffic", *map(str, corpus), "--out", str(out), "--fail-on", ",".join(fail_on)]
        if accepted:
            args += ["--baseline", str(baseline)]
        result = runner.invoke(app, args)
        assert result.exit_code == 1, result.output
        for name, text in expected.items():
            assert (out / name).read_text(encoding="utf-8") == text, name
        with spool_traffic(corpus) as spooled:
            assert (
                render_json(report_data(spooled, fail_on, accepted, named)) == expected["traffic-audit.json"]
            )


@contextmanager
def _made_from_here() -> Generator[None]:
    """What lived before is set aside (``gc.freeze``): ``_alive`` then scans and collects only the
    objects made since, as quickly in a long-lived xdist worker (millions of objects from earlier
    tests) as in a fresh process; every object the run under test makes is still seen."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _alive(kind: Any, folder: Path) -> list[Any]:
    """The objects of ``kind`` alive in this process about a cassette under ``folder`` (made for
    this module alone: another test's fixtures may hold findings about the bundled traffic)."""
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, kind) and o.where.startswith(f"{folder}/")]


def test_the_parent_keeps_counters_not_lists(corpus: list[Path]) -> None:
    with _made_from_here(), spool_traffic(corpus) as spooled:
        assert isinstance(spooled, SpooledAudit)
        for name in ("findings", "disagreements", "rejections", "skipped", "unreadable", "notes"):
            assert isinstance(getattr(spooled, name), Rows), name
        assert not _alive(TrafficFinding, corpus[0])
        assert len(spooled.findings) == len(list(spooled.findings)) > 0
        assert list(spooled.findings) == sorted(spooled.findings, key=TrafficFinding.sort_key)
    assert audit_traffic(corpus).findings == _in_memory(corpus).findings


def _spools() -> list[Path]:
    return sorted(Path(tempfile.gettempdir()).glob("harness-spool-*"))


def test_the_spool_is_removed_after_the_run_and_on_an_interrupt(
    corpus: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with spool_traffic(corpus[1:3]) as spooled:
        (folder,) = _spools()
        assert (folder / "spool.sqlite").is_file() and spooled.findings
    assert _spools() == []
    with pytest.raises(KeyboardInterrupt), spool_traffic(corpus[1:3]):
        assert _spools()
        raise KeyboardInterrupt
    assert _spools() == []

    def interrupted(done: int, total: int) -> None:
        raise KeyboardInterrupt  # during the run, after the first share is spooled

    with pytest.raises(KeyboardInterrupt), spool_traffic(corpus[1:3], advance=interrupted):
        pass
    assert _spools() == []
    audit_traffic(corpus[1:3])
    assert runner.invoke(app, ["audit-traffic", *map(str, corpus[1:3])]).exit_code in (0, 1)
    assert _spools() == []
    assert not any(p.name.startswith("harness-spool-") for p in ROOT.iterdir())  # never in the project


def _finding(file: str, index: int, check: str, path: str = "", message: str = "m") -> TrafficFinding:
    return TrafficFinding(check, "policy", file, index, "anthropic", path, message, "why", 200)


def test_findings_out_of_order_are_sorted_on_disk_as_python_sorts_them() -> None:
    """Code point order, lone surrogates included (a path or message read with surrogateescape)."""
    shares = [
        [_finding("b", 0, "x"), _finding("b", 2, "a")],
        [_finding("a/z", 1, "c", "\udcff"), _finding("a/z", 1, "c", "\uffff")],
        [_finding("a-z", 10, "c", "p", "é"), _finding("a-z", 10, "c", "p", "e")],
        [_finding("b", 1, "y")],
    ]
    with temporary_spool(("findings", "notes"), {"findings": TrafficFinding.sort_key}) as spool:
        for share in shares:
            spool.add("findings", share)
        spool.add("notes", ["two", "one", "\udcff"])
        spool.finish()
        everything = [f for share in shares for f in share]
        assert list(spool.rows("findings")) == sorted(everything, key=TrafficFinding.sort_key)
        assert list(spool.rows("notes")) == ["two", "one", "\udcff"] and len(spool.rows("notes")) == 3


def test_findings_in_order_need_no_sort(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "s.sqlite", ("findings",), {"findings": TrafficFinding.sort_key})
    try:
        spool.add("findings", [_finding("a", 0, "c"), _finding("a", 1, "c")])
        spool.add("findings", [_finding("b", 0, "c")])
        spool.finish()
        assert [f.file for f in spool.rows("findings")] == ["a", "a", "b"]
        assert not spool._db.execute(  # pyright: ignore[reportPrivateUsage]
            "SELECT name FROM sqlite_master WHERE name LIKE '%_sorted'"
        ).fetchall()
    finally:
        spool.close()


_DOCUMENTS: list[dict[str, Any]] = [
    {},
    {"a": [], "b": Rows.of(list[Any]()), "c": None, "d": {}},
    {"z": Rows.of(list[Any]([{"k": [1, {"é": "\u2028"}], "a": []}, "s"])), "a": {"x": [1, 2]}, "m": 3},
]


@pytest.mark.parametrize("data", _DOCUMENTS)
def test_the_json_report_streamed_is_json_dumps(data: dict[str, Any]) -> None:
    assert render_json(data) == json.dumps(_listed(data), sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def _calibrated_in_memory(paths: list[Path]) -> Calibration:
    """The calibration as merged before the spool: every share in file order, lists concatenated."""
    result = Calibration()
    for path in iter_files(paths):
        part = calibrate_file(path)
        for counts, mine in ((part.accepted, result.accepted), (part.accepted_pass, result.accepted_pass)):
            for who, n in counts.items():
                mine[who] = mine.get(who, 0) + n
        for name in ("failures", "rejections", "unreadable", "skipped", "edited", "notes"):
            getattr(result, name).extend(getattr(part, name))
        for aid, calls in part.allowances.items():
            result.allowances.setdefault(aid, []).extend(calls)
    return result


def test_calibrate_prints_from_the_spool_what_the_in_memory_merge_printed(corpus: list[Path]) -> None:
    with _made_from_here(), spool_calibration(corpus) as spooled:
        assert isinstance(spooled, SpooledCalibration) and isinstance(spooled.failures, Rows)
        assert not _alive(Failure | Rejection, corpus[0])
        assert not spooled.ok
        lines = list(spooled.lines())
    memory = _calibrated_in_memory(corpus)
    assert memory.failures and memory.rejections and memory.unreadable and memory.edited
    assert memory.skipped and memory.notes and memory.allowances
    assert lines == memory.lines()
    text = runner.invoke(app, ["calibrate", *map(str, corpus)])
    assert text.exit_code == 1 and text.stdout == "".join(f"{line}\n" for line in memory.lines())
    as_json = runner.invoke(app, ["calibrate", *map(str, corpus), "--json"])
    assert as_json.stdout == json.dumps(memory.to_json(), sort_keys=True, indent=1) + "\n"
    again = calibrate(corpus)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(memory.to_json(), sort_keys=True)


def test_calibrate_removes_its_spool(
    corpus: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with pytest.raises(KeyboardInterrupt), spool_calibration(corpus[1:3]):
        assert _spools()
        raise KeyboardInterrupt
    calibrate(corpus[1:3])
    assert runner.invoke(app, ["calibrate", *map(str, corpus[1:3])]).exit_code in (0, 1)
    assert _spools() == []


_KEYS = st.tuples(st.text(max_size=4), st.integers(-(2**63), 2**63 - 1), st.text(max_size=4))


@given(st.lists(_KEYS, max_size=12))
def test_the_sort_blob_orders_as_python_orders_the_keys(keys: list[tuple[str, int, str]]) -> None:
    assert sorted(keys, key=sort_blob) == sorted(keys)
