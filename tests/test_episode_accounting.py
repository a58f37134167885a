"""Episode bookkeeping in KernelEnvironment itself, with a stand-in evaluator: which task a
step is scored against and what a failed reset leaves behind."""

from __future__ import annotations

import io
import shutil

import pytest

from kernel_env.models import KernelAction
from server.config import Config
from server.eval_log import EvalLog
from server.evaluation.protocol import EvalResult
from server.tasks import TaskStore
from tests.conftest import BUNDLED, kernel_source

RELU, SIGMOID = "level1/19_ReLU", "level1/21_Sigmoid"


class Recorder:
    """An evaluator that scores nothing and remembers what each step sent it."""

    name = "recorder"

    def __init__(self):
        self.calls = []

    def evaluate(self, code, reference_source, task_id=None, language="triton"):
        self.calls.append((task_id, reference_source))
        return EvalResult(stage="correctness", error_class="output_mismatch", feedback="stand-in")


@pytest.fixture
def env(tmp_path):
    from server.kernel_environment import KernelEnvironment, Services

    (tmp_path / "level1").mkdir()
    for task in (RELU, SIGMOID):
        shutil.copy(BUNDLED / f"{task}.py", tmp_path / f"{task}.py")
    services = Services()
    services.config, services.tasks = Config(max_turns=2), TaskStore(tmp_path)
    services.evaluator, services.log = Recorder(), EvalLog(stream=io.StringIO())
    cls = type("Session", (KernelEnvironment,), {"services": services})
    return cls(), services, tmp_path


def test_a_reset_that_fails_leaves_the_episode_as_it_was(env):
    """A task file that could not be read at reset replaced the episode (turn 0, done cleared,
    the new task id) but kept the old reference source: the next step was scored against the
    old reference under the new task's id and checks, with a fresh turn budget (pass 49)."""
    session, services, root = env
    session.reset(task_id=RELU)
    session.step(KernelAction(code=kernel_source("legit", "relu")))
    session.step(KernelAction(code=kernel_source("legit", "relu")))
    assert session.state.done
    (root / f"{SIGMOID}.py").write_bytes(b"\xff\xfe not text")  # unreadable as UTF-8
    with pytest.raises(UnicodeDecodeError):
        session.reset(task_id=SIGMOID)
    assert session.state.task_id == RELU and session.state.done and session.state.turn == 2
    with pytest.raises(ValueError, match="episode is done"):
        session.step(KernelAction(code=kernel_source("legit", "relu")))
    assert [task for task, _ in services.evaluator.calls] == [RELU, RELU]


def test_every_step_is_scored_against_its_own_episodes_task(env):
    session, services, root = env
    for task in (RELU, SIGMOID, RELU):
        session.reset(task_id=task)
        session.step(KernelAction(code=kernel_source("legit", "relu")))
    expected = [(t, (BUNDLED / f"{t}.py").read_text()) for t in (RELU, SIGMOID, RELU)]
    assert services.evaluator.calls == expected


def test_a_log_that_cannot_be_written_never_fails_a_step(env, capsys):
    """A full disk or a closed stdout lost the step's answer after its turn was spent."""
    session, services, root = env
    closed = io.StringIO()
    closed.close()
    services.log = EvalLog(root, stream=closed)  # a directory: IsADirectoryError on open
    session.reset(task_id=RELU)
    obs = session.step(KernelAction(code=kernel_source("legit", "relu")))
    assert obs.error_class == "output_mismatch" and session.state.turn == 1
    said = capsys.readouterr().err
    assert said.count("cannot write eval log records") == 2  # once per place, not per record
