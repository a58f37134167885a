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

    def evaluate(self, code, reference_source, task_id=None, language="triton", departure=None):
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
    session.step(KernelAction(code=kernel_source("legit", "relu") + "\nVARIANT = 2\n"))
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


class NoisyScorer:
    """Scores every submission correct, each evaluation a little faster than the last: timing
    noise, which a resubmission of the same code could otherwise redraw."""

    name = "noisy"

    def __init__(self):
        self.codes = []

    def evaluate(self, code, reference_source, task_id=None, language="triton", departure=None):
        self.codes.append(code)
        speedup = 1.0 + 0.1 * len(self.codes)
        return EvalResult(stage="scored", correct=True, reward=speedup, speedup=speedup,
                          feedback=f"speedup {speedup:.2f}")


def test_resubmitting_the_same_kernel_returns_its_result_and_spends_a_turn(env):
    """Four turns of one kernel (re-spaced, re-commented) evaluate it once: the best reward is
    its first measurement, not the luckiest of four draws of the noise."""
    session, services, _ = env
    services.config, services.evaluator = Config(max_turns=4), NoisyScorer()
    session.reset(task_id=RELU)
    code = kernel_source("legit", "relu")
    same = [code, "# tuned\n" + code.replace("\n\n", "\n\n\n"), code + "\n# again\n"]
    observations = [session.step(KernelAction(code=c)) for c in same]
    assert services.evaluator.codes == [code]
    assert [o.reward for o in observations] == [1.1, 1.1, 1.1]
    assert [o.turn for o in observations] == [1, 2, 3] and session.state.best_reward == 1.1
    assert "same submission as turn 1" in observations[1].feedback
    assert observations[1].feedback.endswith("speedup 1.10")
    changed = session.step(KernelAction(code=code.replace("BLOCK", "BLOCK_SIZE")))
    assert changed.reward == 1.2 and len(services.evaluator.codes) == 2 and session.state.done
    assert "same submission" not in changed.feedback


def test_a_new_episode_evaluates_a_kernel_seen_in_the_last_one(env):
    session, services, _ = env
    services.evaluator = NoisyScorer()
    code = kernel_source("legit", "relu")
    for _ in range(2):
        session.reset(task_id=RELU)
        assert "same submission" not in session.step(KernelAction(code=code)).feedback
    assert len(services.evaluator.codes) == 2


def test_a_timed_out_submission_is_evaluated_again_when_resubmitted(env):
    """A timeout can be the host's load, not the kernel: it is not kept."""
    session, services, _ = env
    calls = []

    class TimesOut:
        name = "times-out"

        def evaluate(self, code, reference_source, task_id=None, language="triton", departure=None):
            calls.append(code)
            return EvalResult(stage="timing", error_class="timeout", feedback="timed out")

    services.evaluator = TimesOut()
    session.reset(task_id=RELU)
    for _ in range(2):
        session.step(KernelAction(code=kernel_source("legit", "relu")))
    assert len(calls) == 2


def test_a_submission_is_keyed_in_linear_time_by_a_digest_the_size_of_a_hash(env):
    """The repeat key is made in the server's process: parsing one f-string of 87,000 fields held
    CPython 3.11's GIL for 4.4 s there (every session's messages waited), and the key of 256 KiB
    of statements, its ast.dump, was 4.6 MB kept for each turn (red-team pass 70). A line past
    MAX_KEY_LINE is keyed by its text: Python 3.12's tokenizer is quadratic in a line's length."""
    import time

    from kernel_env.models import MAX_CODE_BYTES
    from server.kernel_environment import submission_key

    fields = "x = f'" + "{a}" * (MAX_CODE_BYTES // 3 - 10) + "'\n"
    statements = "x = 1\n" * (MAX_CODE_BYTES // 6)
    # one long line of many tokens: Python 3.12's tokenizer took 5.5-7.5 s on these two
    chain = "x = " + "1+" * (MAX_CODE_BYTES // 2 - 10) + "1\n"
    texts = "x = f'" + "{a}bb" * (MAX_CODE_BYTES // 5 - 10) + "'\n"
    started = time.perf_counter()
    keys = [submission_key(c) for c in (fields, chain, texts)]  # keyed by their text: at once
    assert time.perf_counter() - started < 1.0  # (quadratic: seconds each)
    started = time.perf_counter()
    keys.insert(1, submission_key(statements))  # 43,690 lines tokenized: 0.7 s on a loaded host
    assert time.perf_counter() - started < 5  # (quadratic in the lines: minutes)
    assert len(keys[1]) == 64 and all(k.startswith("text:") for k in (keys[0], keys[2], keys[3]))
    session, services, _ = env  # the step itself, to its recorded evaluation
    session.reset(task_id=RELU)
    started = time.perf_counter()
    session.step(KernelAction(code=fields))
    assert time.perf_counter() - started < 1.0 and len(services.evaluator.calls) == 1


def test_the_repeat_key_reads_code_as_python_does(env):
    """Layout, comments and line ends aside, the same tokens are the same submission; anything
    a token holds (a string's text, an operator, which statements an indentation nests) is not."""
    from server.kernel_environment import submission_key

    base = "def f(a):\n    if a:\n        return 'x'\n    return a + 1\n"
    same = ["# c\ndef f( a ):\r\n  if a:  # why\n\n    return 'x'\n  return a+1\n",
            "def f(a):\n\tif a:\n\t\treturn 'x'\n\treturn a + \\\n 1\n"]
    other = ["def f(a):\n    if a:\n        return 'x '\n    return a + 1\n",
             "def f(a):\n    if a:\n        return 'x'\n        return a + 1\n",
             "def f(a):\n    if a:\n        return 'x'\n    return a - 1\n"]
    assert {submission_key(c) for c in same} == {submission_key(base)}
    assert len({submission_key(c) for c in [base, *other]}) == 1 + len(other)
    assert submission_key("x = '''open") != submission_key("x = '''open ")  # not Python: its text


def test_what_python_reads_outside_the_tokens_makes_another_submission(env):
    """Red-team pass 73: an encoding declaration (a comment) and indentation mixing tabs with
    spaces (the same INDENT tokens) changed nothing in the key, yet the first is refused by the
    static check and the second by Python's compiler: resubmitted after the honest copy, each got
    its reward without being evaluated. Now each is evaluated as the submission it is."""
    from server.kernel_environment import submission_key

    base = "def f(a):\n    if a:\n        b = a\n        return b\n    return a + 1\n"
    declared = "# -*- coding: latin-1 -*-\n" + base
    mixed = base.replace("        return b", "\treturn b")
    with pytest.raises(SyntaxError):  # TabError
        compile(mixed, "mixed", "exec")
    for other in (declared, mixed):
        assert submission_key(other) != submission_key(base)
    # a comment on line 1 that declares nothing, and consistent tabs, are still layout
    assert submission_key("# -*- a kernel -*-\n" + base) == submission_key(base)
    assert submission_key(base.replace("        ", "\t\t").replace("    ", "\t")) == submission_key(base)
    session, services, _ = env
    session.reset(task_id=RELU)
    session.step(KernelAction(code=base))
    obs = session.step(KernelAction(code=declared))
    assert len(services.evaluator.calls) == 2 and "same submission" not in obs.feedback
