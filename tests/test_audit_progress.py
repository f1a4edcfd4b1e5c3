"""``harness audit`` shows a progress bar on a terminal's stderr only, and keeps its one-line stage messages."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

import harness.audit.run
from harness.cli.main import app
from harness.targets import Target
from tests.support.targets import ToyTarget

STAGES = ["audit: anthropic: ", "audit: wrote "]
#: The terminal run audits DeepSeek: it has no SDK oracle, so the subprocess imports no provider SDK
#: (Anthropic's costs about 1.5 s of CPU); its bar and stage lines are drawn by the same code.
TERMINAL_PROVIDER = "deepseek"


def test_no_bar_when_stderr_is_not_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    toy: Target = ToyTarget("toy", "1")
    monkeypatch.setattr("harness.targets.get_target", lambda name: toy)  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    # What stderr shows, not what is judged: three cases draw the stages and advance as 92 would.
    every_case = harness.audit.run.request_cases
    monkeypatch.setattr(harness.audit.run, "request_cases", lambda *a, **k: every_case(*a, **k)[:3])  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    args = ["audit", "--target", "toy", "--examples", "1", "--cassettes", str(tmp_path / "none")]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert [line[: len(stage)] for line, stage in zip(lines, STAGES, strict=True)] == STAGES, lines
    assert "\x1b" not in result.stderr and "\r" not in result.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_a_bar_on_a_terminal_and_the_stage_lines_kept(tmp_path: Path) -> None:
    import pty

    master, slave = pty.openpty()
    args = [
        "audit",
        "--provider",
        TERMINAL_PROVIDER,
        "--examples",
        "1",
        "--cassettes",
        str(tmp_path / "none"),
    ]
    # Ten cases (of 92): the bar and the stage lines between its redraws are drawn as for all of them.
    code = (
        "import harness.audit.run as run; every = run.request_cases; "
        "run.request_cases = lambda *a, **k: every(*a, **k)[:10]; "
        "from harness.cli.main import app; app()"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code, *args, "--out", str(tmp_path / "out")],
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm"},
    )
    os.close(slave)
    chunks: list[bytes] = []

    def drain() -> None:  # a full pseudo-terminal buffer would block the audit
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # the other end closed
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain)
    reader.start()
    assert process.wait(timeout=120) == 0
    reader.join(timeout=10)
    os.close(master)
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert "\x1b[" in shown and "━" in shown, shown[:400]  # the bar
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)
    stages = [stage.replace("anthropic", TERMINAL_PROVIDER) for stage in STAGES]
    for stage in stages:  # whole, between redraws of the bar
        assert re.search(re.escape(stage) + r"[^\r\n]+\r?\n", plain), (stage, plain[-800:])
