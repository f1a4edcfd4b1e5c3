"""The census of recorded streams holding provider-executed tools or citations (issue 34).

    uv run python -m tools.stream_census [PATH ...] [--no-sdk]

Walks every recording under the paths (default: the bundled ``cassettes`` and ``traffic``), and
prints the table of ``harness.crosscheck.census`` (per provider: responses holding server tools,
citations or generated images; those whose every one came out of replay as a part; the official
SDK's agreement on those parts), then one line per response that lost a part or disagrees. Exit 1
when there is such a line. ``tests/test_stream_census.py`` holds the bundled recordings to it.
"""

from __future__ import annotations

import sys

from harness.crosscheck.census import FAMILIES, census, render

__all__ = ["main"]


def main(argv: list[str]) -> int:
    paths = [a for a in argv if not a.startswith("--")] or ["cassettes", "traffic"]
    rows = census(paths, sdk="--no-sdk" not in argv)
    sys.stdout.write(render(rows))
    bad = [r for r in rows if not r.has_parts or r.sdk]
    for row in bad:
        held = " ".join(f"{f}={row.held[f]}/{row.got[f]}" for f in FAMILIES if row.held[f] or row.got[f])
        sys.stdout.write(f"{row.where}: {row.provider}: held/replayed {held}; sdk: {row.sdk or 'agrees'}\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
