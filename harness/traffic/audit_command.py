"""The ``harness audit-traffic`` command: options, exit status, and where the reports go.

Exit status: 0 clean; 1 when a finding of a ``--fail-on`` kind is not accepted by the
baseline, or when an input could not be read (each one line naming file and interaction;
the run goes on); 2 on bad usage (a missing path, an unknown kind, an unreadable baseline).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from harness.contract.kinds import DEFAULT_FAIL_ON, parse_kinds

__all__ = ["audit_traffic_command", "echo_blocks", "open_spooled"]

R = TypeVar("R")


def _fail(message: str) -> None:
    typer.echo(f"harness: {message}", err=True)
    raise typer.Exit(2)


def echo_blocks(pieces: Iterable[str], size: int = 1 << 16) -> None:
    """Print pieces of text as they come, gathered into blocks of about ``size`` characters (a
    write each, not one per line): a long report is never whole in memory."""
    pending: list[str] = []
    length = 0
    for piece in pieces:
        pending.append(piece)
        length += len(piece)
        if length >= size:
            typer.echo("".join(pending), nl=False)
            pending, length = [], 0
    if pending:
        typer.echo("".join(pending), nl=False)


def open_spooled(
    stack: ExitStack,
    spool: Callable[..., AbstractContextManager[R]],
    label: str,
    paths: list[Path],
    host: list[str] | None,
    jobs: int | None,
) -> R:
    """A traffic command's spooled run (``spool_traffic``, ``spool_calibration``), kept open on
    ``stack`` (its temporary directory goes when the stack closes, on error and Ctrl-C too);
    a missing path or a bad ``--host`` is one line and exit 2."""
    from harness.inputs.yaml_load import read_once
    from harness.progress import progress_bar
    from harness.traffic.hosts import HostMapError, host_map
    from harness.traffic.loader import TrafficInputError

    try:
        hosts = host_map(host or ())
        # each cassette is read once: nothing kept for a second read, memory flat as the corpus grows
        # no clock thread: the process must have one thread to fork its workers
        with read_once(), progress_bar(label, ticking=False) as advance:
            return stack.enter_context(spool(paths, hosts, jobs=jobs, advance=advance))
    except (TrafficInputError, HostMapError) as exc:
        typer.echo(f"harness: {exc}", err=True)
        raise typer.Exit(2) from None


def audit_traffic_command(
    paths: Annotated[
        list[Path], typer.Argument(help="Cassette files (vcrpy YAML, HAR) or directories (recursed).")
    ],
    out: Annotated[
        Path | None, typer.Option("--out", help="Write traffic-audit.{json,md,html} here.")
    ] = None,
    baseline: Annotated[
        Path | None,
        typer.Option("--baseline", help="An earlier audit-traffic JSON report: its findings are accepted."),
    ] = None,
    fail_on: Annotated[
        str, typer.Option("--fail-on", help="Finding kinds that fail the run (reject,degrade,policy).")
    ] = ",".join(DEFAULT_FAIL_ON),
    host: Annotated[
        list[str] | None,
        typer.Option(
            "--host",
            help="HOST=DIALECT: judge calls to HOST as that dialect (openai, azure, compatible, or a Chat "
            "dialect's provider id); also [tool.harness.hosts] in pyproject.toml. Repeatable.",
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            min=1,
            help="Processes that share the files (default: one per core, one per 32 files at most); the report is the same for any number.",
        ),
    ] = None,
) -> None:
    """Audit whatever produced some recorded traffic: every request against the provider checks, every
    consecutive pair of model calls for continuity. Exit 1 on failing findings or unreadable input, 2 on bad usage."""
    # The machinery loads only when the command runs (``harness --help`` stays cheap).
    from harness.outputs import OutputError, check_out_dir
    from harness.traffic.audit import BaselineError, load_baseline, spool_traffic
    from harness.traffic.audit_report import REPORT_NAMES, iter_terminal, report_data, write_reports

    try:
        kinds = parse_kinds(fail_on)
    except ValueError as exc:
        _fail(f"--fail-on: {exc}")
        return
    if out is not None:
        try:  # an unwritable --out is found before the run, not after it
            check_out_dir(out, REPORT_NAMES)
        except OutputError as exc:
            _fail(f"--out: {exc}")
    accepted: set[Any] = set()
    if baseline is not None:
        try:
            accepted = set(load_baseline(baseline))
        except BaselineError as exc:
            _fail(f"--baseline: {exc}")
    # The findings and lines are spooled to a temporary directory, removed when this block ends
    # (on error and Ctrl-C too); the reports read them back in pieces: memory flat as they grow.
    with ExitStack() as spooled:
        result = open_spooled(spooled, spool_traffic, "audit-traffic", paths, host, jobs)
        data = report_data(result, kinds, accepted, str(baseline) if baseline else None)
        echo_blocks(iter_terminal(data))
        if out is not None:
            try:
                written = write_reports(data, out)
            except OutputError as exc:
                _fail(f"--out: {exc}")
                return
            for path in written:
                typer.echo(f"wrote {path}")
        raise typer.Exit(0 if data["ok"] else 1)
