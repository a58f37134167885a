"""Every bundled task through the whole cpu pipeline with trusted stand-ins for an honest kernel
(bench/kb_sweep.py, run as a script: it sets the static check and the dispatch guard aside for
torch code, in its own process): the reference itself scores, and the reference computed in
float64, or with TF32 matmuls, passes the correctness stage. A check that refuses an exactly
right output, or tolerances that refuse a more accurate one, fail here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import BUNDLED

ROOT = Path(__file__).resolve().parent.parent


def test_honest_stand_ins_pass_every_bundled_task(tmp_path):
    rows_file = tmp_path / "rows.jsonl"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "kb_sweep.py"), "--kernelbench-dir", str(BUNDLED),
         "--device", "cpu", "--jsonl", str(rows_file)],
        capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for line in rows_file.read_text().splitlines()]
    assert len(rows) == len(list(BUNDLED.glob("level*/*.py"))) == 26
    for row in rows:
        assert row["static"] == "ok", row
        assert row["same"]["stage"] == "scored", row
        assert row["f64"]["stage"] == "correct", row
        assert row["tf32"]["stage"] == "correct", row
