"""Build ``cassettes/<provider>/`` from the shared real recordings, keeping attribution.

``uv run python -m tools.import_realstreams tests/data/realstreams cassettes``

Each recording becomes a scrubbed cassette in the harness format (parsed request
bodies, literal SSE bodies, sorted keys) with a ``provenance`` block naming the source
repository, path, commit and license. Body-only AI SDK ``.chunks.txt`` files are
converted to one-interaction SSE cassettes and marked ``converted``: their SSE framing
(and Anthropic ``event:`` lines) is synthesized; the payload bytes are the recording's.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import yaml

from harness.outputs import write_text
from harness.providers.replay import chunks_to_sse
from harness.record.cassette_format import dump_cassette
from harness.record.scrub import scrub_interaction

__all__ = ["import_one", "import_realstreams", "read_sources"]

ENDPOINTS = {
    "anthropic": "https://api.anthropic.com/v1/messages",
    "gemini": "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse",
    "openai-chat": "https://api.openai.com/v1/chat/completions",
    "groq": "https://api.groq.com/openai/v1/chat/completions",
    "deepseek": "https://api.deepseek.com/chat/completions",
    "openai-responses": "https://api.openai.com/v1/responses",
    "openrouter": "https://openrouter.ai/api/v1/chat/completions",
}


def read_sources(sources_md: Path) -> dict[str, dict[str, str]]:
    """Rows of SOURCES.md's table keyed by file (``provider/name``)."""
    rows: dict[str, dict[str, str]] = {}
    header: list[str] = []
    for line in sources_md.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not header:
            header = cells
            continue
        if set(cells[0]) <= {"-", " "}:
            continue
        row = dict(zip(header, cells, strict=False))
        rows[row["file"].replace("`", "")] = {k: v.replace("`", "") for k, v in row.items()}
    return rows


def _cassette_name(source: Path) -> str:
    return re.sub(r"\.(chunks\.txt|yaml)$", "", source.name) + ".yaml"


def _provenance(row: dict[str, str], source: Path, converted: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "commit": row.get("commit", ""),
        "license": row.get("license", ""),
        "model": row.get("model(s)", ""),
        "original_file": f"{source.parent.name}/{source.name}",
        "source_path": row.get("path", ""),
        "source_repo": row.get("source repo", ""),
    }
    if converted:
        out["converted"] = (
            "body-only AI SDK chunk file: one recorded JSON payload per line; the SSE framing "
            "(and Anthropic 'event:' lines) and the request line are synthesized, the payloads are verbatim"
        )
    return out


def _convert(source: Path, provider: str, endpoint: str | None = None) -> dict[str, Any]:
    if source.name.endswith(".chunks.txt"):
        body = chunks_to_sse(source.read_text(encoding="utf-8"), provider).decode()
        interaction: dict[str, Any] = {
            "request": {"body": "", "headers": {}, "method": "POST", "uri": endpoint or ENDPOINTS[provider]},
            "response": {
                "body": {"string": body},
                "headers": {"content-type": ["text/event-stream"]},
                "status": {"code": 200, "message": "OK"},
            },
        }
        return {"interactions": [interaction], "version": 1}
    data: dict[str, Any] = yaml.safe_load(source.read_text(encoding="utf-8"))
    return data


def import_one(
    source: Path, provider: str, row: dict[str, str], dest: Path, *, endpoint: str | None = None
) -> Path:
    """One recording -> ``dest/<provider>/<name>.yaml`` (scrubbed, with its provenance block).

    ``row`` is its SOURCES-style row (source repo, path, commit, license, model(s));
    ``endpoint`` overrides the synthesized request URL of a body-only chunk file (it decides
    which provider and wire replay infers, so it must name the API the body came from).
    """
    converted = source.name.endswith(".chunks.txt")
    data = _convert(source, provider, endpoint)
    data["interactions"] = [scrub_interaction(i) for i in data["interactions"]]
    data["provenance"] = _provenance(row, source, converted)
    target = dest / provider / _cassette_name(source)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_text(target, dump_cassette(data))
    return target


def import_realstreams(src: Path, dest: Path) -> list[Path]:
    rows = read_sources(src / "SOURCES.md")
    written: list[Path] = []
    provenance_lines = [
        "# Cassette provenance",
        "",
        "Every cassette here is a real recording from another project's public test suite, scrubbed "
        "(deny-by-default headers, `key=` query parameters, key-like strings) and rewritten in the harness "
        "format by `python -m tools.import_realstreams`. Files marked converted were body-only chunk files.",
        "",
        "| cassette | source repo | path | commit | license | converted |",
        "|---|---|---|---|---|---|",
    ]
    for source in sorted(src.glob("*/*")):
        key = f"{source.parent.name}/{source.name}"
        if key not in rows:
            continue
        provider = source.parent.name
        converted = source.name.endswith(".chunks.txt")
        target = import_one(source, provider, rows[key], dest)
        written.append(target)
        row = rows[key]
        provenance_lines.append(
            f"| `{provider}/{target.name}` | {row.get('source repo', '')} | `{row.get('path', '')}` | "
            f"`{row.get('commit', '')}` | {row.get('license', '')} | {'yes' if converted else 'no'} |"
        )
    write_text(dest / "PROVENANCE.md", "\n".join(provenance_lines) + "\n")
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m tools.import_realstreams SRC_DIR DEST_DIR", file=sys.stderr)
        return 2
    for path in import_realstreams(Path(argv[0]), Path(argv[1])):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
