"""``harness scan``: flags planted keys (masked, with file and line), passes the committed cassettes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from harness.cli.main import app
from harness.record.scan import classify, mask, scan_text
from harness.secret_rules import load_rules
from tests.support.record import CASSETTES
from tests.support.secret_samples import EVERY_KIND

runner = CliRunner()
PLANTED = {
    "sk-ant-api03-" + "x" * 40: "anthropic-key",
    "sk-proj-" + "y" * 40: "openai-project-key",
    "AIza" + "z" * 35: "google-api-key",
    "sk-or-v1-" + "0" * 64: "openrouter-key",
    "gsk_" + "q" * 40: "groq-key",
    "org-" + "w" * 24: "openai-organization-id",
}


def test_scan_passes_the_committed_cassettes() -> None:
    result = runner.invoke(app, ["scan", str(CASSETTES)])
    assert result.exit_code == 0, result.stdout
    assert result.stdout == ""
    assert "clean" in result.stderr


def test_scan_flags_planted_keys_masked(tmp_path: Path) -> None:
    clean = tmp_path / "clean.yaml"
    clean.write_text("interactions: []\n", encoding="utf-8")
    planted = tmp_path / "sub" / "leak.yaml"
    planted.parent.mkdir()
    lines = ["interactions: []", *(f"# line with {k}" for k in PLANTED)]
    planted.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["scan", str(tmp_path)])
    assert result.exit_code == 1
    reported = result.stdout.splitlines()
    assert len(reported) == len(PLANTED)
    for line_number, (secret, kind) in enumerate(PLANTED.items(), start=2):
        label = f"identifier {kind}" if kind.endswith("-id") else kind
        assert f"{planted}:{line_number}: {label}: " in result.stdout
        assert secret not in result.stdout + result.stderr
    assert "5 secret-like string(s) found" in result.stderr
    assert "1 identifier(s), not secrets" in result.stderr


def test_identifiers_alone_are_reported_but_not_a_failure(tmp_path: Path) -> None:
    (tmp_path / "headers.json").write_text(
        '{"openai-project": "proj_' + "a1B2" * 6 + '"}\n', encoding="utf-8"
    )
    result = runner.invoke(app, ["scan", str(tmp_path)])
    assert result.exit_code == 0, result.stdout
    assert ": identifier openai-project-id: proj_*** (29 chars)" in result.stdout


@pytest.mark.parametrize(
    ("name", "honoured"), [("keys.py", True), ("leak.yaml", False), ("body.json", False)]
)
def test_gitleaks_allow_marks_a_source_line_never_a_recording(
    name: str, honoured: bool, tmp_path: Path
) -> None:
    """Gitleaks' inline ``gitleaks:allow`` keeps a test's deliberate fake key out of the report, in
    source files only: a recorded body can hold any text the agent read, the marker included."""
    key = "sk-ant-api03-" + "x" * 40
    (tmp_path / name).write_text(f'FAKE = "{key}"  # gitleaks:allow\nREAL = "{key}"\n', encoding="utf-8")
    result = runner.invoke(app, ["scan", str(tmp_path)])
    assert result.exit_code == 1
    assert [line.split(":")[1] for line in result.stdout.splitlines()] == (["2"] if honoured else ["1", "2"])
    assert ("1 finding(s) on 1 source line(s) marked gitleaks:allow" in result.stderr) == honoured


def test_scan_sees_keys_yaml_folds_or_escapes(tmp_path: Path) -> None:
    key = "sk-ant-api03-" + "k" * 40
    folded = (
        f'uri: "https://h/p?\\\n  x={key[:10]}\\\n  {key[10:]}"\n'  # a double-quoted scalar folded mid-key
    )
    findings = scan_text(folded, "c.yaml")
    assert [(f.line, f.kind) for f in findings] == [(1, "anthropic-key")]


def test_mask_and_classify_never_return_the_secret() -> None:
    for secret, kind in PLANTED.items():
        assert classify(secret) == kind
        assert secret not in mask(secret)
        assert mask(secret).endswith(f"({len(secret)} chars)")
    assert classify("Bearer " + "t0Kx" * 8) == "bearer-token"
    assert classify("Bearer " + "t" * 30) == "key"  # gitleaks: one repeated letter is a placeholder


def test_scan_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["scan", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert result.stderr.startswith("harness: no such file or directory")


def _every_kind() -> dict[str, str]:
    tail = "0123456789abcdefghijABCDEFGHIJ0123456789"
    return {
        **EVERY_KIND,
        "aws-secret-access-key": "aws_secret_access_key = " + "wJalrXUtnFEMI/K7MDENG/bPxRfiCYCANARYKEY0",
        "private-key": "-----BEGIN RSA " + "PRIVATE KEY-----",
        "azure-storage-key": "AccountKey=" + tail * 2 + "==",
    }


def _cassette_forms(secret: str) -> dict[str, str]:
    """The secret in a plain line, a URL path, a gzip !!binary body and a base64 string body."""
    import base64
    import gzip

    import yaml

    def interaction(uri: str, body: object) -> str:
        return yaml.safe_dump(
            {
                "interactions": [
                    {"request": {"method": "POST", "uri": uri}, "response": {"body": {"string": body}}}
                ]
            }
        )

    return {
        "plain.txt": f"config: {secret}\n",
        "path.yaml": interaction(f"https://proxy.example/v1/{secret}/messages", ""),
        "gzip.yaml": interaction("https://x/v1/messages", gzip.compress(f"data: {secret}\n".encode())),
        "base64.yaml": interaction(
            "https://x/v1/messages", base64.b64encode(f'{{"k": "{secret}"}}'.encode()).decode()
        ),
    }


@pytest.mark.parametrize("kind", sorted(_every_kind()))
def test_scan_catches_every_kind_everywhere(kind: str, tmp_path: Path) -> None:
    secret = _every_kind()[kind]
    for name, text in _cassette_forms(secret).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    from harness.record.scan import scan_paths

    result = scan_paths([tmp_path])
    assert result.skipped == []
    assert sorted({Path(f.path).name for f in result.findings}) == sorted(_cassette_forms(secret)), kind
    assert all(secret not in str(f) for f in result.findings)


@given(
    text=st.lists(
        st.sampled_from(sorted({k for r in load_rules() for k in r.keywords})) | st.text(max_size=8),
        max_size=8,
    ).map("".join)
)
def test_the_keyword_prefilter_runs_exactly_the_rules_with_a_keyword_in_the_text(text: str) -> None:
    """One RE2 set pass stands for a substring test per keyword of each rule (non-ASCII text included)."""
    from harness.record.secrets import _candidates  # pyright: ignore[reportPrivateUsage]

    lower = text.lower()
    expected = [r for r in load_rules() if not r.keywords or any(k in lower for k in r.keywords)]
    assert _candidates(lower) == expected
