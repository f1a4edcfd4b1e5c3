"""Terminal screenshots for the docs: ``python -m tools.screenshots [--before COMMIT] [--out DIR]``.

Each shot runs a ``harness`` command in a child process as a terminal of a given width
would see it (``COLUMNS``, ``FORCE_COLOR``: colour and width as on a terminal; stderr,
where progress goes, is left out), turns the ANSI output into an SVG with rich's
recording console, and the SVG into a PNG with headless Chromium (skipped, with a line
saying so, when there is none), shrunk by pngquant when it is on PATH (Debian: apt-get
install chromium pngquant). ``--before COMMIT`` takes the same shots of an older
commit's code (``git archive`` into a temporary directory; the checkout is not touched).
Nothing here is random and nothing reads the clock, so the SVGs are byte-identical from
run to run; no test runs it (klaude-code needs its own environment). The HTML report of
the same audit is shot too, its first screen (title, summary, matrix, legend), as
``audit-klaude-code-html[-before].png``.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from harness.outputs import write_text

__all__ = ["SHOTS", "WIDTHS", "Shot", "main"]

ROOT = Path(__file__).resolve().parent.parent
WIDTHS = (80, 160)


@dataclass(frozen=True)
class Shot:
    """A command to shoot; ``cut``: keep up to the first line matching it, ``after`` more, and the last line."""

    name: str
    args: tuple[str, ...]
    cut: str | None = None
    after: int = 0

    @property
    def command(self) -> str:
        return "harness " + " ".join(self.args)


#: The audit's first screens (the matrix, up to the summary line, and what follows it) and its
#: verdict, not its hundreds of lines of findings: what a maintainer sees at a glance. The cut
#: is made at the same line before and after, so the two can be compared.
SHOTS = (
    Shot(
        "audit-klaude-code", ("audit", "--target", "klaude-code"), cut=r"klaude-code \S+: \d+ cases", after=22
    ),
    Shot("conformance", ("conformance",)),
)

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def cut(ansi: str, shot: Shot) -> str:
    """``ansi`` shortened as ``shot`` says, the cut marked with a line saying how much went."""
    lines = ansi.rstrip("\n").split("\n")
    plain = [_ANSI.sub("", line) for line in lines]
    start = next((n for n, line in enumerate(plain) if shot.cut and re.match(shot.cut, line)), None)
    if start is None or start + shot.after + 2 >= len(lines):
        return ansi
    keep = start + shot.after + 1
    gone = len(lines) - keep - 1
    marker = f"\x1b[2m⋮ {gone} more lines (each failing square's smallest case; see the HTML report)\x1b[0m"
    return "\n".join([*lines[:keep], marker, lines[-1]]) + "\n"


def _run(shot: Shot, width: int, source: Path, workdir: Path) -> str:
    """The command's stdout (ANSI) at ``width`` columns, run from ``source``'s code in ``workdir``."""
    env = {
        **os.environ,
        "COLUMNS": str(width),
        "LINES": "50",
        "FORCE_COLOR": "1",
        "TERM": "xterm-256color",
        "PYTHONPATH": str(source),
        "HARNESS_KLAUDE_PYTHON": os.environ.get(
            "HARNESS_KLAUDE_PYTHON", str(ROOT / ".venv-klaude/bin/python")
        ),
    }
    env.pop("NO_COLOR", None)
    done = subprocess.run(
        [sys.executable, "-c", "from harness.cli.main import app; app()", *shot.args],
        cwd=workdir,
        env=env,
        capture_output=True,
        check=False,
    )
    if done.returncode not in (0, 1):  # 1: the command found failures, which is what the shot shows
        last = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        raise SystemExit(
            f"screenshots: {shot.command} at {width} columns exited {done.returncode}: {last[0]}"
        )
    return done.stdout.decode("utf-8")


def to_svg(ansi: str, width: int, title: str) -> str:
    """The terminal output as rich's SVG (a window titled ``title``), lines as they were, none re-wrapped."""
    console = Console(
        record=True, width=width, file=io.StringIO(), force_terminal=True, color_system="truecolor"
    )
    for line in ansi.rstrip("\n").split("\n"):
        console.print(Text.from_ansi(line), no_wrap=True, crop=True, soft_wrap=False)
    return console.export_svg(title=title)


def _screenshot(chromium: str, url: str, size: tuple[int, int], png: Path, profile: str) -> None:
    """Headless Chromium's screenshot of ``url`` in a window of ``size``."""
    width, height = size
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--force-device-scale-factor=1",
            f"--user-data-dir={profile}/data",
            f"--window-size={width},{height}",
            f"--screenshot={png.resolve()}",
            url,
        ],
        capture_output=True,
        check=True,
        timeout=120,
    )


def _chromium() -> str | None:
    return next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)


def to_png(svg: Path, png: Path, chromium: str) -> None:
    """The SVG at its own size, through headless Chromium."""
    found = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg.read_text(encoding="utf-8"))
    if found is None:
        raise SystemExit(f"screenshots: {svg}: no viewBox")
    width, height = (round(float(v)) for v in found.groups())
    with tempfile.TemporaryDirectory() as profile:
        page = Path(profile) / "page.html"
        page.write_text(
            f'<html><body style="margin:0;background:#fff"><img src="{svg.resolve().as_uri()}"></body></html>',
            encoding="utf-8",
        )
        _screenshot(chromium, page.as_uri(), (width, height), png, profile)
    pngquant = shutil.which("pngquant")
    if (
        pngquant is not None
    ):  # a terminal has few colours: a 32-colour palette keeps it sharp at a third of the size
        subprocess.run(
            [pngquant, "--force", "--strip", "--speed", "1", "32", "--output", str(png), str(png)],
            capture_output=True,
            check=True,
        )


#: The HTML report's first screen: title, summary, the matrix and the start of the legend.
HTML_WINDOW = (1280, 1100)


def shoot_html(source: Path, workdir: Path, png: Path, chromium: str) -> None:
    """``harness audit --target klaude-code --out`` from ``source``'s code, its HTML report's first screen."""
    report = workdir / "report"
    _run(
        Shot("audit-klaude-code-html", ("audit", "--target", "klaude-code", "--out", str(report))),
        160,
        source,
        workdir,
    )
    page = report / "audit.html"
    if not page.is_file():
        raise SystemExit(f"screenshots: {page}: the audit wrote no HTML report")
    with tempfile.TemporaryDirectory() as profile:
        _screenshot(chromium, page.resolve().as_uri(), HTML_WINDOW, png, profile)


def _extract(commit: str, into: Path) -> Path:
    """``commit``'s tree (not the checkout) in ``into``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=False)
    if archive.returncode:
        raise SystemExit(f"screenshots: --before {commit}: {archive.stderr.decode().strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.screenshots", description="Terminal screenshots for the docs."
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs/screenshots")
    parser.add_argument(
        "--before", metavar="COMMIT", help="also shoot this commit's code, as <name>-<width>-before"
    )
    parser.add_argument(
        "--shot", choices=[s.name for s in SHOTS], action="append", help="only these (repeatable)"
    )
    parser.add_argument(
        "--no-html", dest="html", action="store_false", help="skip the HTML report's screenshot"
    )
    options = parser.parse_args(argv)
    chromium = _chromium()
    if chromium is None:
        print(
            "screenshots: no Chromium on PATH: SVG only (Debian: apt-get install chromium)", file=sys.stderr
        )
    options.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        sources = [("", ROOT)]
        if options.before:
            sources.append(("-before", _extract(options.before, Path(tmp) / "before")))
        for suffix, source in sources:
            for shot in (s for s in SHOTS if not options.shot or s.name in options.shot):
                for width in WIDTHS:
                    workdir = Path(tmp) / f"run{suffix}-{shot.name}-{width}"
                    workdir.mkdir()
                    ansi = cut(_run(shot, width, source, workdir), shot)
                    svg = options.out / f"{shot.name}-{width}{suffix}.svg"
                    write_text(svg, to_svg(ansi, width, f"{shot.command} ({width} columns)"))
                    if chromium is not None:
                        to_png(svg, svg.with_suffix(".png"), chromium)
                    print(f"screenshots: {svg}", file=sys.stderr)
            if chromium is not None and options.html:
                workdir = Path(tmp) / f"run{suffix}-html"
                workdir.mkdir()
                png = options.out / f"audit-klaude-code-html{suffix}.png"
                shoot_html(source, workdir, png, chromium)
                print(f"screenshots: {png}", file=sys.stderr)


if __name__ == "__main__":
    main()
