"""``harness audit``: the command line over :mod:`harness.audit` (registered in ``harness.cli``).

Exit codes: 0 when every failure of a ``--fail-on`` kind (reject and degrade by default)
is accepted by the baseline (or there is none), 1 when some failure is not, 2 with one
line on stderr for unusable options, or when some cassette could not be read (each named
on stderr and skipped; the reports cover the rest). ``policy`` findings are listed, never fatal by default.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer

from harness.audit.model import DEFAULT_EXAMPLES
from harness.contract.kinds import DEFAULT_FAIL_ON, parse_kinds

__all__ = ["audit", "fail"]


def fail(message: str) -> NoReturn:
    """Exit 2 with one line on stderr: ``harness: MESSAGE``."""
    typer.echo(f"harness: {message}", err=True)
    raise typer.Exit(2)


def audit(
    target: Annotated[str, typer.Option(help="Adapter set to audit.")] = "reference",
    baseline: Annotated[
        Path | None,
        typer.Option(help="An earlier audit.json (known failures, earlier bodies) or a goldens directory."),
    ] = None,
    out: Annotated[Path, typer.Option(help="Directory for audit.json, audit.html and audit.md.")] = Path(
        "report"
    ),
    provider: Annotated[list[str] | None, typer.Option(help="Limit to these providers (repeatable).")] = None,
    model: Annotated[
        str | None, typer.Option(help="Render every case with this model (model-specific code paths).")
    ] = None,
    examples: Annotated[
        int, typer.Option(min=0, help="Generated histories (fixed seed).")
    ] = DEFAULT_EXAMPLES,
    cassettes: Annotated[
        Path | None,
        typer.Option(help="Cassette directory (<provider>/*.yaml); default: the bundled cassettes."),
    ] = None,
    fail_on: Annotated[
        str,
        typer.Option(
            "--fail-on",
            metavar="KINDS",
            help="Finding kinds that fail the run (comma-separated: reject, degrade, policy); "
            "the others are listed only.",
        ),
    ] = ",".join(DEFAULT_FAIL_ON),
) -> None:
    """Run scenarios, generated histories, invariants, schema oracles and cassette replays against a target.

    Writes the conformance matrix to the terminal and to OUT/audit.{json,html,md}; with
    --baseline, also accepts known failures and shows each changed request body as a diff.
    """
    from harness.audit.baseline import BaselineError, compare, load_baseline
    from harness.audit.corpus import CASSETTES
    from harness.audit.invariant_checks import JudgeUnavailable
    from harness.audit.reports import print_report, write_reports
    from harness.audit.reports.files import form_names
    from harness.audit.run import run_audit
    from harness.contract.providers import PROVIDERS
    from harness.kit.netguard import offline
    from harness.outputs import OutputError, check_out_dir
    from harness.progress import progress_bar
    from harness.targets import TargetError, get_target

    try:  # an unwritable --out is found before the run, not after it
        check_out_dir(out, form_names("audit"))
    except OutputError as exc:
        fail(f"--out: {exc}")
    try:
        fatal = parse_kinds(fail_on)
    except ValueError as exc:
        fail(f"--fail-on: {exc}")
    try:
        chosen = get_target(target)
    except TargetError as exc:
        fail(f"--target: {exc}")
    providers = list(provider) if provider else list(chosen.providers())
    for name in providers:
        if name not in PROVIDERS:
            fail(f"--provider: unknown provider '{name}' (expected one of: {', '.join(PROVIDERS)})")
        if name not in chosen.providers():
            fail(f"--provider: target '{target}' does not implement provider '{name}'")
    try:
        before = load_baseline(baseline) if baseline is not None else None
    except BaselineError as exc:
        fail(f"--baseline: {exc}")
    try:
        # Offline for the whole run: every check also guards itself (harness.audit.checks); this
        # catches what runs between them (the I3 probes) and what the target swallowed there.
        with offline(target) as guard, progress_bar("audit") as advance:  # a bar on a terminal only
            result = run_audit(
                chosen,
                providers,
                examples=examples,
                model=model,
                cassettes=cassettes or CASSETTES,
                progress=lambda line: typer.echo(f"audit: {line}", err=True),
                advance=advance,
            )
    except TargetError as exc:
        fail(f"--target: {exc}")
    except JudgeUnavailable as exc:
        fail(str(exc))
    comparison = compare(result, before, fatal)
    try:
        written = write_reports(result, comparison, out)  # before printing: a closed pipe must not lose them
    except OutputError as exc:
        fail(f"--out: {exc}")
    typer.echo("audit: wrote " + ", ".join(str(p) for p in written.values()), err=True)
    print_report(result, comparison)
    for line in result.unreadable:
        typer.echo(f"harness: {line}", err=True)
    for line in guard.attempts[:1]:
        typer.echo(f"harness: {line}", err=True)
    raise typer.Exit(1 if not comparison.ok or guard.attempts else 2 if result.unreadable else 0)
