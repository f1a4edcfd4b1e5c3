"""The main job: every scenario through every reference adapter and both schema oracles."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from harness.adapters import canonical_json
from harness.oracles import validate
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

    @property
    def ok(self) -> bool:
        return not self.errors and self.deterministic


@dataclass
class Summary:
    cases: list[CaseResult] = field(default_factory=list[CaseResult])

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
                    "warnings": c.warnings,
                }
                for c in self.cases
            ],
        }


def run_conformance(providers: Sequence[str], target: Target | None = None) -> Summary:
    """Render each (provider, scenario) twice (determinism), then validate the body."""
    chosen = target or get_target("reference")
    summary = Summary()
    corpus = load_scenarios()
    for provider in providers:
        for scenario in corpus.values():
            params = scenario.params_for(provider)
            first = chosen.render(provider, scenario.history, params)
            second = chosen.render(provider, scenario.history, params)
            report = validate(provider, first.body)
            summary.cases.append(
                CaseResult(
                    provider=provider,
                    scenario=scenario.name,
                    warnings=len(first.warnings),
                    errors=[str(e) for e in report.errors],
                    allowed=[f"{allowance}: {err}" for err, allowance in report.allowed],
                    deterministic=canonical_json(first.body) == canonical_json(second.body)
                    and first.warnings == second.warnings,
                )
            )
    return summary


def print_summary(summary: Summary, console: Console | None = None) -> None:
    console = console or Console(width=None if Console().is_terminal else 120)
    table = Table(title="Reference adapters x scenario corpus x schema oracles")
    for column in ("provider", "requests", "valid", "oracle errors", "allowed", "warnings", "deterministic"):
        table.add_column(column, justify="left" if column == "provider" else "right")
    for provider, cases in summary.by_provider().items():
        table.add_row(
            provider,
            str(len(cases)),
            str(sum(c.ok for c in cases)),
            str(sum(len(c.errors) for c in cases)),
            str(sum(len(c.allowed) for c in cases)),
            str(sum(c.warnings for c in cases)),
            f"{sum(c.deterministic for c in cases)}/{len(cases)}",
        )
    console.print(table)
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
