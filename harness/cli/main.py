"""The ``harness`` command line (pinned in DESIGN.md): render, scenarios, conformance.

Starting it is cheap: this module and the command modules it registers import only typer
and the light contract modules at top level; each command imports its machinery (pydantic
models, the adapters, hypothesis, the oracles) in its own body, so ``harness --version``,
``--help`` and ``render`` pay only for what they run (``tests/test_testing_plugin_guest.py`` counts
the modules ``import harness.cli.main`` loads).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import itertools
import json
import sys
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from harness.cli import style as cli_style
from harness.contract.providers import ENDPOINTS, PROVIDERS

if TYPE_CHECKING:
    from harness.providers.replay import Exchange
    from harness.stream.base import CallResult
    from harness.targets import Target

cli_style.install()
app = typer.Typer(
    help="Conformance and golden-test harness for LLM message/provider mapping.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain (click) help and usage errors: Typer's Rich help imports rich.markdown, markdown-it and
    # pygments, about 0.3 s of CPU, the whole start-up budget of ``harness --help``
    # (tests/test_cli_startup.py counts the modules it loads); the text is the same, without boxes.
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"harness {version('llm-wire-harness')}")
        except PackageNotFoundError:  # a checkout that was never installed
            typer.echo("harness (not installed)")
        raise typer.Exit(0)


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the harness version and exit."
        ),
    ] = False,
) -> None:
    """Conformance and golden-test harness for LLM message/provider mapping."""


def _fail(message: str, code: int = 2) -> NoReturn:
    """One clear line on stderr and a non-zero exit; never a traceback."""
    typer.echo(f"harness: {message}", err=True)
    raise typer.Exit(code)


@contextlib.contextmanager
def _offline(target: str) -> Generator[None]:
    """Drive ``target`` with no network (``harness.kit.netguard``): an attempt the code under audit
    swallowed still ends the command, in one line naming the host and the target (exit 1)."""
    from harness.kit.netguard import offline

    with offline(target) as guard:
        yield
    if guard.attempts:
        _fail(guard.attempts[0], code=1)


@contextlib.contextmanager
def _no_collections() -> Generator[None]:
    """No cyclic garbage collection inside: for a command that builds one large, acyclic result
    (a replay's messages, items and events) and writes it out. Each collection would walk all
    of it again and free nothing (reference counting frees the rest); the few cycles (a parser's
    bound handlers) are collected after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _check_provider(provider: str) -> str:
    if provider not in PROVIDERS:
        _fail(f"--provider: unknown provider '{provider}' (expected one of: {', '.join(PROVIDERS)})")
    return provider


def _load_target(name: str, provider: str | None = None) -> Target:
    from harness.targets import TargetError, get_target

    try:
        target = get_target(name)
    except TargetError as exc:
        _fail(f"--target: {exc}")
    if provider is not None and provider not in target.providers():
        _fail(f"--provider: target '{name}' does not implement provider '{provider}'")
    return target


@app.command()
def render(
    history: Annotated[Path, typer.Argument(help="History file (JSON Lines, one HistoryEvent per line).")],
    provider: Annotated[str, typer.Option(help=f"Provider id: {', '.join(PROVIDERS)}.")],
    target: Annotated[str, typer.Option(help="Adapter set to use.")] = "reference",
    model: Annotated[str | None, typer.Option(help="Model id (overrides PARAMS.json).")] = None,
    params: Annotated[
        Path | None, typer.Option(help="PARAMS.json: system, tools, max_tokens, thinking...")
    ] = None,
    endpoint: Annotated[
        str | None,
        typer.Option(
            help="Where the body goes when not the provider's own API: "
            + "; ".join(f"{', '.join(e)} (--provider {p})" for p, e in ENDPOINTS.items())
            + ". bedrock: AWS Bedrock InvokeModel (anthropic_version in the body, the model in the URL); "
            "vertex: Google Vertex AI generateContent. The URL is a note on stderr."
        ),
    ] = None,
) -> None:
    """Print the request body for HISTORY as JSON (sorted keys); warnings go to stderr."""
    from harness.codec import HistoryError, load_history, load_params
    from harness.contract.channels import render_heard
    from harness.contract.rendered import canonical_json
    from harness.params import CallParams

    _check_provider(provider)
    if endpoint is not None and endpoint not in ENDPOINTS.get(provider, ()):
        known = ", ".join(f"{e} (--provider {p})" for p, names in ENDPOINTS.items() for e in names)
        _fail(f"--endpoint: provider '{provider}' has no endpoint '{endpoint}' (known: {known})")
    chosen = _load_target(target, provider)
    try:
        with _no_collections():  # the loaded history is acyclic: a collection would only walk it again
            events = load_history(history)
        call = load_params(params) if params else CallParams()
    except HistoryError as exc:
        _fail(str(exc))
    # Keep the collector from re-walking the history on every pass of the render (on a 20 MB
    # history that made the render grow twice as fast as the input).
    gc.freeze()
    if model:
        call = call.model_copy(update={"model": model})
    try:
        with _offline(target), _no_collections():  # one large, acyclic body built from the history
            rendered = render_heard(chosen, provider, events, call)
    except typer.Exit:
        raise
    except Exception as exc:  # a target's own crash is a finding, reported in one line
        _fail(f"target '{target}' failed to render for {provider}: {type(exc).__name__}: {exc}", code=1)
    body, warnings, notes = rendered.body, list(rendered.warnings), list[str]()
    if endpoint is not None:
        from harness.providers import get_endpoint

        body, more, notes = get_endpoint(provider, endpoint).to_endpoint(rendered.body, call)
        warnings += more
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    for note in notes:
        typer.echo(f"note: {note}", err=True)
    sys.stdout.write(canonical_json(body))


@app.command()
def replay(
    file: Annotated[
        Path,
        typer.Argument(
            help="Cassette (vcrpy YAML, or LangChain's .yaml.gz), raw SSE body, .chunks.txt, or JSON (array) file."
        ),
    ],
    provider: Annotated[
        str | None,
        typer.Option(
            help=f"Provider id: {', '.join(PROVIDERS)}. Default: from the recorded request URL, "
            "else from the stream's event types."
        ),
    ] = None,
    target: Annotated[str, typer.Option(help="Adapter set to use.")] = "reference",
) -> None:
    """Replay recorded responses: one {message, items, events, errors} per model response, as JSON."""
    from harness.contract.target import parser_missing
    from harness.providers.replay import ReplayInputError, replay_file
    from harness.providers.replay_json import replay_json

    if provider is not None:
        _check_provider(provider)
    chosen = _load_target(target, provider)
    missing = parser_missing(chosen)
    if missing is not None:
        _fail(f"--target: {missing}; replay needs one")

    def run(provider_: str, exchange: Exchange) -> CallResult:
        if provider_ not in chosen.providers():
            _fail(f"--provider: target '{target}' does not implement provider '{provider_}'")
        return chosen.replay(provider_, exchange)

    with _no_collections():
        try:
            with _offline(target):
                results = replay_file(
                    file,
                    provider,
                    replay=run,
                    on_note=lambda note: typer.echo(f"note: {note}", err=True),
                )
        except ReplayInputError as exc:
            _fail(str(exc))
        except typer.Exit:
            raise
        except Exception as exc:  # a target's own crash is a finding, reported in one line
            _fail(f"target '{target}' failed to replay {file}: {type(exc).__name__}: {exc}", code=1)
        # The same text as json.dumps(sort_keys=True, indent=2, ensure_ascii=False), built by
        # orjson with each run of deltas pre-serialised (a 60k-event stream's output is ~120k objects).
        try:
            output = replay_json(results)
        except (
            TypeError
        ) as exc:  # an integer past 64 bits (HARNESS_MAX_INT_DIGITS raised): JSON output has none
            _fail(f"{file}: the replayed result cannot be written as JSON: {exc}")
        sys.stdout.flush()
        sys.stdout.buffer.write(output)
        sys.stdout.flush()
        del output, results  # freed here, not after the collector is back


@app.command()
def scenarios(
    name: Annotated[str | None, typer.Argument(help="Print this scenario as JSONL.")] = None,
    show_params: Annotated[
        bool, typer.Option("--params", help="Print the scenario's PARAMS.json instead.")
    ] = False,
    provider: Annotated[
        str | None, typer.Option(help="With --params: the params as rendered for this provider.")
    ] = None,
) -> None:
    """List the scenario corpus, or print one scenario's history (or params)."""
    from harness.codec import dumps_history
    from harness.contract.rendered import canonical_json
    from harness.scenarios import get_scenario, load_scenarios

    if name is None:
        corpus = load_scenarios()
        width = max(len(n) for n in corpus)
        for scenario in corpus.values():
            typer.echo(f"{scenario.name.ljust(width)}  {scenario.description}")
        return
    try:
        scenario = get_scenario(name)
    except KeyError as exc:
        _fail(str(exc.args[0]))
    if show_params:
        params = scenario.params_for(_check_provider(provider)) if provider else scenario.params
        sys.stdout.write(canonical_json(params.model_dump(mode="json", exclude_none=True)))
    else:
        sys.stdout.write(dumps_history(scenario.history))


@app.command()
def conformance(
    provider: Annotated[list[str] | None, typer.Option(help="Limit to these providers (repeatable).")] = None,
    target: Annotated[str, typer.Option(help="Adapter set to check.")] = "reference",
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Render every scenario for every provider, validate against the schema oracles, summarize.

    Needs no keys and no network. Exits 1 when any request fails an oracle.
    """
    from harness.cli.conformance import print_summary, run_conformance
    from harness.progress import progress_bar

    chosen = _load_target(target)
    providers = [_check_provider(p) for p in provider] if provider else list(chosen.providers())
    with _offline(target), progress_bar("conformance") as advance:
        summary = run_conformance(providers, chosen, advance)
    if as_json:
        sys.stdout.write(json.dumps(summary.to_json(), sort_keys=True, indent=2, ensure_ascii=False) + "\n")
    else:
        print_summary(summary)
    raise typer.Exit(0 if summary.ok else 1)


@app.command()
def check(
    history: Annotated[
        Path | None, typer.Argument(help="History file (JSON Lines, one HistoryEvent per line).")
    ] = None,
    provider: Annotated[
        str | None,
        typer.Option(help=f"Only this provider (default: all of the target's): {', '.join(PROVIDERS)}."),
    ] = None,
    target: Annotated[str, typer.Option(help="Adapter set to check.")] = "reference",
    params: Annotated[
        Path | None, typer.Option(help="PARAMS.json: system, tools, max_tokens, thinking...")
    ] = None,
    list_invariants: Annotated[
        bool, typer.Option("--list", help="List the invariants (id, name, what each demands) and exit.")
    ] = False,
    fail_on: Annotated[
        str,
        typer.Option(
            "--fail-on",
            metavar="KINDS",
            help="Finding kinds that make the exit status 1 (comma-separated: reject, degrade, policy).",
        ),
    ] = "reject,degrade,policy",
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            min=1,
            help="Processes that share the providers (default: one per core); the report is the same for any number.",
        ),
    ] = None,
) -> None:
    """Run every invariant (--list names them) on HISTORY; exits 1 with a report when any is violated (of a --fail-on kind)."""
    from rich.console import Console

    from harness.codec import HistoryError, load_history, load_params
    from harness.contract.kinds import parse_kinds
    from harness.invariants import run_invariants
    from harness.invariants.report import print_invariant_list, print_report
    from harness.params import CallParams
    from harness.workers import default_jobs

    console = Console(width=None if Console().is_terminal else 120, highlight=False)
    if list_invariants:
        print_invariant_list(console)
        return
    if history is None:
        _fail("HISTORY: missing (give a JSON Lines history file, or --list)")
    if provider is not None:
        _check_provider(provider)
    chosen = _load_target(target, provider)
    try:
        with _no_collections():  # the loaded history is acyclic: a collection would only walk it again
            events = load_history(history)
        call = load_params(params) if params else CallParams()
    except HistoryError as exc:
        _fail(str(exc))
    providers = [provider] if provider else list(chosen.providers())
    try:
        fatal = parse_kinds(fail_on)
    except ValueError as exc:
        _fail(f"--fail-on: {exc}")
    # The history lives until exit: keep the collector from re-walking it on every pass
    # (on a 10k-line history that is a third of the run, and grows faster than linearly).
    gc.freeze()
    with _offline(target):
        # Each worker imports and builds only its own providers' SDK oracles (seconds for all of them).
        workers = jobs or min(default_jobs(), len(providers))
        report = run_invariants(events, call, target=chosen, providers=providers, jobs=workers)
    print_report(report, console)
    raise typer.Exit(1 if any(v.kind in fatal for v in report.violations) else 0)


@app.command()
def calibrate(
    paths: Annotated[list[Path], typer.Argument(help="Cassette files or directories (recursed).")],
    as_json: Annotated[bool, typer.Option("--json", help="Machine output (sorted keys).")] = False,
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
            help="Processes that share the files (default: one per core, one per 32 files at most); the result is the same for any number.",
        ),
    ] = None,
) -> None:
    """Judge recorded traffic: every accepted request must pass every reject check; every 4xx must be
    caught by a check or classified. Exit 1 otherwise, 2 on bad usage."""
    from harness.traffic.audit_command import echo_blocks, open_spooled
    from harness.traffic.calibrate import spool_calibration
    from harness.traffic.spool import iter_json

    # the lists are spooled to a temporary directory, removed when this block ends (on error and
    # Ctrl-C too) and printed a piece at a time: memory flat as the corpus grows
    with contextlib.ExitStack() as spooled:
        result = open_spooled(spooled, spool_calibration, "calibrate", paths, host, jobs)
        if as_json:
            echo_blocks(itertools.chain(iter_json(result.to_json(), ensure_ascii=True), ["\n"]))
        else:
            echo_blocks(f"{line}\n" for line in result.lines())
        raise typer.Exit(0 if result.ok else 1)


def main() -> None:  # pragma: no cover - entry point
    app()


from harness.record.commands import diff_command, record_command, scan_command  # noqa: E402

app.command(name="record")(record_command)
app.command(name="scan")(scan_command)
app.command(name="diff")(diff_command)

from harness.audit.command import audit as audit_command  # noqa: E402  (see harness/audit/command.py)


@functools.wraps(audit_command)
def _audit(*args: Any, **kwargs: Any) -> None:
    """Bad input met while loading (a hostile cassette) is one line and exit 2, never a traceback."""
    from harness.inputs import InputError
    from harness.providers.replay import ReplayInputError

    try:
        audit_command(*args, **kwargs)
    except (ReplayInputError, InputError) as exc:
        _fail(str(exc))


app.command(name="audit")(_audit)

from harness.audit.compare_command import compare_command  # noqa: E402

app.command(name="compare")(compare_command)


from harness.traffic.audit_command import audit_traffic_command  # noqa: E402

app.command(name="audit-traffic")(audit_traffic_command)


from harness.cli.import_request import import_request_command  # noqa: E402

app.command(name="import-request")(import_request_command)


@app.command(name="import-check")
def import_check(
    paths: Annotated[list[Path], typer.Argument(help="Cassette files or directories (recursed).")],
    as_json: Annotated[bool, typer.Option("--json", help="Machine output (sorted keys).")] = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="The figures table of the audit document.")
    ] = False,
) -> None:
    """Import every accepted recorded request, render it with the reference adapter, and diff the two.

    Per provider: imported, fully represented, identical, different within the documented
    allowlist (the registry of accepted differences, docs/accepted.md), open (an adapter change decided in
    docs/import-check-decisions.md), different beyond the allowlist (with the paths).
    Exit 1 when any request differs beyond the allowlist, 2 when an input could not be read.
    """
    from harness.importcheck.check import check_traffic, render_json, render_markdown, render_text
    from harness.progress import progress_bar
    from harness.traffic import TrafficInputError

    try:
        with progress_bar("import-check"):
            check = check_traffic(paths)
    except TrafficInputError as exc:
        _fail(str(exc))
    typer.echo(
        (
            render_json(check) if as_json else render_markdown(check) if markdown else render_text(check)
        ).rstrip("\n")
    )
    for line in check.unreadable:
        typer.echo(f"harness: {line}", err=True)
    if any(r.verdict == "beyond" for r in check.requests):
        raise typer.Exit(1)
    if check.unreadable:  # what could not be read was not checked: never a clean pass
        raise typer.Exit(2)
