"""Every file the harness writes survives a kill, a full disk or a read-only folder (harness.outputs).

The interrupted-write tests run the real command in a subprocess that pauses inside the
writer (``HARNESS_TEST_PAUSE_BEFORE_RENAME``: every temporary file written and fsynced,
no rename yet) and kill it there, so the timing is deterministic. The full-disk and
read-only tests mount a small tmpfs where the machine allows it (root with mount
rights), and skip with the reason where it does not.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Generator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from harness.cli.main import app
from harness.outputs import OutputError, check_out_dir, check_out_file, write_files, write_text
from harness.record.fakeserver import FakeProvider
from tests.support.cassettes import model_calls
from tests.support.record import CASSETTES, key_env, write_history

ROOT = Path(__file__).resolve().parent.parent
RECORDED = CASSETTES / "anthropic" / "llmanthropic__haiku35_parallel_tool_use_roundtrip.yaml"
#: What the killed commands read: DeepSeek has no SDK oracle (rules only), so the subprocess imports
#: no provider SDK (about 1.5 s of CPU apiece with Anthropic's). The report set they write, and so
#: what a kill can leave behind, is the same whatever the provider.
LIGHT_PROVIDER = "deepseek"
LIGHT = CASSETTES / LIGHT_PROVIDER / "models__test_deepseek__test_deepseek_model_thinking_stream.yaml"
CLI = [sys.executable, "-c", "from harness.cli.main import app; app(prog_name='harness')"]
runner = CliRunner()


def _digests(folder: Path) -> dict[str, str]:
    """The digests of the files in ``folder`` (temporary files aside: ``_temps`` counts those)."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file() and not p.name.endswith(".tmp")
    }


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _run_paused(args: list[str], env: dict[str, str], kill: signal.Signals) -> subprocess.Popen[bytes]:
    """Start ``harness ARGS`` paused inside the atomic writer, send ``kill`` there, wait for the end."""
    full_env = {**os.environ, **env, "HARNESS_TEST_PAUSE_BEFORE_RENAME": "60", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [*CLI, *args],
        cwd=ROOT,
        env=full_env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        # A run started in the background of a non-interactive shell inherits SIGINT ignored, and
        # Python then keeps ignoring it: the child gets the default action, so Ctrl-C reaches it.
        preexec_fn=_default_sigint,
    )
    assert proc.stderr is not None
    seen = b""
    deadline = time.monotonic() + 120
    while b"paused before rename" not in seen:
        line = proc.stderr.readline()
        assert line or proc.poll() is None, seen.decode(errors="replace")
        seen += line
        assert time.monotonic() < deadline, "the writer never paused"
    proc.send_signal(kill)
    proc.wait(timeout=60)
    proc.stderr.close()
    return proc


def _earlier(folder: Path, names: list[str]) -> dict[str, str]:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_text(f"the earlier {name}\n", encoding="utf-8")
    return _digests(folder)


KILLS = [signal.SIGINT, signal.SIGTERM, signal.SIGKILL]


@pytest.mark.parametrize("kill", KILLS, ids=lambda s: s.name)
def test_record_killed_mid_write_keeps_the_earlier_cassette(kill: signal.Signals, tmp_path: Path) -> None:
    out_dir = tmp_path / "cassettes"
    before = _earlier(out_dir, ["run.yaml"])
    history = write_history(tmp_path)
    with FakeProvider(model_calls("anthropic", RECORDED)) as fake:
        args = [
            "record",
            "--provider",
            "anthropic",
            "--history",
            str(history),
            "--out",
            str(out_dir / "run.yaml"),
        ]
        proc = _run_paused([*args, "--base-url", fake.base_url, "--retries", "0"], key_env("anthropic"), kill)
    assert proc.returncode != 0
    assert _digests(out_dir) == before  # byte-identical
    if kill != signal.SIGKILL:
        assert _temps(out_dir) == []
    else:  # nothing can catch it: the leftover goes with the next write of that file
        assert len(_temps(out_dir)) == 1
        write_text(out_dir / "run.yaml", "next\n")
        assert _temps(out_dir) == []


@pytest.mark.parametrize("kill", [signal.SIGINT, signal.SIGKILL], ids=lambda s: s.name)  # SIGTERM: audit
def test_audit_traffic_killed_mid_write_keeps_the_earlier_report_set(
    kill: signal.Signals, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    names = ["traffic-audit.html", "traffic-audit.json", "traffic-audit.md"]
    before = _earlier(out, names)
    spools = tmp_path / "tmp"  # the findings' spool (harness/traffic/spool.py) goes to $TMPDIR
    spools.mkdir()
    proc = _run_paused(["audit-traffic", str(LIGHT), "--out", str(out)], {"TMPDIR": str(spools)}, kill)
    assert proc.returncode != 0
    assert _digests(out) == before  # never a new JSON beside the old HTML
    if kill == signal.SIGKILL:
        assert len(_temps(out)) == 3
        assert len(list(spools.iterdir())) == 1  # nothing can catch it
        write_files({out / name: "next\n" for name in names})  # the next write of the set
        assert _temps(out) == [] and _digests(out) != before
    else:
        assert _temps(out) == [] and list(spools.iterdir()) == []


def test_audit_killed_mid_write_keeps_the_earlier_report_set(tmp_path: Path) -> None:
    out = tmp_path / "report"
    before = _earlier(out, ["audit.html", "audit.json", "audit.md"])
    empty = tmp_path / "no-cassettes"
    empty.mkdir()
    args = [
        "audit",
        "--examples",
        "0",
        "--provider",
        LIGHT_PROVIDER,
        "--cassettes",
        str(empty),
        "--out",
        str(out),
    ]
    proc = _run_paused(args, {}, signal.SIGTERM)
    assert proc.returncode == -signal.SIGTERM  # still ends by the signal, after the clean-up
    assert _digests(out) == before and _temps(out) == []


# ---------------------------------------------------------------- targets refused before the work


@pytest.mark.parametrize("kind", ["fifo", "symlink", "device", "directory"])
def test_special_output_targets_are_refused(kind: str, tmp_path: Path) -> None:
    target = tmp_path / "out.yaml"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        (tmp_path / "real.yaml").write_text("x", encoding="utf-8")
        target.symlink_to(tmp_path / "real.yaml")
    elif kind == "device":
        target = Path("/dev/null")
    else:
        target.mkdir()
    with pytest.raises(OutputError) as caught:
        check_out_file(target)
    assert str(target) in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(OutputError):
        write_text(target, "x")
    assert target.exists()  # still what it was: a device, a FIFO, a link, a folder


def test_record_refuses_a_device_before_the_call(tmp_path: Path) -> None:
    history = write_history(tmp_path)
    args = ["record", "--provider", "anthropic", "--history", str(history), "--out", "/dev/null"]
    result = runner.invoke(app, [*args, "--base-url", "http://127.0.0.1:9"], env=key_env("anthropic"))
    assert result.exit_code == 2
    assert (
        result.stderr.strip() == "harness: --out: /dev/null: cannot write: it is a device, not a regular file"
    )


def test_report_targets_inside_out_are_checked(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "traffic-audit.json")
    result = runner.invoke(app, ["audit-traffic", str(RECORDED), "--out", str(tmp_path)])
    assert result.exit_code == 2, result.stderr
    assert "traffic-audit.json: cannot write: it is a FIFO" in result.stderr
    with pytest.raises(OutputError, match="not a directory"):
        check_out_dir(RECORDED)


def test_a_set_is_written_whole_and_modes_are_kept(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("old", encoding="utf-8")
    (tmp_path / "a.md").chmod(0o640)
    write_files({tmp_path / "a.md": "new", tmp_path / "sub" / "a.json": b"{}"})
    assert (tmp_path / "a.md").read_text(encoding="utf-8") == "new"
    assert (tmp_path / "a.md").stat().st_mode & 0o777 == 0o640
    assert (tmp_path / "sub" / "a.json").read_bytes() == b"{}"
    assert _temps(tmp_path) == [] and _temps(tmp_path / "sub") == []


# ---------------------------------------------------------------- full disk, read-only folder


@contextlib.contextmanager
def _tmpfs(where: Path, size: str) -> Generator[Path]:
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(
            f"cannot mount a small tmpfs here ({done.stderr.decode(errors='replace').strip() or 'no mount'})"
        )
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")
def test_full_disk_keeps_the_earlier_report_and_is_one_line(tmp_path: Path) -> None:
    with _tmpfs(tmp_path / "small", "64k") as disk:
        out = disk / "report"
        before = _earlier(out, ["traffic-audit.html", "traffic-audit.json", "traffic-audit.md"])
        room = 4096  # one page left: the report set needs about 8 KiB
        (disk / "filler").write_bytes(b"\0" * (64 * 1024 - 3 * 4096 - room))
        result = runner.invoke(app, ["audit-traffic", str(RECORDED), "--out", str(out)])
        assert result.exit_code == 2, result.stdout[-300:]
        lines = [line for line in result.stderr.splitlines() if line]
        assert lines == [lines[0]] and "No space left on device" in lines[0], result.stderr
        assert _digests(out) == before and _temps(out) == []
        with pytest.raises(OutputError, match="No space left on device"):
            write_text(out / "traffic-audit.json", "x" * 100_000)
        assert _digests(out) == before


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")
def test_read_only_folder_is_refused_before_the_work(tmp_path: Path) -> None:
    with _tmpfs(tmp_path / "ro", "64k") as disk:
        before = _earlier(disk, ["traffic-audit.json"])
        remount = subprocess.run(["mount", "-o", "remount,ro", str(disk)], capture_output=True)
        if remount.returncode != 0:
            pytest.skip("cannot remount the tmpfs read-only here")
        result = runner.invoke(app, ["audit-traffic", str(RECORDED), "--out", str(disk)])
        assert result.exit_code == 2
        assert (
            result.stderr.strip()
            == f"harness: --out: {disk}: cannot write: {disk} is on a read-only file system"
        )
        assert result.stdout == ""  # refused before the run, not after it
        with pytest.raises(OutputError, match="Read-only file system"):
            write_text(disk / "traffic-audit.json", "new")
        assert _digests(disk) == before


def test_goldens_are_written_atomically(tmp_path: Path) -> None:
    from syrupy.data import Snapshot, SnapshotCollection

    from harness.testing.goldens import GoldenJSON

    golden = tmp_path / "goldens" / "x" / "anthropic-plain.json"
    collection = SnapshotCollection(location=str(golden))
    collection.add(Snapshot(name="anthropic-plain", data='{\n  "a": 1\n}\n'))
    GoldenJSON.write_snapshot_collection(snapshot_collection=collection)
    assert golden.read_text(encoding="utf-8") == '{\n  "a": 1\n}\n' and _temps(golden.parent) == []
    os.mkfifo(tmp_path / "goldens" / "x" / "fifo.json")
    with pytest.raises(OutputError, match="FIFO"):  # a golden path that is not a file is never opened
        GoldenJSON.write_snapshot_collection(
            snapshot_collection=SnapshotCollection(
                location=str(golden.parent / "fifo.json"), _snapshots={"f": Snapshot(name="f", data="{}")}
            )
        )
