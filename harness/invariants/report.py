"""Human-readable output of ``harness check``: violations grouped by invariant, then notes."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from harness.contract.kinds import KINDS
from harness.invariants.registry import INVARIANTS, CheckReport

__all__ = ["print_invariant_list", "print_report"]


def print_invariant_list(console: Console) -> None:
    """One line per invariant: id, pinned name, what it demands."""
    width = max(len(inv.name) for inv in INVARIANTS)
    for inv in INVARIANTS:
        console.print(Text(f"{inv.id:<4} {inv.name.ljust(width)}  {inv.description}"), soft_wrap=True)


def print_report(report: CheckReport, console: Console) -> None:
    for inv in report.invariants:
        found = report.of(inv.id)
        if not found:
            continue
        header = Text(f"{inv.id} {inv.name}: {len(found)} violation(s)", style="bold red")
        console.print(header)
        console.print(Text(f"  why it matters: {inv.why}", style="dim"), soft_wrap=True)
        for v in found:
            where = v.provider or "history"
            if v.message_index is not None:
                where += f" message {v.message_index}"
            console.print(Text(f"  [{v.kind}] {where}: {v.reason}"), soft_wrap=True)
            if v.example:
                console.print(Text(f"    example: {v.example}", style="dim"), soft_wrap=True)
    for note in report.notes:
        console.print(Text(f"note: {note}", style="yellow"), soft_wrap=True)
    providers = ", ".join(report.providers)
    if report.ok:
        console.print(Text(f"all {len(report.invariants)} invariants hold ({providers})", style="green"))
    else:
        broken = len({v.invariant for v in report.violations})
        kinds = ", ".join(f"{sum(v.kind == k for v in report.violations)} {k}" for k in KINDS)
        console.print(
            Text(
                f"{len(report.violations)} violation(s) of {broken} invariant(s) ({kinds}; {providers})",
                style="bold red",
            )
        )
