"""The worker host's static pre-check (worker.Host._refused_statically): with steps waiting for
the GPU, a submission the static check refuses is answered from a child forked from the host,
and the warm spare stays for the next step; a submission it passes goes to the spare as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import dataclasses, json, time
from server.evaluation import children, pipeline, worker  # (imported before the host forks: worker.main)
from server.evaluation.protocol import EvalRequest
from tests.conftest import BUNDLED, kernel_source

task = "level1/19_ReLU"
reference = (BUNDLED / f"{task}.py").read_text()
host = worker.Host("cpu", 1)
host.prepare_spare()
spare = host.spares[0].pid
refused = EvalRequest(code="import os\\nclass ModelNew:\\n    pass\\n", reference_source=reference,
                      task_id=task, device="cpu", backlog=1)
first = host.handle(refused)
kept = host.spares[0].pid == spare
legit = dataclasses.replace(refused, code=kernel_source("legit", "relu"))
passes = host._refused_statically(legit) is None
listed = children.exiting()  # the pre-checks' children: none left for a job to wait for
alone = host.handle(dataclasses.replace(refused, backlog=0))  # no step waits: the spare checks it
taken = host.spares[0].pid != spare
check = pipeline.static_check  # a check slower than the pre-check's own limit (a large file)
pipeline.static_check = lambda *args: (time.sleep(worker.PRECHECK_LIMIT_S + 1.0), check(*args))[1]
overran = host._refused_statically(refused) is None  # left to the spare's check
host.close()
print(json.dumps({"first": [first.stage, first.error_class, first.feedback, first.stage_seconds,
                            first.reward],
                  "alone": [alone.stage, alone.error_class, alone.feedback],
                  "kept": kept, "passes": passes, "taken": taken, "listed": listed,
                  "overran": overran}))
"""


def test_a_refused_submission_leaves_the_spare_warm_when_steps_wait():
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    stage, error_class, feedback, seconds, reward = out["first"]
    assert (stage, error_class, reward) == ("static_check", "format_violation", 0.0), out
    assert "ModelNew must subclass nn.Module" in feedback and "static_check" in seconds
    assert out["kept"], "the spare was taken by a step the static check refused"
    assert out["passes"], "an honest kernel was refused by the pre-check"
    assert out["listed"] == [], "a pre-check's child was left for the next job to wait for"
    # the same verdict from the spare's own check, which then took it
    assert out["alone"] == [stage, error_class, feedback] and out["taken"]
    # a pre-check past its own limit (PRECHECK_LIMIT_S) answers nothing: the spare checks alone
    assert out["overran"]
