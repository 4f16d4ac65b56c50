"""The production entry point starts warm and light (issue 12: a crowd launch).

A gunicorn worker imports ``humaneval.wsgi`` before it accepts a request: every view is
imported then (not by the first crowd worker it serves), and scipy.stats, which only the
expert and metric correlations use, is not imported at all (it was 1-2 s of every web
process's start). A fresh interpreter checks this, since the test process has imported
everything already.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

SCRIPT = """
import json, sys
import humaneval.wsgi
print(json.dumps({
    "views": sorted(m for m in ("annotations.views.worker", "annotations.apis",
                                "ranking.views", "reports.views") if m in sys.modules),
    "scipy.stats": "scipy.stats" in sys.modules,
}))
"""


def test_the_wsgi_application_imports_every_view_and_not_scipy_stats():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "humaneval.settings"}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["views"] == [
        "annotations.apis",
        "annotations.views.worker",
        "ranking.views",
        "reports.views",
    ]
    assert seen["scipy.stats"] is False
