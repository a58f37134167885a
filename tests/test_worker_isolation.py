"""Isolation: nothing one evaluation does reaches the next, the host, or the server."""

from __future__ import annotations

import os
import platform
import sys
import threading
import time
import warnings

import pytest
import torch

from server.evaluation import integrity
from server.evaluation.children import describe_death, run_in_child
from server.evaluation.stages import StageFailure
from server.pool import kill_session, session_members
from server.evaluators import CpuEvaluator
from tests.conftest import BUNDLED, kernel_source

LIMITS = {"static_check": 5, "compile": 5, "correctness": 5, "timing": 5}
RELU = (BUNDLED / "level1" / "19_ReLU.py").read_text()


def _patch_torch_and_leave_a_thread(progress):
    torch.relu = lambda x: x  # what a submission might do at import
    threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
    with open("left_behind.txt", "w") as f:
        f.write("x")
    return {"cwd": os.getcwd(), "threads": threading.active_count()}


def _observe(progress):
    return {"relu_is_torch": torch.relu is torch._C._VariableFunctions.relu,
            "threads": threading.active_count()}


def test_a_forked_evaluation_leaves_nothing_behind():
    dirty = run_in_child(_patch_torch_and_leave_a_thread, "compile", LIMITS, 4.0).payload
    assert dirty["threads"] >= 2
    assert not os.path.exists(dirty["cwd"])  # its scratch directory is gone
    clean = run_in_child(_observe, "compile", LIMITS, 4.0).payload
    assert clean["relu_is_torch"] and clean["threads"] == 1


def test_a_hang_is_killed_at_the_stage_limit():
    def hang(progress):
        progress("timing")
        while True:
            pass
    t0 = time.time()
    outcome = run_in_child(hang, "compile", {"compile": 60, "timing": 1}, 4.0)
    assert time.time() - t0 < 30  # the timing stage's 1 s (1.2-1.7 s loaded), not compile's 60
    cls, feedback = describe_death(outcome, {"timing": 1})
    assert cls == "timeout" and "'timing'" in feedback and "1 s limit" in feedback


def test_a_segfault_is_a_crash_with_the_signal_named():
    def segfault(progress):
        progress("correctness")
        import ctypes
        ctypes.string_at(0)
    cls, feedback = describe_death(run_in_child(segfault, "compile", LIMITS, 4.0), LIMITS)
    assert cls == "crash" and "SIGSEGV" in feedback and "'correctness'" in feedback


def test_memory_beyond_the_limit_is_stopped():
    def hog(progress):
        blocks = []
        while True:
            blocks.append(bytearray(64 << 20))
    limits = dict(LIMITS, compile=60)  # no race with the time limit: fresh memory is slow to
    # touch on some hosts (~5 s a GiB on a CI VM past its first GiB)
    cls, feedback = describe_death(run_in_child(hog, "compile", limits, 0.5), limits)
    assert cls == "out_of_memory" and "exceeded the host memory limit" in feedback, feedback


def test_a_flood_of_output_does_not_reach_the_host():
    def flood(progress):
        for _ in range(20000):
            print("x" * 500)
        return {"ok": True}
    outcome = run_in_child(flood, "compile", LIMITS, 4.0)
    assert outcome.payload == {"ok": True} and outcome.log_tail.strip().endswith("x")


def test_integrity_snapshot_sees_a_patched_torch_function():
    snap = integrity.snapshot()
    original = torch.softmax
    try:
        torch.softmax = lambda *a, **k: None
        assert "torch.softmax" in integrity.changed(snap)
    finally:
        torch.softmax = original
    assert integrity.changed(snap) == []


def _finalizer_after_stopped_collection(progress):
    """In a fresh child: a generator in a reference cycle whose `finally` would run when the
    collector frees it, then plenty of allocations."""
    import gc
    ran = []

    def late():
        try:
            yield 1
        finally:
            ran.append(True)

    class Cycle:
        pass

    integrity.stop_cyclic_collection()
    before = integrity.snapshot()
    g = late()
    next(g)
    c = Cycle()
    c.me, c.g = c, g
    del c, g
    junk = [[] for _ in range(100_000)]
    del junk
    gc.enable()  # what a submission must not get away with
    return {"ran": bool(ran), "changed": integrity.changed(before)}


def test_stopped_collection_runs_no_finalizer_and_a_restart_is_seen():
    outcome = run_in_child(_finalizer_after_stopped_collection, "compile", LIMITS, 4.0)
    assert outcome.payload == {"ran": False, "changed": ["gc.isenabled()"]}


def test_the_bindings_check_sees_any_watched_binding_change():
    """The fast path of the integrity check: unchanged bindings skip the exact comparison, so
    every patch the snapshot sees must show there too, and a rebinding under another name."""
    before = integrity.Bindings()
    patches = [(torch, "softmax"), (torch.Tensor, "__eq__"), (torch.nn.Module, "_call_impl"),
               (torch.nn.Linear, "forward"), (torch.cuda, "Event")]
    ns = type("A", (), {"x": len})
    renamed = integrity.Bindings({"ns": ns})
    delattr(ns, "x")
    ns.y = len  # the same value under another name
    assert not renamed.unchanged()
    for owner, name in patches:
        had = name in vars(owner)
        original = vars(owner).get(name)
        try:
            setattr(owner, name, lambda *a, **k: None)
            assert not before.unchanged(), f"{owner.__name__}.{name}"
        finally:
            if had:
                setattr(owner, name, original)
            else:
                delattr(owner, name)
    assert before.unchanged()


def test_the_environment_is_read_without_running_os_environs_own_attributes():
    """Red-team pass 81: a hook set as os.environ's `decodevalue` through another name ran
    inside every integrity check, outside every guard. The check reads the raw mapping with
    dict's own methods: the hook never runs, and the changed attribute, or class, is seen."""
    before = integrity.Bindings()
    calls = []

    def hook(value):
        calls.append(value)
        return value.decode() if isinstance(value, bytes) else value

    box = [os.environ]
    env = box[0]
    original = env.decodevalue
    try:
        env.decodevalue = hook
        assert integrity._steering_environment() == integrity.ENVIRON_CHANGED
        assert not before.unchanged()
        assert calls == []
    finally:
        env.decodevalue = original
    assert before.unchanged()
    assert calls == []


def test_library_instances_changed_through_a_parameter_are_seen_even_when_put_back():
    """Red-team pass 82: `tl.int32.is_block` shadowed through a parameter ran, from the
    interpreter's paused argument conversion, whatever it was set to. The watched instances'
    dicts keep version tags: a set, a deletion, a set put back, or a whole new `__dict__` is a
    change; reading them is not."""
    import triton.language as tl

    from server.evaluation.library_instances import InstanceTags, watched_instances

    names = [name for name, _ in watched_instances()]
    assert {"os.environ", "tl.int32", "tl.float32"} <= set(names)
    # Triton's driver only once made (a GPU's first launch): its configuration sets it lazily
    assert ("triton.runtime.driver" in names) == torch.cuda.is_initialized()

    def plant(obj, name, value):
        setattr(obj, name, value)

    def unplant(obj, name):
        delattr(obj, name)

    tags = InstanceTags()
    assert tags.changed() == []
    assert tl.int32.is_block() is False and tl.float32.name == "fp32"  # reads change nothing
    assert tags.changed() == []
    plant(tl.int32, "is_block", lambda: False)
    unplant(tl.int32, "is_block")  # put back before the check
    assert tags.changed() == ["tl.int32"]

    tags = InstanceTags()
    env = [os.environ][0]
    original = env.decodevalue
    try:
        plant(env, "decodevalue", lambda value: original(value))
        plant(env, "decodevalue", original)  # put back before the check
        assert tags.changed() == ["os.environ"]
    finally:
        env.decodevalue = original


def test_tritons_settings_their_bindings_and_hook_chains_are_watched():
    """Red-team pass 83 reached `triton.knobs` through a class holding `triton.language`: its
    launch hooks run at the evaluator's own launches on a GPU, and a fake `knobs.nvidia` names
    the disassembler the SASS check runs. A setting changed, a module global rebound or a hook
    added (a list append: no dict changes) is a change, put back or not."""
    import triton.knobs as knobs

    from server.evaluation.library_instances import InstanceTags

    def plant(obj, name, value):
        setattr(obj, name, value)

    tags = InstanceTags()
    assert {"triton.knobs.runtime", "triton.knobs.nvidia",
            "triton.knobs.runtime.launch_enter_hook"} <= set(tags.names)
    knobs.runtime.debug, knobs.compilation.front_end_debugging  # reads change nothing
    assert tags.changed() == []
    hook = knobs.runtime.launch_enter_hook
    hook.add(print)
    try:
        assert tags.changed() == ["a hook chain of triton.knobs (a hook added or removed)"]
    finally:
        hook.remove(print)
    assert tags.changed() == []  # the same items again

    tags = InstanceTags()
    plant(knobs.runtime, "debug", True)
    del knobs.runtime.debug  # put back before the check
    assert tags.changed() == ["triton.knobs.runtime"]

    tags = InstanceTags()
    original = knobs.nvidia
    try:
        plant(knobs, "nvidia", type(original)())
        assert tags.changed() == ["triton.knobs.nvidia (rebound)"]
    finally:
        knobs.nvidia = original


def test_an_exception_from_submission_code_inside_the_integrity_check_is_tampering(monkeypatch):
    """Code of the submission's that an object it changed runs while the process is checked
    (outside every guard), raising there: that was the evaluator's own failure, an uncounted
    turn with the evaluator's traceback as feedback; it is tampering. An exception that passes
    through no code of the submission's stays the evaluator's."""
    from server.evaluation import pipeline

    path = "/tmp/kernel_env_submission_probe.py"
    monkeypatch.setitem(integrity._audit, "files", frozenset({path}))
    namespace: dict = {}
    exec(compile("def planted():\n    raise KeyError('HOME')\n", path, "exec"), namespace)

    def findings(snap, stage):  # as a planted hook would be reached by the check's own reads
        namespace["planted"]()

    monkeypatch.setattr(pipeline, "_integrity_findings", findings)
    with pytest.raises(StageFailure) as found:
        pipeline._check_integrity({}, "correctness")
    assert found.value.error_class == "tampering"
    assert "line 2" in found.value.feedback and "KeyError" in found.value.feedback

    def evaluators_own(snap, stage):
        raise KeyError("the evaluator's own")

    monkeypatch.setattr(pipeline, "_integrity_findings", evaluators_own)
    with pytest.raises(KeyError):
        pipeline._check_integrity({}, "correctness")


def test_the_bindings_check_reads_addresses_and_sees_names_swapped_in_order():
    """The fast path compares the objects' addresses read from a list's own array (this
    interpreter's layout, checked at import); names swapped while the values keep their order,
    or a name moved between two namespaces, still differ."""
    items = [object(), "x", 3, None, len, torch.relu]
    assert integrity._addresses is integrity._addresses_by_reading
    assert integrity._addresses_by_reading(items) == integrity._addresses_by_id(items)
    a = type("A", (), {})
    a.relu, a.sigmoid = torch.relu, torch.sigmoid
    b = type("B", (), {"tanh": torch.tanh})
    bindings = integrity.Bindings({"a": a, "b": b})
    del a.relu, a.sigmoid
    a.sigmoid, a.relu = torch.relu, torch.sigmoid  # values in the same order, names swapped
    assert not bindings.unchanged()
    del a.sigmoid, a.relu
    a.relu, a.sigmoid = torch.relu, torch.sigmoid
    assert bindings.unchanged()
    del b.tanh
    a.tanh = torch.tanh
    assert not bindings.unchanged()


@pytest.mark.parametrize("patch", ["inherited_forward", "module_global_F", "autocast_left_on",
                                   "function_mode_left_on", "aten_kernel_registered"])
def test_patches_the_reference_would_run_through_are_seen(patch, monkeypatch):
    """Routes past the static rules or not, what the reference runs through: a method BatchNorm2d
    inherits from a private base, the `F` that torch.nn's conv module calls, a mode left on."""
    import contextlib
    from torch.overrides import TorchFunctionMode
    before, bindings = integrity.snapshot(), integrity.Bindings()
    stack = contextlib.ExitStack()
    if patch == "inherited_forward":
        monkeypatch.setattr(torch.nn.modules.batchnorm._BatchNorm, "forward",
                            torch.nn.Identity.forward)
        expected = "torch.nn.modules.batchnorm._BatchNorm.forward"
    elif patch == "module_global_F":
        monkeypatch.setattr(torch.nn.modules.conv, "F", type(torch)("fake"))
        expected = "torch.nn.modules.conv.F"
    elif patch == "autocast_left_on":
        stack.enter_context(torch.autocast("cpu"))
        expected = "autocast (cpu)"
    elif patch == "aten_kernel_registered":
        library = torch.library.Library("aten", "IMPL")
        stack.callback(library._destroy)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "overriding a previously registered kernel"
            library.impl("relu", lambda x: x * 0, "CPU")
        assert not torch.relu(torch.ones(2)).any()  # the reference's relu would now return zeros
        expected = "torch.library registrations"
    else:
        class PassThrough(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                return func(*args, **(kwargs or {}))

        stack.enter_context(PassThrough())
        expected = "torch function modes"
    with stack:
        assert not bindings.unchanged()
        assert integrity.changed(before) == [expected]
    monkeypatch.undo()
    assert bindings.unchanged() and integrity.changed(before) == []


def test_a_legitimate_change_moves_the_baseline_and_a_later_patch_is_still_seen(monkeypatch):
    """After a change the exact comparison accepts (private state CUDA rebinds when it starts),
    the next check is the fast one again; a patch made after it is still caught."""
    from server.evaluation.module_globals import ModuleGlobals
    from server.evaluation.pipeline import _SNAPSHOT_EXTRAS, _check_integrity, integrity_snapshot
    snap = integrity_snapshot({})
    assert set(_SNAPSHOT_EXTRAS) <= set(snap)
    monkeypatch.setattr(torch.cuda, "_kernel_env_private_flag", object(), raising=False)
    comparisons = []
    monkeypatch.setattr(integrity, "changed", lambda *a: comparisons.append(1) or [])
    snap["globals"] = ModuleGlobals()  # (this test's own patch of the evaluator's module)
    _check_integrity(snap, "timing")
    _check_integrity(snap, "timing")
    assert comparisons == [1]  # the second check took the fast path
    monkeypatch.undo()
    snap["globals"] = ModuleGlobals()
    monkeypatch.setattr(torch, "softmax", lambda *a, **k: None)
    with pytest.raises(StageFailure) as failure:
        _check_integrity(snap, "timing")
    assert failure.value.error_class == "tampering" and "torch.softmax" in failure.value.feedback


@pytest.fixture(scope="module")
def evaluator():
    os.environ["MODAL_PROXY_SECRET"] = "do-not-leak"
    ev = CpuEvaluator()
    ev.pool.start(background=False)
    yield ev
    ev.close()
    os.environ.pop("MODAL_PROXY_SECRET", None)


def test_workers_get_a_scrubbed_environment(evaluator):
    spy = kernel_source("legit", "relu").replace(
        "        x = x.contiguous()",
        "        import os\n        raise RuntimeError('secret=' + str(os.environ.get('MODAL_PROXY_SECRET')))")
    result = evaluator.evaluate(spy, RELU, task_id="level1/19_ReLU")
    assert result.error_class == "runtime_error" and "secret=None" in result.feedback


def test_sessions_are_served_first_come_first_served(evaluator):
    good = kernel_source("legit", "relu")
    finished = []

    def submit(n):
        evaluator.evaluate(good, RELU, task_id="level1/19_ReLU")
        finished.append(n)

    def arrived() -> int:  # steps holding the worker, waiting for it or done (never too many)
        pool = evaluator.pool
        with pool._lock:
            return len(finished) + (not pool._free) + len(pool._waiters)

    threads = []
    for n in range(4):
        threads.append(threading.Thread(target=submit, args=(n,)))
        threads[-1].start()
        deadline = time.monotonic() + 60
        while arrived() <= n:  # arrival order 0, 1, 2, 3 (a fixed pause raced a loaded host)
            assert time.monotonic() < deadline, f"step {n} never reached the pool"
            time.sleep(0.01)
    for t in threads:
        t.join()
    assert finished == [0, 1, 2, 3]


def test_threads_started_by_submission_code_are_found(tmp_path):
    """The runtime backstop behind the static rules: a thread running the submission's code."""
    module = tmp_path / "submission.py"
    module.write_text("import time\ndef work():\n    time.sleep(2)\n")
    namespace: dict = {}
    exec(compile(module.read_text(), str(module), "exec"), namespace)
    before = integrity.thread_ids()
    t = threading.Thread(target=namespace["work"], daemon=True)
    t.start()
    found = integrity.foreign_threads(before)
    assert len(found) == 1 and "submission.py" in found[0]
    assert integrity.foreign_threads(integrity.thread_ids()) == []


def test_a_report_without_the_evaluations_secret_is_ignored():
    """Code that finds the result pipe and writes a forged report gains nothing."""
    import json
    import stat

    def forge(progress):
        for fd in os.listdir("/proc/self/fd"):
            try:
                if stat.S_ISFIFO(os.fstat(int(fd)).st_mode):
                    os.write(int(fd), (json.dumps({"event": "done", "payload": {"reward": 3.3}}) + "\n").encode())
            except OSError:
                pass
        os._exit(0)

    outcome = run_in_child(forge, "correctness", LIMITS, 4.0)
    assert outcome.payload is None
    assert describe_death(outcome, LIMITS)[0] == "crash"


def _answer_then_linger(progress):
    """A process that keeps running after its answer (as a child tearing down a large CUDA
    context does): its exit takes 30 s (patched in the child only)."""
    real_exit = os._exit

    def slow_exit(code):
        time.sleep(30)
        real_exit(code)

    os._exit = slow_exit
    return {"answered": True}


def test_the_answer_does_not_wait_for_the_process_to_exit_and_no_zombie_remains():
    from server.evaluation import children

    t0 = time.monotonic()
    outcome = run_in_child(_answer_then_linger, "compile", LIMITS, 4.0)
    assert outcome.payload == {"answered": True}
    assert time.monotonic() - t0 < 10  # killed after its answer, not awaited
    deadline = time.monotonic() + 10
    while children._unreaped and time.monotonic() < deadline:
        time.sleep(0.05)
        children.reap_finished()
    assert not children._unreaped
    zombies = [line for line in os.popen(f"ps -o stat= --ppid {os.getpid()}").read().split()
               if line.startswith("Z")]
    assert not zombies


def test_processes_started_by_submission_code_are_found():
    import subprocess
    import sys

    before = integrity.child_processes()
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert proc.pid in integrity.child_processes() - before
    finally:
        proc.kill()
        proc.wait()
    assert proc.pid not in integrity.child_processes()


def _run_probe(tmp_path, source: str) -> dict:
    """Run `source` as a script in a process of its own (an audit hook stays for the process's
    life; code run with `python -c` would count as code from a string); its last line is JSON."""
    import json
    import subprocess
    import sys

    from tests.conftest import ROOT

    probe = tmp_path / "probe.py"
    probe.write_text(source)
    out = subprocess.run([sys.executable, str(probe)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


AUDIT_PROBE = r'''
import sys
from server.evaluation import integrity
integrity.guard_submission_actions("/tmp/submission.py")
submission = compile(SOURCE, "/tmp/submission.py", "exec")
results = []
for action in ("eval('1 + 1')", "open('/dev/null')", "compile('1', 'x', 'eval')"):
    try:
        exec(compile(action, "/tmp/submission.py", "eval"), {})
        results.append("ran")
    except RuntimeError:
        results.append("refused")
results.append(str(eval("1 + 1")))  # the evaluator's own frames are not the submission's
import json
print(json.dumps({"results": results, "offences": integrity.submission_actions()}))
'''


def test_code_from_strings_files_and_patching_are_refused_to_the_submissions_frames(tmp_path):
    report = _run_probe(tmp_path, AUDIT_PROBE.replace("SOURCE", repr("x = 1")))
    assert report["results"] == ["refused", "refused", "refused", "2"]
    assert [o.split()[0] for o in report["offences"]] == ["compile", "open", "compile"]


LOADER_PROBE = r'''
import importlib.machinery, json, os, tempfile
from server.evaluation import integrity
folder = tempfile.mkdtemp()
target = os.path.join(folder, "helper_mod.py")
integrity.guard_submission_actions("/tmp/submission.py")
code = """
loader = importlib.machinery.SourceFileLoader("helper_mod", target)
done = []
for action in (lambda: loader.set_data(target, b"VALUE = 1"), lambda: loader.get_data(__file__),
               lambda: loader.load_module("helper_mod")):
    try:
        action()
        done.append("ran")
    except (RuntimeError, OSError, ImportError):
        done.append("refused")
import math  # an import statement still runs the import machinery freely
RESULT = done
"""
namespace = {"importlib": importlib, "target": target, "__file__": __file__}
exec(compile(code, "/tmp/submission.py", "exec"), namespace)
print(json.dumps({"result": namespace["RESULT"], "offences": integrity.submission_actions()}))
'''


def test_the_import_machinerys_loaders_called_by_a_submission_are_charged_to_it(tmp_path):
    """Red-team pass 84: a ModuleSpec that `triton.language.extra` left as a global gave a
    SourceFileLoader whose `set_data`, `get_data` and `load_module` wrote, read and ran files;
    the audit hook excused every event under the import machinery. Only an import statement's
    own path through it is excused now."""
    report = _run_probe(tmp_path, LOADER_PROBE)
    assert report["result"] == ["refused", "refused", "refused"]
    assert [o.split()[0] for o in report["offences"]] == ["open", "open", "open"] or all(
        o.split()[0] in ("open", "compile", "exec") for o in report["offences"])
    assert len(report["offences"]) == 3


LITERAL_PROBE = r'''
import json
from server.evaluation import integrity
SOURCE = 'import torch\nNAME = "tensordesc<fp32[16],__import__(\'sys\').modules>"\n'
integrity.guard_submission_actions("/tmp/submission.py", SOURCE)
results = []
for code in ("__import__('sys').modules", "1 + 1"):  # compiled by a library's frame (this one)
    try:
        eval(code)
        results.append("ran")
    except RuntimeError:
        results.append("refused")
print(json.dumps({"results": results, "offences": integrity.submission_actions()}))
'''


def test_code_a_library_compiles_from_the_files_own_strings_is_refused(tmp_path):
    """Red-team pass 88: Triton's `str_to_ty` evaluated the layout part of a type name the
    submission wrote (`"tensordesc<fp32[16],__import__('sys')...>"`) with the real builtins,
    from Triton's frame, where the audit hook excused it. Compiling text found inside one of
    the file's string literals is refused whoever compiles it; other code is not."""
    report = _run_probe(tmp_path, LITERAL_PROBE)
    assert report["results"] == ["refused", "ran"]
    assert report["offences"] == ["compile of code written in a string of the file"]


TRAMPOLINE_PROBE = r'''
import contextlib, dataclasses, collections, json
from server.evaluation import integrity
integrity.guard_submission_actions("/tmp/submission.py")
code = """
import contextlib, dataclasses, collections
ran = {}
try:
    with contextlib.ExitStack() as stack:
        stack.callback(exec, "ran['x'] = 1", {"ran": ran})
except RuntimeError:
    ran["refused"] = True
@dataclasses.dataclass(frozen=True)
class Config:
    block: int = 128
Point = collections.namedtuple("Point", "x y")
RESULT = [ran, Config().block, Point(1, 2).y]
"""
namespace = {}
exec(compile(code, "/tmp/submission.py", "exec"), namespace)
print(json.dumps({"result": namespace["RESULT"], "offences": integrity.submission_actions()}))
'''


def test_standard_library_trampolines_do_not_hide_the_submission_but_code_generators_work(tmp_path):
    """exec handed to contextlib is charged to the submission; dataclasses and namedtuple
    generating their own code are not."""
    report = _run_probe(tmp_path, TRAMPOLINE_PROBE)
    assert report["result"] == [{"refused": True}, 128, 2]
    assert [o.split()[0] for o in report["offences"]] == ["compile"]


FROZEN_PROBE = r'''
import json, os
from server.evaluation import integrity
integrity.guard_submission_actions("/tmp/submission.py")
code = """
import collections.abc, os
done = []
for act in (lambda: collections.abc.MutableMapping.update(os.environ, {"TRITON_DEBUG": "1"}),
            lambda: os.remove("/nonexistent/kernel_env_probe"),
            lambda: collections.ChainMap(os.environ).__setitem__("CXX", "/tmp/evil")):
    try:
        act()
        done.append("ran")
    except RuntimeError:
        done.append("refused")
    except OSError:
        done.append("ran")
RESULT = done
"""
namespace = {}
exec(compile(code, "/tmp/submission.py", "exec"), namespace)
print(json.dumps({"result": namespace["RESULT"], "set": "TRITON_DEBUG" in os.environ,
                  "offences": integrity.submission_actions()}))
'''


def test_actions_through_frozen_standard_modules_are_charged_to_the_submission(tmp_path):
    """`os` and `_collections_abc` are frozen modules: an environment write through them, and
    a file removed, are the submission's; an environment write is the submission's from any
    library frame it called (collections.ChainMap)."""
    report = _run_probe(tmp_path, FROZEN_PROBE)
    assert report["result"] == ["refused", "refused", "refused"] and not report["set"]
    assert [o.split()[0] for o in report["offences"]] == ["os.putenv", "os.remove", "os.putenv"]


MONITORING_PROBE = r'''
import json
from server.evaluation import integrity
integrity.guard_submission_actions("/tmp/submission.py")
code = """
import sys
seen = []
M = sys.monitoring
M.use_tool_id(3, "spy")
try:
    M.register_callback(3, M.events.CALL, lambda code, at, fn, arg: seen.append(arg))
    M.set_events(3, M.events.CALL)
    RESULT = "ran"
except RuntimeError:
    RESULT = "refused"
"""
namespace = {}
exec(compile(code, "/tmp/submission.py", "exec"), namespace)
print(json.dumps({"result": namespace["RESULT"], "offences": integrity.submission_actions()}))
'''


@pytest.mark.skipif(not hasattr(sys, "monitoring"), reason="sys.monitoring is Python 3.12's")
def test_monitoring_callbacks_are_refused_to_the_submissions_frames(tmp_path):
    """Python 3.12's sys.monitoring traces calls like sys.setprofile (its callback sees the
    evaluator's calls and their first arguments, unseen by the guard's profile watch): a
    submission's frame may not register one."""
    report = _run_probe(tmp_path, MONITORING_PROBE)
    assert report["result"] == "refused"
    assert [o.split()[0] for o in report["offences"]] == ["sys.monitoring.register_callback"]


def test_state_carried_on_inputs_or_outputs_is_found():
    x, out = torch.rand(4), torch.rand(4)
    assert integrity.carried_state([x, 3], (out,)) == []
    x.note = "runs code when released"
    out.grad = torch.zeros(4)
    assert integrity.carried_state([x, 3], (out,)) == ["input 0", "output 0"]


def test_a_submodule_imported_after_the_snapshot_is_not_tampering():
    """`import torch.cuda.comm` (or any lazily loaded submodule) adds a module attribute to a
    watched namespace: an honest submission may do that."""
    import importlib
    import sys
    sys.modules.pop("torch.cuda.comm", None)
    had = vars(torch.cuda).pop("comm", None)
    before = integrity.snapshot()
    try:
        importlib.import_module("torch.cuda.comm")
        assert "comm" in vars(torch.cuda)
        assert integrity.changed(before) == []
    finally:
        if had is not None:
            torch.cuda.comm = had


def _environment_written_past_the_rules(progress):
    """In a fresh child: a Triton setting written to the environment, by a route the static
    rules do not spell (the audit hook refuses it from a submission's frame; this is the
    integrity check's own view)."""
    import collections.abc
    import os

    before = integrity.snapshot()
    collections.abc.MutableMapping.update(os.environ, {"TRITON_DEBUG": "1"})
    os.environ["KERNEL_ENV_TEST_UNRELATED"] = "1"  # not a setting torch or Triton reads
    return {"changed": integrity.changed(before)}


def test_an_environment_setting_written_is_tampering():
    outcome = run_in_child(_environment_written_past_the_rules, "compile", LIMITS, 4.0)
    assert outcome.payload == {"changed": ["os.environ (torch, Triton, CUDA and build settings)"]}


def test_evaluator_code_changed_in_place_is_tampering(monkeypatch):
    """A function rewritten in place (`fn.__code__ = ...`, as an extension's native import once
    did to provenance.foreign_kernels) keeps its identity; its code's identity does not."""
    from server.evaluation import integrity, provenance
    snap, bindings = integrity.snapshot(), integrity.Bindings()
    assert bindings.unchanged() and integrity.snapshot() == snap
    monkeypatch.setattr(provenance.foreign_kernels, "__code__", (lambda seen, own: []).__code__)
    assert not bindings.unchanged()
    changed = [k for k, v in integrity.snapshot().items() if snap.get(k) != v]
    assert changed == ["server.evaluation.provenance.foreign_kernels.__code__"]


HOST_SCRIPT = """
import json, sys
# pipeline (torch, triton) imported before any fork, as the worker host's main does: else each
# spare imports them itself, 3 at once on 2 cores (18 s of `context` on a loaded host)
from server.evaluation import children, pipeline, worker
from server.evaluation.protocol import EvalRequest

host = worker.Host("cpu", spares=2)
begun, at_go, after = [], [], []  # the other spares when a step begins, when its timing may begin, after it
real_watch, real_go = children.Spare.watch, children.Spare.go

def states():
    return [(children._state(s.pid), s.warming) for s in host.spares]

def watch(self, *args, **kwargs):
    begun.append(states())
    outcome = real_watch(self, *args, **kwargs)
    after.append(states())
    return outcome

def go(self):
    at_go.append(states())
    real_go(self)

children.Spare.watch, children.Spare.go = watch, go
req = EvalRequest(code=open(sys.argv[1]).read(), reference_source=open(sys.argv[2]).read(),
                  task_id="level1/19_ReLU", mock=sys.argv[3] == "mock", backlog=int(sys.argv[4]))
settled = []  # once each step's answer is in
first = host.handle(req)
settled.append(states())
again = host.handle(req)
settled.append(states())
print(json.dumps({"stages": [first.stage, again.stage], "begun": begun, "at_go": at_go,
                  "after": after, "settled": settled,
                  "seconds": [first.process_seconds, again.process_seconds]}))
host.close()
"""


def _host_steps(mode: str = "mock", backlog: int = 0) -> dict:
    """Two steps through a worker Host in a process of its own: forking from this test process,
    which has run torch's thread pools, could hang the child (as a worker host never does)."""
    import json
    import subprocess
    import sys

    from tests.conftest import KERNELS, ROOT

    done = subprocess.run([sys.executable, "-c", HOST_SCRIPT, str(KERNELS / "legit" / "relu.py"),
                           str(BUNDLED / "level1" / "19_ReLU.py"), mode, str(backlog)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, TRITON_INTERPRET="1"))  # as the worker's main sets
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


STOPPED = ("T", "t")


def _check_process_seconds(out: dict) -> None:
    for seconds in out["seconds"]:
        assert set(seconds) == {"context", "prewarm", "wait", "handover", "report"}
        assert all(0.0 <= v < 30 for v in seconds.values())
        assert seconds["wait"] <= seconds["context"] + seconds["prewarm"] + 1.0


def test_with_steps_waiting_spares_warm_beside_a_steps_untimed_stages_and_stop_while_it_is_timed():
    """A process making its CUDA context beside a timed step gave that step's timing outliers on
    the H200 (bench/results/2026-12-01-h200-s12-spare-ab.log). With steps waiting for the GPU
    the spares warm beside a step's static check, compile and correctness trials (the job's
    replacement forked at once), and its timing stage begins only once every spare has stopped
    (SIGSTOP); the reference's profile (timed throughout) runs with them stopped from its start.
    After a step, two spares are running and warming."""
    out = _host_steps("real", backlog=1)
    assert out["stages"] == ["scored", "scored"]
    profile, *candidates = out["begun"]  # the profile's step, then two candidates'
    assert len(profile) == 1 and profile[0][0] in STOPPED  # the other spare: stopped throughout
    for spares in candidates:  # the other spare and the one forked in the job's place: warming
        assert len(spares) == 2 and all(warming for _, warming in spares)
    assert len(out["at_go"]) == 2  # each candidate's timing stage waited for this answer
    for spares in out["at_go"]:
        assert len(spares) == 2 and all(state in STOPPED for state, _ in spares)
    assert out["after"][0][0][0] in STOPPED  # the profile's answer is in: still stopped
    for spares in out["after"][1:] + out["settled"]:  # resumed once the timed calls were over
        assert len(spares) == 2 and all(state not in STOPPED and warming for state, warming in spares)
    _check_process_seconds(out)


def test_with_no_step_waiting_the_replacement_is_forked_once_the_timed_calls_are_over():
    """Alone on the GPU, a step competes with nothing: the job's replacement is forked once its
    timed calls are over (making its context beside the re-checks and the report) and warms once
    the step is over; the other spare (ready) is still stopped while the step is timed."""
    out = _host_steps("real", backlog=0)
    assert out["stages"] == ["scored", "scored"]
    for spares in out["begun"][1:]:  # the other spare only
        assert len(spares) == 1
    for spares in out["at_go"]:
        assert len(spares) == 1 and spares[0][0] in STOPPED
    for spares in out["after"][1:]:  # the replacement exists, not yet warming
        assert len(spares) == 2 and spares[0][1] and not spares[1][1]
    for spares in out["settled"]:
        assert len(spares) == 2 and all(state not in STOPPED and warming for state, warming in spares)
    _check_process_seconds(out)


def test_a_step_that_times_nothing_never_pauses_the_spares():
    """A mock step (no timing stage) neither waits for the host's answer nor stops a spare."""
    out = _host_steps("mock")
    assert out["stages"] == ["scored", "scored"]
    assert out["at_go"] == []
    for spares in out["begun"][1:] + out["after"][1:] + out["settled"]:
        assert all(state not in STOPPED for state, _ in spares)
    assert [len(spares) for spares in out["settled"]] == [2, 2]


def test_a_spare_that_died_before_its_job_is_reported_not_hung():
    from server.evaluation import children

    spare = children.Spare("cpu")
    os.kill(spare.pid, 9)
    time.sleep(0.2)
    spare.send({"kind": "candidate", "request": {}})  # a broken pipe: no exception
    outcome = spare.watch(LIMITS, 4.0)
    cls, _ = describe_death(outcome, LIMITS)
    assert outcome.payload is None and cls == "out_of_memory"  # SIGKILL reads as the OOM killer
    assert outcome.stage == children.STARTUP  # before its job: the worker host's failure (below)


SLOW_START_SCRIPT = """
import json, sys, time
from server.evaluation import children, pipeline, worker
from server.evaluation.protocol import EvalRequest

real_prewarm = pipeline.prewarm
def slow_prewarm(dev):  # a loaded host: the spare's warm-up outlasts the static check's limit
    time.sleep(float(sys.argv[3]))
    real_prewarm(dev)
pipeline.prewarm = slow_prewarm
children.STARTUP_LIMIT_S = float(sys.argv[4])
host = worker.Host("cpu", spares=1)
padding = "\\n# " + "x" * int(sys.argv[6]) + "\\n"  # a large submission: its spec beyond a pipe's 64 KiB
req = EvalRequest(code=open(sys.argv[1]).read() + padding, reference_source=open(sys.argv[2]).read(),
                  task_id="level1/19_ReLU", stage_timeouts={"static_check": 1.0, "compile": 30,
                  "correctness": 60, "timing": 60})
if sys.argv[5] == "candidate":  # the profile made at full speed: only the candidate's start is slow
    pipeline.prewarm = real_prewarm
    host.handle(req)
    pipeline.prewarm = slow_prewarm
    host.close()  # its spare warmed at full speed
first = host.handle(req)
print(json.dumps({"stage": first.stage, "error_class": first.error_class, "feedback": first.feedback}))
host.close()
"""


def _slow_start(warm_up_s: float, startup_limit_s: float, slow: str = "both", padding: int = 0) -> dict:
    import json
    import subprocess
    import sys

    from tests.conftest import KERNELS, ROOT

    done = subprocess.run([sys.executable, "-c", SLOW_START_SCRIPT, str(KERNELS / "legit" / "relu.py"),
                           str(BUNDLED / "level1" / "19_ReLU.py"), str(warm_up_s), str(startup_limit_s),
                           slow, str(padding)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, TRITON_INTERPRET="1"))
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_spares_slow_warm_up_is_not_charged_to_the_steps_static_check():
    """Under load (2 cores shared with other evaluations) a spare's warm-up outlasted the static
    check's limit and an honest step failed `static_check` with a timeout: the job's stages are
    timed from when the child begins them."""
    out = _slow_start(warm_up_s=3.0, startup_limit_s=120.0)
    assert out["stage"] == "scored", out


@pytest.mark.parametrize("slow, padding", [("both", 0), ("candidate", 0), ("both", 200_000)])
def test_a_spare_that_never_finishes_starting_is_the_evaluators_failure(slow, padding):
    """The profile's process or the candidate's; a large submission's spec once blocked the
    host writing it to a spare still warming, before the start's limit ran."""
    out = _slow_start(warm_up_s=5.0, startup_limit_s=1.0, slow=slow, padding=padding)
    assert out["stage"] == "static_check" and out["error_class"] == "internal_error", out
    assert "failed to start" in out["feedback"] and "'startup' ran past its 1.0 s" in out["feedback"], out


def test_a_stopped_worker_host_leaves_no_scratch_folder():
    """Evaluation folders are the host's to remove; a host killed (shutdown, restart after a
    hang) cannot, so they live under a folder of the host's own that the pool removes."""
    from server.pool import WorkerHost

    host = WorkerHost("cpu")
    host.start()
    try:
        scratch = host.scratch
        deadline = time.time() + 30
        while not os.listdir(scratch) and time.time() < deadline:  # the spare's folder
            time.sleep(0.1)
        assert any(name.startswith("kernel_env_eval_") for name in os.listdir(scratch))
        leader = host.proc.pid
        assert len(session_members(leader)) >= 2  # the host and its spare evaluation process
    finally:
        host.stop()
    assert not os.path.exists(scratch) and host.scratch is None
    assert session_members(leader) == []


ORPHANING_BUILD = """
import subprocess, sys
# a build tool in a process group of its own, as ninja and nvcc are in an evaluation's
tool = subprocess.Popen([sys.executable, "-c", "import os, time; os.setpgrp(); time.sleep(300)"])
print(tool.pid, flush=True)
tool.wait()
"""


def test_killing_a_session_reaches_what_outlived_its_leader():
    """A build's ninja and nvcc are not the evaluation process's children by the death signal
    (it reaches children only), so a killed host left them running; stopping a host kills its
    whole session, however deep and whatever process group."""
    import subprocess
    import sys

    leader = subprocess.Popen([sys.executable, "-c", ORPHANING_BUILD], stdout=subprocess.PIPE,
                              text=True, start_new_session=True)
    tool = int(leader.stdout.readline())
    leader.kill()
    leader.wait()
    assert session_members(leader.pid) == [tool]  # orphaned, still running
    assert kill_session(leader.pid) == []
    assert session_members(leader.pid) == []


def test_a_session_id_whose_leader_pid_was_reused_is_left_alone():
    """A dead host's pid may belong to a new process (another session's leader) by the time its
    session is cleaned up: its start time tells, and nothing is killed."""
    import subprocess
    import sys

    from server.pool import start_time

    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                             start_new_session=True)
    try:
        assert kill_session(other.pid, start_time(other.pid) + 1) == []
        assert other.poll() is None and session_members(other.pid) == [other.pid]
        assert kill_session(other.pid, start_time(other.pid)) == []  # its own: killed
        assert other.wait(timeout=10) == -9
    finally:
        other.kill()


PRIMED_FORK = """
import os, sys
from triton.runtime.cache import triton_key
from server.evaluation.worker import prime_triton
prime_triton()
pid = os.fork()
if pid == 0:  # an evaluation process: its first Triton compile finds the key computed
    os._exit(0 if triton_key.cache_info().currsize == 1 else 1)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def test_evaluation_processes_inherit_tritons_own_hash_from_the_host():
    """Every Triton compile's cache lookup is keyed by a hash of Triton's files and its 400 MB
    compiler library; the host computes it once before forking (no CUDA involved), so an
    evaluation process's warm-up does not."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    done = subprocess.run([sys.executable, "-c", PRIMED_FORK], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_host_that_fails_to_start_answers_the_step_as_the_evaluators_failure(monkeypatch):
    """A step that finds its host dead starts it again; when that start fails too, the step
    gets an internal_error (which costs the agent no turn), not an exception in the server."""
    import server.pool as pool
    from server.evaluation.protocol import EvalRequest

    monkeypatch.setattr(pool.sys, "executable", "/bin/false")  # the host exits at once
    host = pool.WorkerHost("cpu")
    result = host.evaluate(EvalRequest(code="", reference_source="", task_id="level1/19_ReLU"), 30)
    assert result.error_class == "internal_error" and "failed to start" in result.feedback
    assert host.proc is None and host.scratch is None


FORGED_SPEC_SCRIPT = """
import json, os, sys, time
from server.evaluation import children, pipeline, worker
from server.evaluation.protocol import EvalRequest

real_prewarm, real_send = pipeline.prewarm, children.Spare.send
def slow_prewarm(dev):  # the spare reads its job only after this
    time.sleep(2.0)
    real_prewarm(dev)
def send(self, spec):  # another process of the same user rewrites the job before it is read
    real_send(self, spec)
    with open(os.path.join(self.workdir, children.JOB_FILE), "w") as f:
        json.dump(dict(spec, request=dict(spec["request"], code="forged")), f)
pipeline.prewarm, children.Spare.send = slow_prewarm, send
host = worker.Host("cpu", spares=1)
req = EvalRequest(code=open(sys.argv[1]).read(), reference_source=open(sys.argv[2]).read(),
                  task_id="level1/19_ReLU")
first = host.handle(req)
print(json.dumps({"stage": first.stage, "error_class": first.error_class, "feedback": first.feedback}))
host.close()
"""


def test_a_job_spec_rewritten_before_the_spare_reads_it_is_refused():
    """The spec waits in a file of the evaluation's folder (any process of the worker's user
    could write there); the notice on the pipe carries its SHA-256."""
    import json
    import subprocess
    import sys

    from tests.conftest import KERNELS, ROOT

    done = subprocess.run([sys.executable, "-c", FORGED_SPEC_SCRIPT, str(KERNELS / "legit" / "relu.py"),
                           str(BUNDLED / "level1" / "19_ReLU.py")], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env=dict(os.environ, TRITON_INTERPRET="1"))
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["error_class"] == "internal_error" and "not the one the worker host wrote" in out["feedback"], out


def test_a_job_waits_for_exiting_processes_only_where_their_memory_is_missing():
    """Back-to-back full-size steps: a killed evaluation process releases its device memory only
    once it has exited. The next job, in its own process before any of its code runs, waits for
    the processes the host lists as still exiting where less than half the device is free; with
    enough free it does not wait."""
    import subprocess

    from server.evaluation import children

    exiting = subprocess.Popen(["sleep", "1.5"])
    children._unreaped.add(exiting.pid)
    assert exiting.pid in children.exiting()
    assert children.await_exits([exiting.pid], lambda: 0.9) == 0.0  # enough free: no wait
    waited = children.await_exits([exiting.pid], lambda: 0.1)
    # (1 s of slack for a loaded host between the start and the wait; not await_exits's 30 s)
    assert 0.5 < waited < 10 and exiting.poll() is not None  # until it had exited (a zombie)
    assert exiting.pid not in children.exiting()  # collected
    assert children.await_exits([], lambda: 0.1) == 0.0  # none listed: nothing to wait for
    # listed but gone already: its memory may still be coming back (SETTLE_S without a rise)
    assert children.SETTLE_S <= children.await_exits([exiting.pid], lambda: 0.1) < children.SETTLE_S + 1


def test_a_job_waits_while_the_memory_of_an_exited_process_still_comes_back():
    """The driver may hand a dead process's device memory back after the process is gone: the
    wait goes on while the free share rises, and stops once it has stopped rising (SETTLE_S)."""
    import subprocess

    from server.evaluation import children

    exiting = subprocess.Popen(["sleep", "0.2"])
    children._unreaped.add(exiting.pid)
    start = time.monotonic()

    def free_share():  # 10 % free until 1.2 s after the start, then 90 %, in steps
        return min(0.9, 0.1 + max(0.0, time.monotonic() - start - 0.2) * 0.8)

    waited = children.await_exits([exiting.pid], free_share)
    assert exiting.poll() is not None and free_share() >= 0.5
    assert 0.6 < waited < 5  # past the exit, until half the device was free
    children.reap_finished()

    exiting = subprocess.Popen(["sleep", "0.2"])
    children._unreaped.add(exiting.pid)
    waited = children.await_exits([exiting.pid], lambda: 0.1)  # it never comes back: SETTLE_S more
    assert children.SETTLE_S <= waited < children.SETTLE_S + 5
    children.reap_finished()


def test_a_warm_up_that_failed_is_tried_again_until_it_works_and_then_reported(monkeypatch):
    """A spare whose warm-up found no memory (a step beside it held the device) warms again once
    its job arrives, until it works; one that never works is the evaluator's failure, named with
    the first error (tests/test_gpu.py runs it beside a process that fills an H200)."""
    import torch

    from server.evaluation import children, pipeline

    attempts = []

    def short_of_memory(device):
        attempts.append(device)
        if len(attempts) < 3:
            raise torch.OutOfMemoryError(f"attempt {len(attempts)}: out of memory")

    monkeypatch.setattr(pipeline, "prewarm", short_of_memory)
    first = children._warm(torch.device("cpu"))
    assert isinstance(first, torch.OutOfMemoryError)
    children._warm_again(torch.device("cpu"), first)
    assert len(attempts) == 3

    def never(device):
        raise torch.OutOfMemoryError("still out of memory")

    monkeypatch.setattr(pipeline, "prewarm", never)
    monkeypatch.setattr(children, "CONTEXT_RETRY_S", 0.3)
    with pytest.raises(RuntimeError, match="warm-up failed on cpu for 0 s.*attempt 1: out of memory"
                       "; last: still out of memory, not a GPU"):
        children._warm_again(torch.device("cpu"), first)


FREED_PROBE = """
import os
os.environ.pop("GLIBC_TUNABLES", None)  # as the worker host does, before forking evaluations
import torch
read, write = os.pipe()
if os.fork() == 0:  # an evaluation: forked, never exec'd
    reused = 0
    for n in (200, 5000, 100_000, 3_000_000):  # the thread cache's sizes, the heap's, mmap's
        for _ in range(10):
            kept = torch.full((n,), 1234.5)
            del kept
            reused += int(bool((torch.empty(n) == 1234.5).any()))
    os.write(write, str(reused).encode())
    os._exit(0)
os.close(write)
print(os.read(read, 64).decode())
"""


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's malloc tunables")
def test_host_memory_an_evaluation_frees_reaches_no_later_allocation():
    """Red-team pass 59 read a unit trial's driven units out of memory the evaluator had freed,
    through the candidate's torch.empty. Worker hosts run with malloc perturbation: what is freed
    is overwritten as it is freed, so a later allocation of the same size holds none of it
    (without the setting, many of them do), in the evaluations they fork too."""
    import subprocess
    import sys

    from server.pool import ROOT, scrubbed_env

    def reused(env) -> int:
        done = subprocess.run([sys.executable, "-c", FREED_PROBE], env=env, cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        return int(done.stdout.strip())

    env = scrubbed_env("cpu")
    assert reused(env) == 0
    # The control: without the setting, reuse is common but how common varies run to run with
    # glibc's dynamic mmap threshold (16 to 29 of 40 measured here), so it asks for only a few.
    assert reused({k: v for k, v in env.items() if k != "GLIBC_TUNABLES"}) >= 5


def test_a_class_changed_and_changed_back_is_seen():
    """A name planted on a class and removed before the next check leaves the bindings as they
    were; the class's version tag is new (red-team pass 74: a property on `abc.ABC` named `gen`
    ran at every `with` of a generator's context manager, the evaluator's own among them, and
    went before the check). Each change is named where it was made, not in every subclass."""
    import abc
    versions, bindings = integrity.ClassVersions(), integrity.Bindings()
    assert versions.classes and versions.changed() == []
    for cls, name in [(abc.ABC, "gen"), (torch.Tensor, "has_names"), (torch.nn.Parameter, "detach"),
                      (torch.no_grad, "prev"), (torch.nn.Linear, "forward")]:
        had = vars(cls).get(name)
        setattr(cls, name, property(lambda self: None))
        if had is None:
            delattr(cls, name)
        else:
            setattr(cls, name, had)
        assert bindings.unchanged()  # what the bindings see: nothing
        assert versions.changed() == [f"{cls.__module__}.{cls.__qualname__}"]
        versions = integrity.ClassVersions()


def test_a_name_planted_in_a_modules_globals_and_removed_is_seen():
    """The bindings read the namespaces they name; a library module's globals are a dict whose
    version tag changes whenever a name is set or deleted there (red-team pass 75: a `next`
    planted in contextlib's globals ran at every `with` of the evaluator's context managers).
    Each changed module is named; reading leaves the tags as they were."""
    import contextlib
    import functools
    from server.evaluation import correctness  # noqa: F401  (loaded: the evaluator's own is watched)
    from server.evaluation.module_globals import ModuleGlobals
    import collections
    tags = ModuleGlobals()
    assert {"contextlib", "functools", "torch.nn.functional", "server.evaluation.correctness",
            "builtins", "sys", "torch", "torch.nn", "collections", "numpy"} <= set(tags.names)
    _ = contextlib.nullcontext, vars(functools).get("reduce")
    assert tags.changed() == []
    import builtins
    for module in (contextlib, functools, torch.nn.functional, builtins, sys, torch, torch.nn,
                   collections):
        module.kernel_env_planted = len  # (a new name: deleting `next` would take the builtin)
        del module.kernel_env_planted
        assert tags.changed() == [module.__name__]
        tags = ModuleGlobals()


def test_a_package_gaining_a_submodule_is_no_change_but_a_name_planted_after_that_is(tmp_path,
                                                                                       monkeypatch):
    """A package's globals gain a name when a submodule of it is first imported (torch's lazy
    `_dynamo`): that is no change; the check that saw it starts from there, so a name planted
    and put back in the package afterwards is still one. A module bound under another name, or
    a submodule bound to a name not its own, is a change."""
    import importlib
    from server.evaluation.module_globals import ModuleGlobals
    package = tmp_path / "kernel_env_probe_package"
    package.mkdir()
    (package / "__init__.py").write_text("VALUE = 1\n")
    (package / "later.py").write_text("")
    (package / "other.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    probe = importlib.import_module("kernel_env_probe_package")
    monkeypatch.setattr(sys.modules["server.evaluation.module_globals"], "_LIBRARY_ROOTS",
                        ("torch", "numpy", "triton", "kernel_env_probe_package"))
    try:
        tags = ModuleGlobals()
        assert "kernel_env_probe_package" in tags.names
        importlib.import_module("kernel_env_probe_package.later")
        assert tags.changed() == []
        probe.planted = len
        del probe.planted
        assert tags.changed() == ["kernel_env_probe_package"]
        tags = ModuleGlobals()
        probe.VALUE = probe.later  # a module, but not the submodule of that name
        assert tags.changed() == ["kernel_env_probe_package"]
        probe.VALUE = 1
        tags = ModuleGlobals()
        other = importlib.import_module("kernel_env_probe_package.other")
        probe.other = probe.later  # the import's own name bound to another module
        assert tags.changed() == ["kernel_env_probe_package"]
        probe.other = other
    finally:
        for name in [m for m in sys.modules if m.startswith("kernel_env_probe_package")]:
            del sys.modules[name]


def _evaluation_in_a_fresh_interpreter(script, text: str) -> dict:
    """Runs `text` from the file `script` (code from a string would count as a submission's) in a
    fresh interpreter, as the cpu evaluator's worker host starts one; its last line of output,
    as JSON."""
    import json
    import subprocess
    root = BUNDLED.parents[2]
    script.write_text(text)
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=str(root))
    done = subprocess.run([sys.executable, str(script)], cwd=root, env=env, timeout=600,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


PLANTED_SCRIPT = """
import json, sys, tempfile
from server.evaluation import pipeline, refused_names
from server.evaluation.protocol import EvalRequest
from tests.conftest import BUNDLED, kernel_source

del refused_names.FORBIDDEN_NAMES["enum.global_enum"]  # the static rule set aside: the run-time check
task = "level1/19_ReLU"
req = EvalRequest(code=kernel_source("adversarial", "relu_computed_by_next_planted_in_contextlib_by_global_enum"),
                  reference_source=(BUNDLED / f"{task}.py").read_text(), task_id=task, trials=2)
profile = pipeline.profile_reference(req, tempfile.mkdtemp())
result = pipeline.evaluate_candidate(req, profile, tempfile.mkdtemp(), lambda stage: None)
print(json.dumps({"stage": result.stage, "error_class": result.error_class, "feedback": result.feedback}))
"""


def test_a_name_planted_in_contextlibs_globals_is_tampering_without_the_static_rule(tmp_path):
    """Red-team pass 75's kernel with `enum.global_enum` allowed: the plant in contextlib's globals
    is found at the first check after the import, before any forward (a fresh interpreter: the
    plant is the submission's, not this process's)."""
    payload = _evaluation_in_a_fresh_interpreter(tmp_path / "planted.py", PLANTED_SCRIPT)
    assert (payload["stage"], payload["error_class"]) == ("compile", "tampering"), payload
    assert "globals of modules" in payload["feedback"] and "contextlib" in payload["feedback"]


FILTERS_SCRIPT = PLANTED_SCRIPT.replace(
    'del refused_names.FORBIDDEN_NAMES["enum.global_enum"]',
    'del refused_names.FORBIDDEN_NAMES["warnings.filters"]').replace(
    "relu_computed_by_next_planted_in_contextlib_by_global_enum",
    "relu_computed_by_a_filter_planted_in_warnings_filters")


def test_a_warning_filter_not_made_by_filterwarnings_is_tampering_without_the_static_rule(tmp_path):
    """Red-team pass 76's kernel with `warnings.filters` allowed: the entry its forward puts in
    the filters (a message whose comparison runs its code) is found after the call, before the
    evaluator's `warnings.simplefilter` compares anything with it."""
    payload = _evaluation_in_a_fresh_interpreter(tmp_path / "filters.py", FILTERS_SCRIPT)
    assert (payload["stage"], payload["error_class"]) == ("correctness", "tampering"), payload
    assert "warning filters" in payload["feedback"]


def test_filters_that_warnings_makes_are_plain():
    """What `filterwarnings`, `simplefilter` and `catch_warnings` put in the filters (patterns,
    a submission's own Warning class) passes the run-time check."""
    import collections
    import warnings
    from server.evaluation import integrity

    class OwnWarning(UserWarning):
        pass

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="deprecated", category=OwnWarning, module="x.y")
        warnings.simplefilter("error", DeprecationWarning, lineno=3)
        assert integrity.foreign_warning_filters() == 0
        warnings.filters.insert(0, ("ignore", collections.UserString("x"), Warning, None, 0))
        assert integrity.foreign_warning_filters() == 1


TRACE_SCRIPT = """
import json, os, sys, tempfile, types
from server.evaluation import integrity, module_globals, pipeline
from server.evaluation.protocol import EvalRequest
from tests.conftest import BUNDLED, kernel_source

task = "level2/76_Gemm_Add_ReLU"
req = EvalRequest(code=kernel_source("legit", "gemm_add_relu"),
                  reference_source=(BUNDLED / f"{task}.py").read_text(), task_id=task, trials=2)
profile = pipeline.profile_reference(req, tempfile.mkdtemp())
workdir = tempfile.mkdtemp()
receivers, loaded, modules = {}, [], set()
load = pipeline.load_candidate

def load_then_trace(*args, **kwargs):
    made = load(*args, **kwargs)
    loaded.append(True)
    return made

def submissions(frame):
    while frame is not None:
        if frame.f_code.co_filename.startswith(workdir):
            return True
        frame = frame.f_back
    return False

def trace(frame, event, arg):
    if not loaded or event not in ("call", "c_call") or submissions(frame):
        return
    if event == "call":
        modules.add(frame.f_globals.get("__name__"))
        code = frame.f_code
        if not (code.co_argcount and code.co_varnames[0] in ("self", "cls")):
            return
        receiver = frame.f_locals.get(code.co_varnames[0])
    else:
        receiver = getattr(arg, "__self__", None)
        if receiver is None or isinstance(receiver, types.ModuleType):
            return
    cls = receiver if isinstance(receiver, type) else type(receiver)
    receivers[id(cls)] = cls

pipeline.load_candidate = load_then_trace
sys.setprofile(trace)
result = pipeline.evaluate_candidate(req, profile, workdir, lambda stage: None)
sys.setprofile(None)
extra = {"Model": next(c for c in receivers.values() if c.__name__ == "Model")}
watched = {id(c) for c in integrity.watched_classes(extra)}
# (pybind11's function records: what torch._C's functions are bound to, reached only as
# `f.__self__`, which the static rules refuse; native code calls them, no name is looked up)
skipped = ("server.evaluation.", "submission", "kernel_env_reference", "pybind11_builtins")
unwatched = sorted({f"{c.__module__}.{c.__qualname__}" for c in integrity._mutable_classes(
    receivers.values()) if id(c) not in watched and not c.__module__.startswith(skipped)}
    - integrity.CHANGING_CLASSES)
# the modules whose code ran: a name planted in their globals is looked up by that code
tags = module_globals.ModuleGlobals()
unwatched_globals = sorted(m for m in modules - set(tags.names) if m and not m.startswith(
    module_globals.VOLATILE_PREFIXES + ("submission", "kernel_env_reference"))
    and m not in module_globals.CHANGING_MODULES and m != "__main__")
print(json.dumps({"stage": result.stage, "feedback": result.feedback, "traced": len(receivers),
                  "unwatched": unwatched, "modules": len(modules),
                  "unwatched_globals": unwatched_globals}))
"""


def test_every_library_class_the_evaluator_calls_after_the_import_is_watched(tmp_path):
    """One evaluation of an honest kernel on a task with unit trials, in a fresh interpreter
    (as the cpu evaluator's worker host starts one), every call the evaluator's code makes after
    the submission's import traced (not those under the submission's frames: the guard watches
    those): every class that accepts new names, in the MRO of every object such a call reached,
    is one the version check watches. The evaluator's own classes, the submission's and the task
    module's (watched as the task's) are left out (red-team pass 74 found the rest this way).
    Likewise every module or package whose code such a call ran has its globals' version
    watched, but for the modules module_globals.CHANGING_MODULES names (red-team pass 75)."""
    payload = _evaluation_in_a_fresh_interpreter(tmp_path / "trace_evaluation.py", TRACE_SCRIPT)
    assert payload["stage"] == "scored", payload["feedback"]
    assert payload["traced"] > 50
    assert payload["unwatched"] == [], payload["unwatched"]
    assert payload["modules"] > 30
    assert payload["unwatched_globals"] == [], payload["unwatched_globals"]
