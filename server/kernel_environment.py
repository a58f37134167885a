"""The episode logic: one KernelEnvironment per WebSocket session.

reset picks a task and returns its problem; each step sends the submission to the shared
evaluator (the worker pool), turns the result into an observation and logs one JSON line.
`__init__` is cheap: the evaluator, task store and config are process-wide and built once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import io
import random
import re
import time
import threading
import tokenize
import uuid
from typing import Any, Optional

from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import EnvironmentMetadata

from kernel_env.models import LANGUAGES, KernelAction, code_problem, KernelObservation, KernelState
from server.config import Config
from server.departure import CURRENT, Departure
from server.evaluation.stages import CANCELLED
from server.eval_log import EvalLog
from server.evaluation.protocol import EvalRequest, EvalResult
from server.evaluators import Evaluator
from server.prompt import build_problem
from server.tasks import SPLITS, TaskStore, UnknownTask, shown


class EpisodeError(ValueError):
    """A call the episode cannot accept (bad argument, wrong order); the session stays usable."""


class Services:
    """What every session shares; set once by the app (server.app.build_services)."""

    config: Config
    tasks: TaskStore
    evaluator: Evaluator
    log: EvalLog


class KernelEnvironment(Environment[KernelAction, KernelObservation, KernelState]):
    SUPPORTS_CONCURRENT_SESSIONS = True
    services: Services  # bound by server.app before the first session

    def __init__(self):
        super().__init__()
        self._state = KernelState(max_turns=self.services.config.max_turns)
        self._task = None
        self._rng = random.Random()
        self._results: dict[str, tuple[int, EvalResult]] = {}  # this episode's, by submission

    @property
    def state(self) -> KernelState:
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(
            name="kernel_env", version="0.1.0",
            description="Write fast, correct GPU kernels (Triton or CUDA) for KernelBench tasks; "
                        "rewarded by speedup over eager PyTorch or by the roofline.")

    def reset(self, seed: Optional[int] = None, episode_id: Optional[str] = None,
              task_id: Optional[str] = None, split: Optional[str] = None, language: str = "triton",
              **kwargs: Any) -> KernelObservation:
        t0 = time.perf_counter()
        if kwargs:
            raise EpisodeError(f"unknown reset argument(s) {sorted(kwargs)}; valid: seed, "
                               "episode_id, task_id, split, language")
        asked_split = split
        split = "train" if split is None else split
        if split not in SPLITS:
            raise EpisodeError(f"unknown split {shown(split)}; valid: {', '.join(SPLITS)}")
        if language not in LANGUAGES:
            raise EpisodeError(f"unknown language {shown(language)}; valid: {', '.join(LANGUAGES)}")
        if language == "cuda" and self.services.evaluator.name == "cpu":
            # every step would be answered needs_gpu, each one a counted turn earning 0
            raise EpisodeError("language 'cuda' needs the gpu evaluator and this server runs the "
                               "cpu evaluator (no GPU); valid here: triton")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
            raise EpisodeError(f"seed must be an integer in [0, 2**63), got {shown(seed)}")
        if task_id is not None and type(task_id) is not str:
            raise EpisodeError(f"task_id must be a string like 'level1/19_ReLU', got {shown(task_id)}")
        if episode_id is not None and not _valid_episode_id(episode_id):
            raise EpisodeError(f"episode_id must be 1-{MAX_EPISODE_ID} characters of letters, digits "
                               f"and . _ : - (it is logged with every step), got {shown(episode_id)}")
        tasks = self.services.tasks
        try:
            task = tasks.get(task_id) if task_id is not None else tasks.pick(split, seed, self._rng)
        except UnknownTask as exc:
            raise EpisodeError(str(exc)) from None
        if task_id is not None:
            named_split = _split_of(tasks, task.task_id)
            if asked_split is not None and named_split != split:
                # a trainer that asked for held-out tasks must not get a training one unawares
                raise EpisodeError(f"task {task.task_id} is in the {named_split} split, not "
                                   f"{split}; leave split out when naming a task_id")
            split = named_split
        cfg = self.services.config
        # Everything that can fail comes before the episode changes: a reset that raised after it
        # had replaced the state kept the old reference, scored under the new task (pass 49).
        source = task.source()
        rules = EvalRequest(code="", reference_source="")  # the evaluator's defaults
        problem = build_problem(task.task_id, source, language, trials=rules.trials,
                                atol=rules.atol, rtol=rules.rtol, max_turns=cfg.max_turns)
        state = KernelState(
            episode_id=episode_id or uuid.uuid4().hex, step_count=0, task_id=task.task_id,
            split=split, language=language,
            turn=0, max_turns=cfg.max_turns,
        )
        self._task, self._source, self._state = task, source, state
        self._results = {}
        obs = self._observation(stage="ready", problem=problem, feedback=(
            f"task {task.task_id}: submit class ModelNew ({language}); {cfg.max_turns} turns"))
        self.services.log.write(event="reset", episode=self._state.episode_id, task=task.task_id,
                                split=self._state.split, language=language, seed=seed,
                                seconds=round(time.perf_counter() - t0, 4))
        return obs

    async def step_async(self, action: KernelAction, timeout_s: Optional[float] = None,
                         **kwargs: Any) -> KernelObservation:
        """OpenEnv awaits this on the WebSocket's own task (where idle_sessions.IdleClose has
        set the connection's Departure), so the step can be stopped if its client leaves. The
        step runs on a thread of its own: it blocks for as long as it queues and is evaluated,
        and a shared executor's few threads would hold up every other session's steps."""
        departure = CURRENT.get()
        loop = asyncio.get_running_loop()
        answer = loop.create_future()

        def settle(result, error) -> None:
            if not answer.done():  # (the session's task may have been cancelled meanwhile)
                if error is not None:
                    answer.set_exception(error)
                else:
                    answer.set_result(result)

        def run() -> None:
            try:
                result, error = self._step(action, departure), None
            except BaseException as exc:  # noqa: BLE001 - raised where OpenEnv awaits the step
                result, error = None, exc
            try:
                loop.call_soon_threadsafe(settle, result, error)
            except RuntimeError:  # the loop closed meanwhile (the server stopping): nobody waits
                pass

        threading.Thread(target=run, name="kernel_env-step", daemon=True).start()
        return await answer

    def step(self, action: KernelAction, timeout_s: Optional[float] = None, **kwargs: Any) -> KernelObservation:
        return self._step(action, None)

    def _step(self, action: KernelAction, departure: Optional[Departure]) -> KernelObservation:
        """`departure`: the WebSocket client's (step_async), whose leaving stops the evaluation;
        not a keyword of `step`, where a request's extra fields land."""
        if self._task is None:
            raise EpisodeError("step called before reset; call reset() first to get a task (over "
                               "HTTP every request gets a fresh environment: play episodes over "
                               "the WebSocket /ws, as the KernelEnv client does)")
        if self._state.done:
            raise EpisodeError(f"the episode is done after {self._state.max_turns} turns; call "
                               "reset() to start a new one")
        if not isinstance(action, KernelAction):
            raise EpisodeError("the action must be KernelAction(code=...)")
        problem = code_problem(action.code)
        if problem:
            raise EpisodeError(f"{problem} (this turn was not counted)")
        t0 = time.perf_counter()
        key = submission_key(action.code)
        repeat_of, result = self._results.get(key, (None, None))
        if result is None:
            result = self.services.evaluator.evaluate(action.code, self._source,
                                                      task_id=self._task.task_id,
                                                      language=self._state.language,
                                                      departure=departure)
        else:
            result = dataclasses.replace(result, feedback=(
                f"The same submission as turn {repeat_of} (comments and layout aside): its result "
                "again, not evaluated anew (a re-measurement would only redraw the timing noise). "
                + result.feedback))
        seconds = time.perf_counter() - t0
        st = self._state
        st.step_count += 1
        # The evaluator's own failure is not the submission's: it costs no turn, up to
        # max_turns of them an episode (so no episode goes on forever).
        counted = result.error_class != "internal_error" or st.uncounted >= st.max_turns
        if counted:
            st.turn += 1
            st.done = st.turn >= st.max_turns
            st.best_reward = max(st.best_reward, result.reward)
            # a timeout may be the host's load; a cancelled step (its client left) was not judged
            if repeat_of is None and result.error_class not in ("timeout", CANCELLED):
                self._results[key] = (st.turn, result)
        else:
            st.uncounted += 1
            result.feedback += " (the evaluator failed, not your submission: this turn was not counted)"
        obs = self._from_result(result)
        obs.counted = counted
        self.services.log.write(
            event="step", episode=st.episode_id, task=st.task_id, turn=st.turn, stage=result.stage,
            error_class=result.error_class, counted=counted, correct=result.correct, reward=result.reward,
            speedup=result.speedup, runtime_ms=result.runtime_ms, evaluator=self.services.evaluator.name,
            worker=result.worker or None, queued_s=result.queue_seconds, stage_seconds=result.stage_seconds, seconds=round(seconds, 4), repeat_of=repeat_of)
        return obs

    def _observation(self, **fields) -> KernelObservation:
        st = self._state
        return KernelObservation(
            task_id=st.task_id or "", split=st.split or "", language=st.language, turn=st.turn,
            max_turns=st.max_turns, done=st.done, best_reward=st.best_reward,
            evaluator=self.services.evaluator.name, **fields)

    def _from_result(self, r: EvalResult) -> KernelObservation:
        roof = r.roofline or {}
        return self._observation(
            stage=r.stage, error_class=r.error_class, feedback=_text(r.feedback), correct=r.correct,
            reward=r.reward, trials_passed=r.trials_passed, trials_total=r.trials_total,
            max_abs_error=r.max_abs_error, runtime_ms=r.runtime_ms, ref_runtime_ms=r.ref_runtime_ms,
            speedup=r.speedup, runtime_spread=r.runtime_spread, timing_meaningful=r.timing_meaningful,
            device=r.device, bound=roof.get("bound"), arithmetic_intensity=roof.get("arithmetic_intensity"),
            t_min_ms=roof.get("t_min_ms"), roofline_frac=roof.get("roofline_frac"),
            ref_roofline_frac=roof.get("ref_roofline_frac"), roofline_gpu=roof.get("roofline_gpu"),
            stage_seconds=r.stage_seconds, metadata=_metadata(r),
        )


def _metadata(r: EvalResult) -> dict:
    """The step's notes, and the reference's GPU time alone where it was measured."""
    metadata = {"notes": [_text(n) for n in r.notes]} if r.notes else {}
    if r.ref_device_ms is not None:
        metadata["ref_device_ms"] = r.ref_device_ms
    return metadata


def _text(feedback: str) -> str:
    """Feedback quotes what the submission's code produced (an exception's message, a compiler's
    output): a lone surrogate there is no UTF-8 and would fail the observation's serialisation,
    after the turn was counted; it is shown escaped (\\ud800)."""
    return feedback.encode("utf-8", "backslashreplace").decode("utf-8")


MAX_EPISODE_ID = 128
_EPISODE_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:-")


def _valid_episode_id(value) -> bool:
    return (type(value) is str and 0 < len(value) <= MAX_EPISODE_ID
            and all(c in _EPISODE_ID_CHARS for c in value))


def _split_of(tasks: TaskStore, task_id: str) -> str:
    return next(s for s in SPLITS if task_id in tasks.ids(s))


def submission_key(code: str) -> str:
    """What a submission is, comments and layout aside: resubmitting a kernel unchanged (or
    re-spaced) returns its earlier result, so an episode's best reward cannot be raised by
    redrawing the timing noise of the same code.

    A digest of its tokens (no comments, blank lines, line ends or indentation widths), not of
    its parsed tree: this runs in the server's own process, where CPython 3.11's parser held the
    GIL for 4.4 s on one 256 KiB f-string of 87,000 fields (quadratic), freezing every session's
    messages, and `ast.dump` of 256 KiB of statements was 4.6 MB, kept for every turn (red-team
    pass 70). Tokenizing is linear in the number of lines, but CPython 3.12's tokenizer (the
    Docker image's) is quadratic in a line's length: one 250 KB line took it 5.5-7.5 s. Code
    with a line past MAX_KEY_LINE is keyed by its exact text instead (a re-spaced copy of it is
    a new submission).

    Two things Python reads that tokens alone do not show are kept (red-team pass 73: each made
    code the evaluator would refuse the same key as an honest submission, whose result it then
    got): an encoding declaration, a comment on line 1 or 2 (`# coding: latin-1` is refused), and
    indentation mixing tabs, spaces or form feeds (Python's compiler refuses what it cannot order
    with tabs of 1 and of 8 columns, `tokenize` orders it with 8): such code is keyed by its text."""
    if max(map(len, code.split("\n"))) > MAX_KEY_LINE:
        return _text_key(code)
    digest = hashlib.sha256()
    indentation: set[str] = set()  # the characters that indent the logical lines
    line_start = True
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.NL or (token.type == tokenize.COMMENT and not (
                    token.start[0] <= 2 and ENCODING_DECLARATION.match(token.string))):
                continue
            if line_start and token.type not in (tokenize.INDENT, tokenize.DEDENT):
                indentation.update(token.line[:token.start[1]])
            line_start = token.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
            text = "" if token.type in (tokenize.INDENT, tokenize.NEWLINE) else token.string
            digest.update(f"{token.type}:{len(text)}:{text}".encode("utf-8", "surrogatepass"))
    except (tokenize.TokenError, SyntaxError):  # not Python: the text itself
        return _text_key(code)
    if len(indentation) > 1:
        return _text_key(code)
    return digest.hexdigest()


# PEP 263's form of an encoding declaration (a comment on the first or second line)
ENCODING_DECLARATION = re.compile(r"^[ \t\f]*#.*?coding[:=]")


# Longest line the repeat key tokenizes: Python 3.12 tokenized 256 KiB of 4,000-character lines
# in 0.35 s, of 250,000-character ones in 5.5-7.5 s; honest code keeps lines far shorter.
MAX_KEY_LINE = 4096


def _text_key(code: str) -> str:
    return "text:" + hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()
