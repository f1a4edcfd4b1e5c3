"""``harness record``, ``harness scan`` and ``harness diff``: the command-line side of recording.

Registered on the shared app at the end of ``harness/cli/main.py``. Every failure is one
line on stderr and a non-zero exit (2: bad input or missing key; 1: the call, the
safety check or the scan failed), never a traceback, and never the key.
"""

from __future__ import annotations

import datetime
import json
import re
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from harness.contract.providers import PROVIDERS

__all__ = ["diff_command", "record_command", "scan_command"]

_PROVIDER_HELP = f"Provider id: {', '.join(PROVIDERS)}."


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"harness: {message}", err=True)
    raise typer.Exit(code)


def _check_provider(provider: str) -> None:
    if provider not in PROVIDERS:
        _fail(f"--provider: unknown provider '{provider}' (expected one of: {', '.join(PROVIDERS)})")


def _check_recordable(provider: str) -> None:
    from harness.record.endpoints import NOT_RECORDABLE

    if provider in NOT_RECORDABLE:
        _fail(f"--provider: {provider} cannot be recorded yet: {NOT_RECORDABLE[provider]}")


def record_command(
    provider: Annotated[str, typer.Option(help=_PROVIDER_HELP)],
    history: Annotated[Path, typer.Option(help="History to send (JSON Lines, one HistoryEvent per line).")],
    out: Annotated[Path, typer.Option(help="Cassette to write, e.g. cassettes/anthropic/NAME.yaml.")],
    model: Annotated[str | None, typer.Option(help="Model id (overrides PARAMS.json).")] = None,
    base_url: Annotated[
        str | None, typer.Option(help="API base URL, as the provider's SDK takes it (default: the live API).")
    ] = None,
    turns: Annotated[int, typer.Option(min=1, help="Continue the agent loop up to N calls.")] = 1,
    params: Annotated[Path | None, typer.Option(help="PARAMS.json: system, tools, max_tokens...")] = None,
    tool_results: Annotated[
        Path | None, typer.Option(help="JSON object: tool name -> scripted output (default: echo the call).")
    ] = None,
    timeout: Annotated[float, typer.Option(help="Seconds to wait to connect and for each chunk.")] = 120.0,
    retries: Annotated[int, typer.Option(min=0, help="Retries on 429/5xx and network errors.")] = 2,
) -> None:
    """Record live responses to HISTORY into a scrubbed cassette (API key from the provider's env var;
    bedrock: signed with SigV4 from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION)."""
    from harness.codec import HistoryError, load_history, load_params
    from harness.params import CallParams
    from harness.record.client import RecordHTTPError, RetryPolicy
    from harness.record.endpoints import MissingKeyError, api_key_for
    from harness.record.progress import StreamProgress
    from harness.record.session import RecordOptions, record_turns
    from harness.record.tools import ToolScriptError, load_tool_script

    _check_provider(provider)
    _check_recordable(provider)
    try:
        events = load_history(history)
        call = load_params(params) if params else CallParams()
        script = load_tool_script(tool_results)
    except (HistoryError, ToolScriptError) as exc:
        _fail(str(exc))
    if model:
        call = call.model_copy(update={"model": model})
    _check_out(out)
    if base_url is not None:
        _check_base_url(base_url)
    try:
        api_key = api_key_for(provider, base_url=base_url)  # Vertex AI's token for a Vertex base URL
    except MissingKeyError as exc:
        _fail(str(exc))
    options = RecordOptions(
        provider,
        events,
        call,
        api_key,
        base_url,
        turns,
        script,
        timeout,
        RetryPolicy(attempts=retries + 1),
    )

    def note(message: str) -> None:
        typer.echo(message, err=True)

    try:
        recorded = record_turns(options, progress=StreamProgress(), on_note=note)
    except RecordHTTPError as exc:
        _fail(f"{provider}: {exc}", 1)
    _write(out, provider, [t.interaction for t in recorded], api_key, history)


def _check_out(out: Path) -> None:
    """Refuse an unwritable ``--out`` (or a device, FIFO, link or folder) before spending a live call on it."""
    from harness.outputs import OutputError, check_out_file

    try:
        check_out_file(out)
    except OutputError as exc:
        _fail(f"--out: {exc}")


def _check_base_url(base_url: str) -> None:
    """An http(s) URL with a host, or one line and exit 2 (httpx would raise InvalidURL mid-run)."""
    import httpx

    try:
        url = httpx.URL(base_url)
    except (httpx.InvalidURL, TypeError, ValueError):  # its message may quote part of a password
        _fail("--base-url: not a valid URL; expected http(s)://HOST[:PORT][/PATH]")
    if url.scheme not in ("http", "https") or not url.host:
        _fail("--base-url: expected http(s)://HOST[:PORT][/PATH]")


def _model_of(interaction: dict[str, Any]) -> str:
    """The model the request went to: the body's ``model``, or the URL path's (Gemini, Bedrock)."""
    from urllib.parse import unquote

    body = interaction["request"].get("body")
    model: Any = json.loads(body).get("model") if isinstance(body, str) and body.startswith("{") else None
    uri = str(interaction["request"].get("uri", ""))
    found = re.search(r"/models/([^/:?]+)", uri) or re.search(r"/model/([^/?]+)/converse", uri)
    return str(model or (unquote(found.group(1)) if found else "unknown"))


def _write(
    out: Path,
    provider: str,
    interactions: list[dict[str, Any]],
    api_key: str,
    history: Path,
) -> None:
    """Check, write atomically, then show the semantic diff against what was there before."""
    from harness.outputs import OutputError
    from harness.providers.replay import ReplayInputError, load_exchanges
    from harness.record.cassette_io import UnsafeCassetteError, check_clean, render_cassette, write_atomic
    from harness.record.drift import diff_exchanges
    from harness.record.scrub import Known, env_credentials

    previous = None
    if out.exists():
        try:
            previous = load_exchanges(out, provider)
        except ReplayInputError as exc:
            typer.echo(f"note: previous cassette unreadable, no drift report: {exc}", err=True)
    provenance = {
        "history": history.name,
        "model": _model_of(interactions[0]),
        "provider": provider,
        "recorded_on": datetime.date.today().isoformat(),
        "recorded_with": "harness record",
        "turns": len(interactions),
    }
    text = render_cassette(interactions, provenance)
    try:
        check_clean(text, Known.of([api_key]) | env_credentials())
    except UnsafeCassetteError as exc:
        _fail(str(exc), 1)
    try:
        write_atomic(out, text)
    except OutputError as exc:  # the earlier cassette, if any, is unchanged
        _fail(f"--out: {exc}")
    typer.echo(f"wrote {out}: {len(interactions)} interaction(s)", err=True)
    if previous is not None:
        report = diff_exchanges(previous, load_exchanges(out, provider), provider)
        typer.echo(report.render(f"semantic diff against the previous {out}:"), err=True, nl=False)


def scan_command(
    paths: Annotated[list[Path], typer.Argument(help="Files or directories to scan (recursively).")],
    exclude: Annotated[
        list[str] | None, typer.Option(help="Glob of files or directories to skip (repeatable), e.g. .venv.")
    ] = None,
    no_gitignore: Annotated[
        bool, typer.Option("--no-gitignore", help="Scan files that .gitignore files exclude too.")
    ] = False,
    follow_symlinks: Annotated[
        bool,
        typer.Option("--follow-symlinks", help="Follow symlinks that point out of the scanned folders too."),
    ] = False,
) -> None:
    """Report secrets, then account/project ids apart (masked); exit 1 on a secret, 2 when a file was unreadable."""
    from harness.progress import progress_bar
    from harness.record.scan import scan_paths

    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        _fail(f"no such file or directory: {', '.join(missing)}")
    with progress_bar("scan"):
        result = scan_paths(
            paths, excludes=exclude or [], gitignore=not no_gitignore, follow_symlinks=follow_symlinks
        )
    for link in result.not_followed:
        typer.echo(f"note: {link} (--follow-symlinks to scan it)", err=True)
    for finding in result.findings:
        typer.echo(str(finding))
    for finding in result.identifiers:
        typer.echo(str(finding))
    for skipped in result.skipped:
        typer.echo(f"harness: {skipped} (skipped)", err=True)
    if result.identifiers:
        typer.echo(f"harness scan: {len(result.identifiers)} identifier(s), not secrets", err=True)
    if result.allowed:
        lines = len({(f.path, f.line) for f in result.allowed})
        typer.echo(
            f"harness scan: {len(result.allowed)} finding(s) on {lines} source line(s) marked gitleaks:allow, "
            "not reported",
            err=True,
        )
    if result.findings:
        typer.echo(f"harness scan: {len(result.findings)} secret-like string(s) found", err=True)
        raise typer.Exit(1)
    if result.skipped:
        typer.echo(f"harness scan: {len(result.skipped)} file(s) not fully scanned", err=True)
        raise typer.Exit(2)
    typer.echo(f"harness scan: clean ({', '.join(str(p) for p in paths)})", err=True)


def diff_command(
    old: Annotated[Path, typer.Argument(help="The previous cassette.")],
    new: Annotated[Path, typer.Argument(help="The re-recorded cassette.")],
    provider: Annotated[str, typer.Option(help=_PROVIDER_HELP)],
) -> None:
    """Semantic diff of two recordings: request fields (JSON paths) and stream contents. Exit 1 on drift."""
    from harness.providers.replay import ReplayInputError
    from harness.record.drift import diff_files

    _check_provider(provider)
    try:
        report = diff_files(old, new, provider)
    except ReplayInputError as exc:
        _fail(str(exc))
    sys.stdout.write(report.render(f"semantic diff {old} -> {new} ({provider}):"))
    raise typer.Exit(1 if report.drift else 0)
