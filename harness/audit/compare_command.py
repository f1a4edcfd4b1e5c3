"""``harness compare``: several targets' audits side by side (registered in ``harness.cli``).

It reads the JSON that ``harness audit --out`` writes rather than running targets itself:
each target is audited once, in whatever environment it needs (klaude-code runs in its
own), and CI can compare audits made by separate jobs. Exit codes: 0 with the reports
written, 2 with one line on stderr naming an audit report that cannot be read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["compare_command"]


def compare_command(
    audits: Annotated[
        list[Path],
        typer.Argument(
            metavar="AUDIT",
            help="audit.json files written by `harness audit --out DIR` (or those DIRs), one per target column.",
        ),
    ],
    out: Annotated[
        Path, typer.Option(help="Directory for compare.json, compare.html and compare.md.")
    ] = Path("report"),
) -> None:
    """Show several targets' audits side by side: per provider, one row per check, one column per target.

    Each square is the target's own audit square (failing cases by worst kind, pass, or
    skip with the reason). Writes the terminal form to stdout and OUT/compare.{json,html,md}.
    """
    from harness.audit.command import fail
    from harness.audit.cross import CrossTargetError, cross_target, load_audit
    from harness.audit.reports.cross import print_cross, write_cross_reports
    from harness.audit.reports.files import form_names
    from harness.outputs import OutputError, check_out_dir

    try:  # an unwritable --out is found before the work, not after it
        check_out_dir(out, form_names("compare"))
    except OutputError as exc:
        fail(f"--out: {exc}")
    try:
        results = [load_audit(path) for path in audits]
    except CrossTargetError as exc:
        fail(str(exc))
    cross = cross_target(results)
    try:
        written = write_cross_reports(cross, out)  # before printing: a closed pipe must not lose them
    except OutputError as exc:
        fail(f"--out: {exc}")
    typer.echo("compare: wrote " + ", ".join(str(p) for p in written.values()), err=True)
    print_cross(cross)
