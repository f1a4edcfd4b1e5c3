"""``harness compare``: several audits side by side, each square exactly its target's own audit square.

The audits compared are real runs (the reference, a toy target with a deliberate defect,
klaude-code when its environment exists) plus one synthetic audit JSON, labelled as such,
that holds a square in which every case skipped.
"""

from __future__ import annotations

import functools
import io
import json
import re
from pathlib import Path
from typing import Any, cast

import pytest
from rich.console import Console
from typer.testing import CliRunner

from harness.audit import AuditResult, run_audit
from harness.audit.cross import cross_target, load_audit
from harness.audit.model import Outcome, Record
from harness.audit.reports.cross import print_cross, write_cross_reports
from harness.cli.main import app
from harness.targets import get_target
from tests.support.targets import reference_audit, without_max_tokens
from tests.support.worker_targets import load_or_skip


def _synthetic() -> AuditResult:
    """A synthetic audit (not a run of any target): one provider, one passing and one skipped square."""
    records = [
        Record(
            "gemini",
            "synthetic/one",
            "scenario",
            1,
            {"render": Outcome.ok(), "I5": Outcome.skip("no interrupt")},
        ),
        Record(
            "gemini", "synthetic/two", "scenario", 2, {"render": Outcome.ok(), "I5": Outcome.skip("no tools")}
        ),
    ]
    return AuditResult("synthetic", "0", ["gemini"], ["render", "I5"], records, options={"examples": 0})


@pytest.fixture(scope="module")
def audits(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """audit.json files: reference (anthropic, openai-responses), a toy (anthropic) that writes explicit
    nulls, the synthetic one (gemini)."""
    root = tmp_path_factory.mktemp("audits")
    results = {
        "reference": reference_audit(),  # anthropic and openai-responses (shared with the audit's tests)
        "toy": without_max_tokens(),  # the toy that writes explicit nulls (shared with the audit's tests)
        "synthetic": _synthetic(),
    }
    paths: list[Path] = []
    for name, result in results.items():
        (root / name).mkdir()
        path = root / name / "audit.json"
        path.write_text(json.dumps(result.to_json(), sort_keys=True), encoding="utf-8")
        paths.append(path)
    return paths


@functools.cache
def _loaded(path: Path) -> AuditResult:
    """An audit.json read once for the tests that only lay audits out (read only; the determinism
    test and the CLI's read their own)."""
    return load_audit(path)


def _own_squares(path: Path) -> dict[str, Any]:
    return cast(dict[str, Any], json.loads(path.read_text(encoding="utf-8"))["matrix"])


def _check_cells_are_each_audits_own(compared: dict[str, Any], paths: list[Path]) -> None:
    labels = [t["label"] for t in compared["targets"]]
    assert len(labels) == len(paths)
    for label, path in zip(labels, paths, strict=True):
        own = _own_squares(path)
        for provider, row in compared["matrix"].items():
            for check, cells in row.items():
                assert cells[label] == own.get(provider, {}).get(check), (label, provider, check)
        for provider, row in own.items():  # and nothing of the audit is left out
            for check in row:
                assert compared["matrix"][provider][check][label] is not None


def test_each_cell_is_the_targets_own_audit_square(audits: list[Path], tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["compare", *map(str, audits), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    compared = json.loads((tmp_path / "compare.json").read_text(encoding="utf-8"))
    _check_cells_are_each_audits_own(compared, audits)
    assert [t["label"] for t in compared["targets"]] == ["reference", "toy 1", "synthetic 0"]
    assert compared["providers"] == ["anthropic", "openai-responses", "gemini"]
    # the reference audits anthropic and openai-responses, the toy anthropic only, the synthetic audit
    # gemini only: the rest is "not audited"
    assert compared["matrix"]["gemini"]["render"]["toy 1"] is None
    assert compared["matrix"]["gemini"]["render"]["reference"] is None
    assert compared["matrix"]["openai-responses"]["I12"]["toy 1"] is None
    assert compared["matrix"]["anthropic"]["render"]["synthetic 0"] is None
    assert compared["matrix"]["anthropic"]["I8"]["toy 1"]["status"] == "fail"


def test_every_form_is_deterministic_and_says_the_same(audits: list[Path], tmp_path: Path) -> None:
    forms: list[dict[str, bytes]] = []
    for n in range(2):
        cross = cross_target([load_audit(p) for p in audits])
        console = Console(file=io.StringIO(), width=120, color_system=None)
        print_cross(cross, console)
        written = write_cross_reports(cross, tmp_path / str(n))
        forms.append({form: path.read_bytes() for form, path in written.items()})
        forms[-1]["terminal"] = cast(io.StringIO, console.file).getvalue().encode()
    assert forms[0] == forms[1]
    data = json.loads(forms[0]["json"])
    assert data["format"] == "harness-compare/1"
    assert json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n" == forms[0]["json"].decode()
    markdown, html, terminal = (forms[0][f].decode() for f in ("markdown", "html", "terminal"))
    assert "skip: no interrupt; no tools" in markdown  # the skipped square gives its reasons
    assert "skip I5 (synthetic 0): no interrupt; no tools" in terminal
    assert "⛔ reject" in markdown and "✗R" in terminal  # the toy's explicit nulls are rejected
    assert "<script" not in html and "<link" not in html
    assert set(re.findall(r'href="#([^"]+)"', html)) <= set(re.findall(r'id="([^"]+)"', html))
    assert set(re.findall(r"\]\(#([^)]+)\)", markdown)) <= set(
        re.findall(r'<a name="([^"]+)"></a>', markdown)
    )
    # different options are not like for like: every form says so
    assert (
        "different examples" in markdown and "different examples" in html and "different examples" in terminal
    )


@pytest.mark.parametrize(("width", "copies"), [(80, 1), (80, 3), (160, 2)])
def test_the_terminal_form_fits_the_width_and_cuts_nothing(
    audits: list[Path], width: int, copies: int
) -> None:
    cross = cross_target([_loaded(p) for p in audits * copies])
    console = Console(file=io.StringIO(), width=width, color_system=None)
    print_cross(cross, console)
    out = cast(io.StringIO, console.file).getvalue()
    assert all(len(line) <= width for line in out.splitlines()), max(out.splitlines(), key=len)
    assert "…" not in out
    for label in cross.labels:
        assert label in out, label
    failing = [
        cell
        for provider in cross.providers
        for check in cross.checks_of(provider)
        for label in cross.labels
        if (cell := cross.cell(provider, check, label)) is not None and cell.failed
    ]
    assert failing and out.count("✗") == len(failing) + 1  # every failing square, whole, and the key


def test_the_same_target_twice_gets_two_columns(audits: list[Path]) -> None:
    cross = cross_target([_loaded(audits[0]), load_audit(audits[0].parent)])
    assert cross.labels == ["reference", "reference #2"]
    assert cross.notes == []  # same options: nothing to warn about


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "no such file"),
        ("{}", "format: not a harness-audit/2 document"),
        ('{"format": "harness-audit/2", "target": {"name": 3}}', "target.name"),
        ("not json", "bad.json"),
    ],
)
def test_an_unreadable_audit_is_one_line_naming_it(
    audits: list[Path], tmp_path: Path, content: str | None, says: str
) -> None:
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(app, ["compare", str(audits[0]), str(bad), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "bad.json" in lines[0] and says in lines[0], lines
    assert not (tmp_path / "out").exists()


def test_klaude_code_beside_the_reference(tmp_path: Path) -> None:
    klaude = load_or_skip("klaude-code")
    paths: list[Path] = []
    for target in (get_target("reference"), klaude):
        result = run_audit(target, ["anthropic"], examples=1, cassettes=None)
        paths.append(tmp_path / f"{target.name}.json")
        paths[-1].write_text(json.dumps(result.to_json()), encoding="utf-8")
    cross = cross_target([load_audit(p) for p in paths])
    _check_cells_are_each_audits_own(cross.to_json(), paths)
    assert cross.labels[0] == "reference" and cross.labels[1].startswith("klaude-code ")
