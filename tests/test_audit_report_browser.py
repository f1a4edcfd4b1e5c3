"""The HTML report in a real browser (headless Chromium): summary and legend, working links, no overflow.

Skipped, with the reason, where no Chromium is installed; ``.ci/run`` installs Debian's.
The page is loaded as a user opens it (``file://``), at 1280 px; a small script added to
a copy of the report measures what a reader would see and writes it into the DOM, which
Chromium dumps.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from harness.audit import compare, run_audit, write_reports
from tests.support.targets import ToyTarget

CHROMIUM = next(
    (p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p), None
)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium on PATH (Debian: apt-get install chromium)"
)

_PROBE = """<script>
const inPage = [...document.querySelectorAll('a[href^="#"]')];
const missing = inPage.map(a => a.getAttribute('href').slice(1)).filter(id => !document.getElementById(id));
const matrix = document.querySelector('table.matrix');
const cells = matrix ? [...matrix.querySelectorAll('td.fail')] : [];
const unlinked = cells.filter(td => !td.querySelector('a[href^="#"]')).length;
const overflow = [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .map(e => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '')).slice(0, 5);
document.body.setAttribute('data-probe', JSON.stringify({
  missing, failing: cells.length, unlinked, overflow,
  summary: !!document.getElementById('summary'), legend: !!document.getElementById('legend'),
  scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth}));
</script></body>"""


def _probe(page: Path, tmp_path: Path) -> dict[str, object]:
    assert CHROMIUM is not None
    probed = tmp_path / "probed.html"
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", _PROBE, 1), encoding="utf-8")
    run = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1280,900",
            "--dump-dom",
            probed.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    found = re.search(r"data-probe=\"([^\"]*)\"", run.stdout)
    assert found, run.stderr[-2000:]
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def test_the_html_report_reads_well_in_a_browser(tmp_path: Path) -> None:
    result = run_audit(
        ToyTarget("toy", "1", {"max_tokens": None, "system": None}), examples=2, cassettes=None
    )
    page = write_reports(result, compare(result, None), tmp_path / "report")["html"]
    probe = _probe(page, tmp_path)
    assert probe["summary"] and probe["legend"], probe
    assert probe["failing"] and probe["unlinked"] == 0, probe
    assert probe["missing"] == [], probe
    assert probe["overflow"] == [] and probe["scroll"] == probe["width"], json.dumps(probe)
