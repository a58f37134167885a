"""The gate around load_inline: a CUDA submission's build is checked as it is called, whatever the
file's text showed the static check. Every refusal happens before anything is written or built,
so these run without a GPU or a compiler."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch.utils.cpp_extension as cpp_extension

from server.evaluation import build_gate, so_imports
from server.evaluation.cuda_sources import check_cuda_sources
from server.evaluation.guard import ALLOWED_OP_NAMES
from server.evaluation.stages import StageFailure
from server.evaluation.static_check import static_check

CPP = "torch::Tensor relu(torch::Tensor x);"
CUDA = ("__global__ void relu_kernel(const float* x, float* y, long n) { }\n"
        "torch::Tensor relu(torch::Tensor x) { return x; }")


@pytest.fixture
def gate(monkeypatch):
    """The gate in front of a recorder standing in for torch's load_inline."""
    built = []
    monkeypatch.setattr(cpp_extension, "load_inline", lambda *a, **k: built.append((a, k)) or "ext")
    monkeypatch.setattr(build_gate, "_refusals", [])
    build_gate.install()
    assert cpp_extension.load_inline is build_gate.gated_load_inline
    yield built
    build_gate.install()  # idempotent
    monkeypatch.undo()


def test_a_plain_build_passes_through_unchanged(gate):
    assert cpp_extension.load_inline("relu_ext", CPP, cuda_sources=[CUDA], functions=["relu"],
                                     extra_cuda_cflags=["-O3", "--use_fast_math"], verbose=False) == "ext"
    (args, kwargs), = gate
    assert args == ("relu_ext", [CPP], [CUDA])
    assert kwargs == {"functions": ["relu"], "extra_cuda_cflags": ["-O3", "--use_fast_math"],
                      "verbose": False}
    assert build_gate.refusal() is None


@pytest.mark.parametrize("call, said", [
    (lambda li: li("kx;id >x;#", CPP, CUDA), "name"),
    (lambda li: li("ext", CPP, CUDA, functions={"relu": 'doc");} void f() {("'}), "functions"),
    (lambda li: li("ext", CPP, CUDA, functions=['relu", "x']), "functions"),
    (lambda li: li("ext", CPP, CUDA.replace("{ }", "{ cudaMallocManaged(0, 0); }", 1)), "mallocmanaged"),
    (lambda li: li("ext", [CPP, "#include <thrust/device_vector.h>"], CUDA), "thrust"),
    (lambda li: li("ext", CPP, CUDA, extra_cuda_cflags=["-DSTAGE=cudaMallocManaged"]), "flag"),
    (lambda li: li("ext", CPP, CUDA, extra_ldflags=["-lcublas"]), "flag"),
    (lambda li: li("ext", CPP, CUDA, build_directory="/tmp"), "build_directory"),
    (lambda li: li("ext", CPP, CUDA, None, ["relu"]), "by position"),
    (lambda li: li("ext", CPP, CUDA, verbose="yes"), "verbose"),
    (lambda li: li("ext", CPP, CUDA, functions=["relu", "system"]), "system"),
    (lambda li: li("ext", CPP, CUDA, functions=["gelu"]), "do not define"),
    (lambda li: li("ext", [CPP + "\n// the end \\"], "int hidden() { return system(0); }\n" + CUDA),
     "system"),
], ids=["shell-in-name", "docstring", "quoted-function", "managed-memory", "thrust-include",
        "define-flag", "library-flag", "build-directory", "positional", "verbose-object",
        "libc-bound", "undefined-binding", "comment-spilling-into-the-next-file"])
def test_what_is_passed_is_checked(gate, call, said):
    with pytest.raises(StageFailure) as refused:
        call(cpp_extension.load_inline)
    assert refused.value.error_class == "format_violation" and said in refused.value.feedback.lower()
    assert gate == []  # nothing was built
    assert build_gate.refusal() is refused.value  # sticky when the submission catches it


def test_a_list_changed_after_it_was_read_is_checked_as_built(gate):
    """The static check reads a name's literal; a list can change afterwards."""
    sources = [CUDA]
    sources[0] = CUDA.replace("{ }", "{ cudaMallocManaged(0, 0); }", 1)
    with pytest.raises(StageFailure):
        cpp_extension.load_inline("ext", CPP, cuda_sources=sources)
    assert gate == []


def test_the_worker_host_does_not_import_cpp_extension():
    """Importing torch.utils.cpp_extension counts the CUDA devices, which poisons every later fork
    of the worker host for CUDA (the H200 run's children all failed): the gate imports it in the
    evaluation process only."""
    import subprocess
    import sys
    code = ("import sys, server.pool, server.evaluation.pipeline, server.evaluation.children; "
            "print('torch.utils.cpp_extension' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _library(tmp_path, name: str, body: str) -> str:
    """A shared library built from C with the system's compiler (what an extension's `.so` is)."""
    source = tmp_path / f"{name}.c"
    source.write_text(body)
    library = tmp_path / f"{name}.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    return str(library)


needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")


@needs_cc
def test_a_library_is_loaded_only_when_its_imports_are_a_kernels(tmp_path, monkeypatch):
    """The build's last step reads the library's undefined symbols before loading it: spelling
    tricks in the C++ text (a raw string's prefix, a digit separator) cannot hide what it calls."""
    _library(tmp_path, "honest", "#include <string.h>\nvoid copy(char* a, const char* b, int n) { memcpy(a, b, n); }\n")
    _library(tmp_path, "shell", "#include <stdlib.h>\n__attribute__((constructor)) static void run(void) { system(\"true\"); }\n")
    loaded = []
    monkeypatch.setattr(build_gate, "_refusals", [])
    load = build_gate._checked_import(lambda name, path, python: loaded.append(name) or name, ".so")
    assert load("honest", str(tmp_path), True) == "honest"
    with pytest.raises(StageFailure) as refused:
        load("shell", str(tmp_path), True)
    assert "`system`" in refused.value.feedback and loaded == ["honest"]  # never loaded
    assert build_gate.refusal() is refused.value


@needs_cc
def test_imports_are_read_from_the_dynamic_symbol_table(tmp_path):
    library = _library(tmp_path, "calls", "#include <stdio.h>\n#include <dlfcn.h>\n"
                       "void* f(const char* p) { puts(p); return dlopen(p, 0); }\n")
    names = so_imports.undefined_symbols(library)
    assert {"puts", "dlopen"} <= {n.split("@")[0] for n in names}
    assert "dlopen" in so_imports.forbidden_import(names, ALLOWED_OP_NAMES)


@pytest.mark.parametrize("symbol, refused", [
    ("memcpy", False), ("cudaLaunchKernel", False), ("__cudaRegisterFatBinary", False),
    ("cudaMemcpyToSymbol", False), ("_ZN2at4_ops19empty_memory_format4callEv", False),
    ("_ZN2at4_ops12slice_Tensor4callEv", False), ("_ZN2at4_ops5copy_4callEv", False),
    ("system", True), ("__open_2", True), ("_Fork", True), ("execveat", True), ("pwrite64", True),
    ("dl_iterate_phdr", True), ("wordexp", True), ("cudaGraphAddHostNode", True),
    ("cudaMallocManaged", True), ("cublasSgemm_v2", True), ("_ZN2at4_ops2mm4callEv", True),
    ("_ZN3c1014TaskThreadPoolC1Em", True), ("_ZN2at6detail9empty_cpuEv", True),
    ("_ZN3c1020ThreadLocalDebugInfo3getENS_13DebugInfoKindE", True),
    ("_ZN2at4cuda12GreenContext6createEji", True), ("_ZNSt6thread15_M_start_threadEv", True),
    # red-team pass 25: kernels past the dispatcher, files, Python that runs code
    ("_ZN2at4cuda2mmERKNS_6TensorES3_", True), ("_ZN2at4cuda8_softmaxERKNS_6TensorElb", True),
    ("_ZN2at26compositeexplicitautograd5addmmERKNS_6TensorE", True),
    ("_ZN2at4cuda20getCurrentCUDAStreamEa", False), ("_ZN2at4cuda5emptyEN3c108ArrayRefIlEE", False),
    ("_ZN2at12MapAllocator11makeDataPtrEPKciPm", True), ("_ZN5torch3jit4loadERKNSt7__cxx1112basic_stringE", True),
    ("PyRun_SimpleString", True), ("Py_CompileString", True), ("PyEval_EvalCode", True),
    ("PyImport_ImportModule", True), ("PyObject_GetAttrString", False), ("PyDict_New", False),
    ("cudaSetDeviceFlags", True), ("cuCtxSetFlags", True), ("cudaGetDeviceFlags", False),
    ("_ZN3c105utils7set_envEPKcS3_b", True), ("_ZN3c105utils7get_envEPKc", True),
    # red-team pass 65: device code loaded at run time is read by no check of the library
    ("cudaLibraryLoadData", True), ("cuModuleLoadData", True), ("cuModuleLoadDataEx", True),
    ("cuLibraryLoadFromFile", True), ("cuLinkCreate_v2", True), ("cuLinkAddData_v2", True),
    ("cudaLaunchKernelExC", False),
    ("_r_debug", True),  # red-team pass 67: the loader's link_map list, walked by hand
    # red-team pass 73: the CPUs' scheduling, this process's or another's by pid
    ("sched_setaffinity", True), ("pthread_setaffinity_np", True), ("setpriority", True),
    ("sched_setscheduler", True), ("sched_getaffinity", False), ("sched_yield", False),
])
def test_which_imports_are_refused(symbol, refused):
    assert (so_imports.forbidden_import([symbol], ALLOWED_OP_NAMES) is not None) == refused


HONEST = sorted((Path(__file__).parent / "kernels" / "honest_cuda").glob("*.py"))


@pytest.mark.parametrize("path", HONEST, ids=[p.stem for p in HONEST])
def test_honest_cuda_idioms_pass_the_static_check(path):
    """CUDA submissions in common styles (a CUDA_CHECK macro with __FILE__, `m.doc()`, sources
    formatted from constants or joined, nvcc's two-token flags)."""
    static_check(path.read_text(), "cuda")


@pytest.mark.parametrize("path", HONEST, ids=[p.stem for p in HONEST])
def test_honest_cuda_idioms_pass_the_gate(gate, path):
    """Imported, they call load_inline (a recorder here) with nothing refused."""
    spec = importlib.util.spec_from_file_location(f"honest_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert gate and build_gate.refusal() is None


@pytest.mark.parametrize("recorded", sorted((Path(__file__).parent / "data").glob("h200_*_imports.txt")),
                         ids=lambda p: p.stem)
def test_honest_extensions_built_on_the_h200_pass_the_import_check(recorded):
    """The undefined symbols of the legitimate CUDA extensions (relu_cuda, relu_pybind_module) as
    built on the H200 (nvcc 13, torch 2.11): the toolchain's own imports (libstdc++'s
    random_device: open, read, ioctl, syscall) pass; anything refused added to them does not."""
    names = recorded.read_text().split()
    assert len(names) > 200 and "__cudaRegisterFatBinary" in names
    assert so_imports.forbidden_import(names, ALLOWED_OP_NAMES) is None
    for refused in ("system", "dlsym", "pthread_create", "_ZN2at4_ops4relu4callERKNS_6TensorE"):
        assert so_imports.forbidden_import([*names, refused], ALLOWED_OP_NAMES) is not None


@needs_cc
def test_imports_are_read_as_the_loader_reads_them(tmp_path):
    """A library whose section headers are gone (or overflow the 16-bit count) still loads; its
    imports are read from the dynamic segment, so they still show."""
    library = Path(_library(tmp_path, "calls", "#include <stdlib.h>\nint f(void) { return system(\"true\"); }\n"))
    data = bytearray(library.read_bytes())
    data[0x28:0x30] = bytes(8)  # e_shoff
    data[0x3C:0x40] = bytes(4)  # e_shnum, e_shstrndx
    library.write_bytes(bytes(data))
    assert "system" in {n.split("@")[0] for n in so_imports.undefined_symbols(str(library))}
    (tmp_path / "short.so").write_bytes(b"\x7fELF\x02\x01")
    with pytest.raises(ValueError):
        so_imports.undefined_symbols(str(tmp_path / "short.so"))


@pytest.mark.parametrize("text", [
    'extern "C" void** __cudaRegisterFatBinary(void* wrapper);',
    "__cudaRegisterFunction(handle, &key, (char*)\"k\", \"k\", -1, 0, 0, 0, 0, 0);",
    "__cudaPushCallConfiguration(grid, block, 0, 0);",
    "struct __fatBinC_Wrapper_t w;",
])
def test_the_runtimes_registration_of_device_code_is_refused_in_sources(text):
    """Red-team pass 67: a second fatbin carried as scrambled data and registered by hand through
    the runtime's private entry points (which every extension imports, for nvcc's own stubs)."""
    with pytest.raises(StageFailure):
        check_cuda_sources(text)


def test_cuda_macros_that_start_like_the_runtimes_entry_points_pass():
    check_cuda_sources("#if defined(__CUDA_ARCH__) && __CUDACC_VER_MAJOR__ >= 12\n#endif\n"
                       "#ifndef __CUDA_NO_HALF_OPERATORS__\n#endif\n")


# The whole gate on real builds: torch's own load_inline with this machine's nvcc (no GPU needed
# to build, read or load a library), in a fresh process as an evaluation would run it.
CUDA_HOME = next((str(p.parent.parent) for p in sorted(Path("/usr/local").glob("cuda-*/bin/nvcc"))), None)
GATED_BUILD = """
import importlib.util, os, sys
sys.path.insert(0, os.getcwd())
from server.evaluation import build_gate
from server.evaluation.stages import StageFailure
build_gate.install()
spec = importlib.util.spec_from_file_location("submission", sys.argv[1])
module = importlib.util.module_from_spec(spec)
try:
    spec.loader.exec_module(module)
    print("LOADED")
except StageFailure as failure:
    print("REFUSED", failure.error_class, failure.feedback)
"""


def _nvcc_matches_torch() -> bool:
    import torch
    if CUDA_HOME is None or torch.version.cuda is None:
        return False
    return Path(CUDA_HOME).name.removeprefix("cuda-").split(".")[0] == torch.version.cuda.split(".")[0]


@pytest.mark.skipif(not _nvcc_matches_torch(), reason="needs an nvcc of torch's CUDA major version")
@pytest.mark.parametrize("path, verdict", [
    ("honest_cuda/relu_cuda_check_macro.py", "LOADED"),
], ids=["honest"])
def test_real_builds_go_through_the_whole_gate(tmp_path, path, verdict):
    """Built with torch's load_inline, then the imports, the machine code and PTX (cuobjdump),
    and the fatbin records once loaded: an honest extension loads. (An int8 product in such a
    build, `cuda/matmul_int8_wmma_aliased_char.py`, was refused here too, `narrow_precision`;
    left out for CI's time: test_precision builds int8 libraries with nvcc directly.)"""
    from server.pool import ROOT
    env = dict(os.environ, CUDA_HOME=CUDA_HOME, TORCH_CUDA_ARCH_LIST="9.0", MAX_JOBS="1",
               TORCH_EXTENSIONS_DIR=str(tmp_path))
    env["PATH"] = f"{CUDA_HOME}/bin:{env['PATH']}"
    done = subprocess.run([sys.executable, "-c", GATED_BUILD, str(Path(__file__).parent / "kernels" / path)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1].startswith(verdict), done.stdout[-2000:] + done.stderr[-2000:]
