"""The main job: every scenario through a target's adapters, both schema oracles and the provider rules.

Each (provider, scenario) is rendered twice (determinism), then judged by the published
schema and the SDK's request types (``harness.oracles``) and by the provider's hard
rules (``harness.rules``, calibrated on real traffic).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from harness.contract.channels import render_heard
from harness.contract.rendered import canonical_json
from harness.oracles import describe, validate
from harness.outputs.text_table import terminal_width
from harness.rules import check_body
from harness.scenarios import load_scenarios
from harness.targets import Target, get_target

__all__ = ["CaseResult", "Summary", "print_summary", "run_conformance"]


@dataclass(frozen=True)
class CaseResult:
    provider: str
    scenario: str
    warnings: int
    errors: list[str]
    allowed: list[str]
    deterministic: bool
    #: The render's warning codes (what was dropped or changed, and why: ``harness render`` shows each).
    warning_codes: list[str] = field(default_factory=lambda: [])

    @property
    def ok(self) -> bool:
        return not self.errors and self.deterministic


@dataclass
class Summary:
    cases: list[CaseResult] = field(default_factory=lambda: [])
    target: str = "reference"

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.cases)

    def by_provider(self) -> dict[str, list[CaseResult]]:
        out: dict[str, list[CaseResult]] = {}
        for case in self.cases:
            out.setdefault(case.provider, []).append(case)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "cases": [
                {
                    "allowed": c.allowed,
                    "deterministic": c.deterministic,
                    "errors": c.errors,
                    "provider": c.provider,
                    "scenario": c.scenario,
                    "warning_codes": c.warning_codes,
                    "warnings": c.warnings,
                }
                for c in self.cases
            ],
            "target": self.target,
        }


def run_conformance(
    providers: Sequence[str], target: Target | None = None, progress: Callable[[int, int], None] | None = None
) -> Summary:
    """Render each (provider, scenario) twice (determinism), then judge the body; ``progress(done, total)``."""
    chosen = target or get_target("reference")
    summary = Summary(target=chosen.name)
    corpus = load_scenarios()
    total = len(providers) * len(corpus)
    for provider in providers:
        for scenario in corpus.values():
            if progress is not None:
                progress(len(summary.cases), total)
            params = scenario.params_for(provider)
            first = render_heard(chosen, provider, scenario.history, params)
            second = render_heard(chosen, provider, scenario.history, params)
            report = validate(provider, first.body)
            summary.cases.append(
                CaseResult(
                    provider=provider,
                    scenario=scenario.name,
                    warnings=len(first.warnings),
                    errors=[str(e) for e in report.errors]
                    + [str(f) for f in check_body(provider, first.body)],
                    allowed=[f"{allowance}: {err}" for err, allowance in report.allowed],
                    deterministic=canonical_json(first.body) == canonical_json(second.body)
                    and first.warnings == second.warnings,
                    warning_codes=sorted({w.code for w in first.warnings}),
                )
            )
    return summary


def print_summary(summary: Summary, console: Console | None = None) -> None:
    console = console or Console(width=terminal_width())
    table = Table(
        title=f"{summary.target} adapters x scenario corpus x schema oracles and provider rules",
        title_justify="left",
    )
    for column in ("provider", "requests", "valid", "errors", "allowed", "warned", "stable"):
        table.add_column(column, justify="left" if column == "provider" else "right", no_wrap=True)
    for provider, cases in summary.by_provider().items():
        table.add_row(
            provider,
            str(len(cases)),
            str(sum(c.ok for c in cases)),
            str(sum(len(c.errors) for c in cases)),
            str(sum(len(c.allowed) for c in cases)),
            str(sum(1 for c in cases if c.warnings)),
            f"{sum(c.deterministic for c in cases)}/{len(cases)}",
        )
    console.print(table)
    console.print(
        "valid: no oracle error, no rule broken, both renders identical; errors: oracle errors and "
        "broken provider rules; allowed: oracle errors tolerated by a named allowance "
        "(docs/accepted.md, each with its evidence); warned: requests whose render "
        "warned (a part dropped or changed, by code: see --json); stable: identical in two renders",
        style="dim",
        highlight=False,
    )
    for provider in summary.by_provider():
        missing = [oracle for oracle, target in describe(provider).items() if target == "none (not run)"]
        if missing:  # a dialect that publishes no schema or SDK: never a pass on nothing
            rest = [oracle for oracle in ("spec", "sdk") if oracle not in missing]
            judged = f"the {rest[0]} oracle and its provider rules" if rest else "its provider rules only"
            console.print(
                f"note: {provider}: no {' or '.join(missing)} oracle to run; judged by {judged}",
                style="dim",
                highlight=False,
            )
    for case in summary.cases:
        for error in case.errors:
            console.print(
                f"[red]FAIL[/red] {case.provider} {case.scenario}: {error}", markup=True, highlight=False
            )
        if not case.deterministic:
            console.print(
                f"[red]FAIL[/red] {case.provider} {case.scenario}: two renders differ", highlight=False
            )
    verdict = "[green]all requests valid[/green]" if summary.ok else "[red]conformance failures[/red]"
    console.print(verdict)
