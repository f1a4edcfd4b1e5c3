"""The ``harness import-request`` command: a recorded request body -> canonical history (JSON Lines) and params.

Output: the history as JSON Lines on stdout (``harness.codec``, the same form ``harness
render`` reads), the call params as JSON on stderr (or in ``--params-out FILE``, so
stdout and the file can be fed straight back to ``harness render``), then one
``unrepresented: PATH: reason`` line on stderr for everything the canonical model cannot
hold. Exit status: 0 when imported (even with unrepresented parts: they are reported, and
``--strict`` makes them exit 1); 2 with one line on bad input.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, cast

import typer

from harness.contract.providers import PROVIDERS

__all__ = ["import_request_command"]


def _fail(message: str) -> None:
    typer.echo(f"harness: {message}", err=True)
    raise typer.Exit(2)


def import_request_command(
    body_file: Annotated[
        Path, typer.Argument(metavar="BODY.json", help="A provider request body (JSON object).")
    ],
    provider: Annotated[
        str, typer.Option("--provider", help=f"The body's provider: {', '.join(PROVIDERS)}.")
    ],
    uri: Annotated[
        str | None,
        typer.Option(
            "--uri",
            help="The request URL (Gemini: its model and streaming live in the URL; a Bedrock InvokeModel "
            "URL with --provider anthropic: the body is read inside Bedrock's envelope, the model from the URL).",
        ),
    ] = None,
    params_out: Annotated[
        Path | None, typer.Option("--params-out", help="Write the params JSON here instead of stderr.")
    ] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 when anything is unrepresented.")] = False,
) -> None:
    """Read a recorded request body back into a canonical history (stdout, JSON Lines) and params
    (stderr or --params-out); name on stderr whatever the canonical model cannot represent."""
    # The machinery loads only when the command runs (``harness --help`` stays cheap).
    from harness.codec import dumps_history
    from harness.importer import import_request
    from harness.inputs import InputError, loads_json, read_text
    from harness.outputs import OutputError, write_text

    if provider not in PROVIDERS:
        _fail(f"--provider: unknown provider '{provider}' (expected one of: {', '.join(PROVIDERS)})")
    source = str(body_file)
    try:
        body = loads_json(read_text(body_file), source=source)
    except InputError as exc:
        _fail(str(exc))
        return
    if uri is not None and isinstance(body, dict):
        from harness.contract.routing import BEDROCK_INVOKE, route
        from harness.rules.bedrock_invoke import invoke_view

        routed = route("POST", uri)
        if routed is not None and routed.provider == provider and routed.endpoint == BEDROCK_INVOKE:
            body = invoke_view(cast(dict[str, Any], body), uri)
    try:
        imported = import_request(provider, body, uri=uri)
    except ValueError as exc:
        _fail(f"{source}: (body): {exc}")
        return
    params = json.dumps(
        imported.params.model_dump(mode="json", exclude_none=True), sort_keys=True, ensure_ascii=False
    )
    typer.echo(dumps_history(imported.history), nl=False)
    if params_out is not None:
        try:
            write_text(params_out, params + "\n")
        except OutputError as exc:
            _fail(str(exc))
    else:
        typer.echo(params, err=True)
    for line in imported.unrepresented:
        typer.echo(f"unrepresented: {line}", err=True)
    if strict and imported.unrepresented:
        raise typer.Exit(1)
