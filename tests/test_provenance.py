"""Kernel provenance: which profiler kernel names count as the submission's own.

The names below are the ones torch.profiler reported on the H200 (bench/kernel_names.py) for the
honest kernels of tests/kernels/legit and for their references (aten, cuBLAS, cuDNN kernels).
Recording itself needs CUDA and is exercised by tests/test_gpu.py.
"""

from __future__ import annotations

import pytest

from server.evaluation.provenance import foreign_kernels, own_kernels
from server.evaluation.static_check import static_check
from tests.conftest import KERNELS

DIRECT_COPY = ("void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::"
               "direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::"
               "{lambda()#7}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, ...)")
FILL = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)")
CAT = ("void at::native::(anonymous namespace)::CatArrayBatchedCopy_alignedK_contig<at::native::"
       "(anonymous namespace)::OpaqueType<4u>, unsigned int, 2, 128, 1, 16>(...)")
LAYOUT = ["Memcpy DtoD (Device -> Device)", "Memset (Device)", "Memcpy HtoD (Pageable -> Device)",
          DIRECT_COPY, FILL, CAT]
VENDOR = [
    "void sgemm_largek_lds64<true, false, 5, 5, 4, 4, 4, 34>(float*, float const*, float const*, int)",
    "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x128_8x4_tn_align1>(cutlass_80_simt_sgemm_128x128_8x4_tn_align1::Params)",
    "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize32x32x8_stage3_warpsize1x2x1_g1_ffma_aligna4_alignc4_execute_kernel__5x_cudnn",
    "void cudnn::bn_fw_tr_1C11_singleread<float, 512, true, 1, 2, 0>(cudnn::bn_fw_tr_1C11_args<float>)",
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MaxOps<float>, unsigned int, float, 4, 4> >(...)",
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::leaky_relu_kernel(at::TensorIteratorBase&, c10::Scalar const&)::{lambda()#1}, std::array<char*, 2ul> >(int, ...)",
]


def triton_own(name: str):
    source = (KERNELS / "legit" / name).read_text()
    return own_kernels("triton", static_check(source, "triton").kernels)


def cuda_own(source: str):
    return own_kernels("cuda", (), static_check(source, "cuda").cuda_source)


def test_a_triton_submissions_own_kernels_and_layout_copies_are_accepted():
    own = triton_own("frobenius_norm.py")
    seen = ["partial_sum_of_squares_kernel", "divide_by_norm_kernel", *LAYOUT]
    assert foreign_kernels(seen, own) == []


@pytest.mark.parametrize("kernel", VENDOR)
def test_library_and_aten_compute_kernels_are_foreign_to_a_triton_submission(kernel):
    assert foreign_kernels(["relu_kernel", kernel], triton_own("relu.py")) == [kernel]


def test_a_triton_name_matches_exactly_not_by_prefix():
    own = triton_own("relu.py")
    assert foreign_kernels(["relu_kernel_2", "void relu_kernel<float>(float*)"], own) == [
        "relu_kernel_2", "void relu_kernel<float>(float*)"]


CUDA_SOURCE = '''
"""A docstring may say anything: __global__ void sgemm_largek_lds64( is not a definition."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SRC = r"""
template <typename T>
__global__ void __launch_bounds__((128) * 2, 1) scale_kernel(const T* x, T* y, long n) {}
__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {}
extern "C" __global__ void plain(float* y) {}
namespace mine { __global__ void inner(float* y) {} }
namespace outer::nested { __global__ void deep(float* y) {} }
namespace at { namespace native { __global__ void sneaky(float* y) {} } }
torch::Tensor run(torch::Tensor x) { return x; }
"""
ext = load_inline(name="t", cpp_sources="torch::Tensor run(torch::Tensor x);", cuda_sources=SRC,
                  functions=["run"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.run(x)
'''


def test_cuda_kernels_are_found_in_the_sources_load_inline_builds():
    own = cuda_own(CUDA_SOURCE)
    assert {"scale_kernel", "relu_kernel", "plain", "inner", "deep", "sneaky"} <= own.names
    assert "sgemm_largek_lds64" not in own.names  # named in a docstring only
    accepted = ["relu_kernel(float const*, float*, long)", "void scale_kernel<float>(float const*, float*, long)",
                "plain", "mine::inner(float*)", "outer::nested::deep(float*)", *LAYOUT]
    assert foreign_kernels(accepted, own) == []


def test_a_cuda_kernel_in_a_library_namespace_is_not_the_submissions_own():
    own = cuda_own(CUDA_SOURCE)
    claimed = ["void at::native::sneaky(float*)", "other::inner(float*)",
               "(anonymous namespace)::relu_kernel(float const*, float*, long)",  # no anonymous namespace in the source
               "void at::native::vectorized_elementwise_kernel<4, at::native::relu_kernel>(int)"]
    assert foreign_kernels(claimed + VENDOR, own) == claimed + VENDOR


def test_vendor_kernel_names_cannot_be_claimed_by_defining_them():
    """A submission that defines a kernel with a cuBLAS kernel's name does not make cuBLAS's own."""
    source = CUDA_SOURCE.replace("__global__ void plain(", "__global__ void sgemm_largek_lds64(")
    own = cuda_own(source)
    assert "sgemm_largek_lds64" in own.names
    assert foreign_kernels([VENDOR[0], "sgemm_largek_lds64(float*)"], own) == [VENDOR[0], "sgemm_largek_lds64(float*)"]
    triton = own_kernels("triton", ("sm80_xmma_fprop_implicit_gemm_f32f32_kernel",))
    assert foreign_kernels(["sm80_xmma_fprop_implicit_gemm_f32f32_kernel"], triton)


def test_the_feedback_does_not_echo_claimable_names():
    from server.evaluation.provenance import describe_foreign
    text = describe_foreign([VENDOR[0], VENDOR[4], "mystery_kernel(float*)"])
    assert "sgemm_largek_lds64" not in text and "mystery_kernel" not in text
    assert "vendor-library" in text and "torch's compute kernels" in text and "does not define" in text


def test_sources_built_at_run_time_are_refused():
    from server.evaluation.stages import StageFailure
    dynamic = CUDA_SOURCE.replace('cuda_sources=SRC,', 'cuda_sources=SRC.replace("x", "y"),')
    with pytest.raises(StageFailure) as caught:
        static_check(dynamic, "cuda")
    assert caught.value.error_class == "format_violation" and "run time" in caught.value.feedback


def test_vendor_names_in_comments_outside_the_sources_are_fine():
    commented = CUDA_SOURCE.replace('"""A docstring', '"""Faster than cuBLAS (## notes). A docstring')
    assert static_check(commented, "cuda").cuda_source


def test_the_honest_cuda_kernel_is_its_own():
    own = cuda_own((KERNELS / "cuda" / "relu_cuda.py").read_text())
    assert foreign_kernels(["relu_kernel(float const*, float*, long)"], own) == []


class RecordedNames:
    """Stands in for CUPTI's recording (which needs a GPU; tests/test_gpu.py runs the real one):
    the names the recorded forwards launched, one list per forward (`names`: a single one)."""

    def __init__(self, names=None, windows=None, working=True):
        self.windows = [list(names)] if windows is None else windows
        self.seen = list(dict.fromkeys(k for w in self.windows for k in w))
        self.start_s, self.overhead_s, self.working = 0.9, 0.01, working


def test_foreign_kernels_fail_the_step_and_the_feedback_names_them():
    from server.evaluation.pipeline import _KernelCheck
    from server.evaluation.protocol import EvalResult
    from server.evaluation.stages import StageFailure

    result = EvalResult(stage="timing")
    check = _KernelCheck(RecordedNames(["relu_kernel", FILL, VENDOR[0]]), triton_own("relu.py"))
    with pytest.raises(StageFailure) as caught:
        check.verify("timing", result)
    assert caught.value.error_class == "foreign_kernel" and caught.value.stage == "timing"
    assert "vendor-library" in caught.value.feedback and "sgemm_largek_lds64" not in caught.value.feedback
    assert result.kernels_seen[0] == "relu_kernel" and result.provenance_seconds == pytest.approx(0.91)


def test_own_kernels_and_layout_copies_pass_the_check():
    from server.evaluation.pipeline import _KernelCheck
    from server.evaluation.protocol import EvalResult

    result = EvalResult(stage="timing")
    _KernelCheck(RecordedNames(["relu_kernel", *LAYOUT]), triton_own("relu.py")).verify("timing", result)
    assert len(result.kernels_seen) == 1 + len(LAYOUT)


def test_honest_kernels_taking_torch_types_are_their_own():
    """Template arguments and parameters may name torch's types (AT_DISPATCH with half, packed
    accessors); only a library *qualifier* makes a kernel torch's."""
    own = cuda_own(CUDA_SOURCE)
    honest = ["void relu_kernel<c10::Half>(c10::Half const*, c10::Half*, long)",
              "void scale_kernel<float>(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>)"]
    assert foreign_kernels(honest, own) == []
    assert foreign_kernels(["void at::native::relu_kernel<float>(float*)"], own)


@pytest.mark.parametrize("name, vendor", [
    ("gemm_kernel", False), ("matmul_kernel", False), ("sgemm_tiled", False), ("gemv_kernel", False),
    ("dot_kernel", False), ("turing_test", False), ("scale_kernel", False),
    ("sgemm_largek_lds64", True), ("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32", True),
    ("ampere_sgemm_128x64_nn", True), ("gemmSN_TN_kernel", True), ("scal_kernel", True),
    ("nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NNN", True),
])
def test_only_vendor_shaped_names_are_refused(name, vendor):
    from server.evaluation.provenance import is_library_kernel
    assert is_library_kernel(f"void {name}<float>(float*)") is vendor


def static_verdict(source: str, language: str = "cuda") -> str:
    from server.evaluation.stages import StageFailure
    try:
        static_check(source, language)
        return "ok"
    except StageFailure as failure:
        return failure.feedback


@pytest.mark.parametrize("change, refused", [
    (("ext = load_inline(", "li = load_inline\nunused = load_inline(name='u', cpp_sources='')\next = li("),
     "called directly"),
    (('cuda_sources=SRC,', 'cuda_sources=SRC, **{},'), "unpacked"),
    (('SRC = r"""', 'SRC = ""\nSRC = r"""'), "built at run time"),
    (('SRC = r"""', 'SRC = "clo" + r"""ck64();'), "clock"),
    (('SRC = r"""', 'SRC: str = r"""'), "ok"),
    (('cuda_sources=SRC,', 'cuda_sources=textwrap.dedent(SRC),'), "ok"),
    (('namespace mine {', '// callbacks, profiler: runs in linear time (one pass)\nnamespace mine {'), "ok"),
])
def test_load_inline_sources_are_read_as_they_compile(change, refused):
    source = CUDA_SOURCE.replace(*change)
    if "textwrap" in change[1]:
        source = "import textwrap\n" + source
    verdict = static_verdict(source)
    assert (verdict == "ok") if refused == "ok" else (refused in verdict), verdict


@pytest.mark.parametrize("line, refused", [
    ('const char* s = "//"; int k = cublasSgemm_v2(0);', "blas"),  # `//` in a literal is no comment
    ('const char* s = "/*"; int k = cublasSgemm_v2(0); // */', "blas"),
    ('int k = cu\\\nblasSgemm(0);', "blas"),  # a line continuation joins the name
    ('#define P(a, b) a %:%: b', "%:"),  # the digraph of ##
    ('const char* lib = "libcu" "blas.so";', "blas"),  # adjacent literals are one
    ('asm volatile("mov.u64 %0, %%global" "timer;" : "=l"(t));', "globaltimer"),
    ('static torch::Library lib(torch::Library::IMPL, "aten", c10::DispatchKey::CUDA);', "library"),
    ('void* h = dlmopen(0, "x", 1);', "dlmopen("),
    ('long t = (time)(nullptr);', "time)"),
    ('int r = system("ls");', "system("),
    ('PyRun_SimpleString("import torch");', "pyrun_s"),
    ('auto m = py::module_::import("torch");', "py::"),
    ('setenv("TRITON_DEBUG", "1", 1);', "setenv"),
    ('std::ofstream f("/tmp/x");', "fstream"),
    ('static torch::Libr\\u0061ry lib(torch::Libr\\u0061ry::IMPL, "aten", c10::DispatchKey::CUDA);',
     "universal character"),
    ('REGISTER_CUDA_DISPATCH(add_stub, &my_add);', "register_cuda_dispatch"),
    ('torch::Tensor copy_of(torch::Tensor x) { return x.clone(); }', "ok"),  # a method, not clone(2)
    ('torch::Tensor copy2(torch::Tensor x) { return at::clone(x); }', "ok"),
    ('extern "C" int run_shell(const char*) __asm__("system");', "__asm__("),
    ('__attribute__((constructor)) static void at_load() {}', "__attribute__"),
    ('static auto run_it = &std::system;', "system"),
    ('static auto start = &thrd_create;', "thrd_create"),
    ('__device__ int lane() { int l; asm volatile("mov.u32 %0, %%laneid;" : "=r"(l)); return l; }',
     "ok"),
    ('struct __attribute__((aligned(16))) Pair { float a, b, c, d; };', "ok"),
    ('static const char* why = "cannot open or write the output";', "ok"),
    ('__device__ float dlogit(float x) { return x; }', "ok"),
    ('int r = std::system("ls");', "system("),
    ('static const char* doc = "relu, in linear time";', "ok"),
    # red-team pass 14, and what honest extensions write next to it
    ('auto* a = at::cuda::getPinnedMemoryAllocator();', "pinned"),
    ('namespace th = thrust; th::device_vector<float> v;', "namespace th ="),
    ('auto p = thrust :: device_pointer_cast(x);', "thrust"),
    ('std :: thread t([]{});', "std::thread"),
    ('using namespace std; void go() { thread t(f); t.join(); }', "thread t("),
    ('PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.import("builtins").attr("exec")("1"); }',
     "pybind11"),
    ('PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("relu", &at::relu); }', "pybind11"),
    ('void grab() { int f[2]; pipe(f); }', "pipe("),
    ('void grab() { fclose(stdout); }', "fclose("),
    ('static auto r = read;', "= read;"),
    ('cudaMemPool_t pool; cudaMemPoolCreate(&pool, &props);', "mempool"),
    ('cudaLaunchHostFunc(stream, host_fn, nullptr);', "launchhostfunc"),
    # red-team pass 29: line ends and splices as GCC reads them, attributes in any spelling
    ('int a = 0; // a note\rasm volatile(".byte 0x0f, 0x05");', ".byte"),
    ('// helper \\ \n/*\nasm volatile(".byte 0x0f, 0x05"); // */', ".byte"),
    ('[ [gnu::constructor] ] static void at_load() {}', "constructor"),
    ('<:<:gnu::constructor:>:> static void at_load() {}', "constructor"),
    ('__attribute__( (constructor) ) static void at_load() {}', "constructor"),
    ('std::vector<::std::string> names; int v[2] = {0, 1};', "ok"),
    ('auto saved = c10::utils::get_env("TORCH_HOME");', "get_env"),
    # review of session 13: blocking synchronisation during the tail's calibration, spin after
    ('cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);', "setdeviceflags"),
    ('cuCtxSetFlags(CU_CTX_SCHED_BLOCKING_SYNC);', "ctxsetflags"),
    ('at::launch([]{ compute(); });', "at::launch"),
    ('PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n  m.def("run", &run, "run (CUDA)");\n'
     '  m.def("run", &run, py::arg("x"));\n}', "ok"),
    ('PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("sh", &system); }', "system"),
    ('PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("go", &go); }', "do not define"),
    ('namespace cg = cooperative_groups; namespace wmma = nvcuda::wmma;', "ok"),
    ('using namespace torch::indexing; using namespace std;', "ok"),
    ('TORCH_CHECK(n <= 1024, "too many threads per thread block (max 1024)");', "ok"),
    ('__device__ void f(float* buf) { int read = 0, next = 1; buf[read] = buf[next]; }', "ok"),
    ('auto pipe = cuda::make_pipeline(); pipe.producer_acquire(); '
     'cuda::memcpy_async(dst, src, n, pipe);', "ok"),
    ('int thread_id = threadIdx.x; __syncthreads();', "ok"),
])
def test_cuda_text_rules_read_the_source_as_the_compiler_does(line, refused):
    source = CUDA_SOURCE.replace("torch::Tensor run(", line + "\ntorch::Tensor run(", 1)
    verdict = static_verdict(source)
    assert (verdict == "ok") if refused == "ok" else (refused in verdict), verdict


@pytest.mark.parametrize("keywords, refused", [
    ('extra_cuda_cflags=["-O3", "--use_fast_math"], extra_cflags=[""], extra_ldflags=[""]', "ok"),
    ('extra_cuda_cflags=["-DGEMM=cublasSgemm"]', "build flag"),
    ('extra_ldflags=["-lcublas"]', "build flag"),
    ('extra_cuda_cflags=["-I/usr/include"]', "build flag"),
    ('extra_include_paths=["/usr/include"]', "extra_include_paths"),
    ('build_directory="/tmp/shared"', "build_directory"),
    ('extra_cuda_cflags=["-O" + "3"]', "literal list"),
    # nvcc's host-compiler flags: only code-generation ones (false-rejection probe 4)
    ('extra_cuda_cflags=["-O3", "-Xcompiler", "-fPIC", "--compiler-options=-fPIC,-O3"]', "ok"),
    ('extra_cuda_cflags=["-Xcompiler", "-fplugin=/tmp/p.so"]', "build flag"),
    ('extra_cuda_cflags=["-Xcompiler=-fPIC,-Wl,-rpath"]', "build flag"),
])
def test_load_inline_may_pass_code_generation_flags_only(keywords, refused):
    source = CUDA_SOURCE.replace('functions=["run"])', f'functions=["run"], {keywords})')
    verdict = static_verdict(source)
    assert (verdict == "ok") if refused == "ok" else (refused in verdict), verdict


def test_tutorial_idioms_pass_the_static_check():
    source = (KERNELS / "legit" / "relu.py").read_text().replace(
        "        x = x.contiguous()",
        "        torch._check(x.numel() > 0)\n        x = x.contiguous()").replace(
        "class ModelNew", "DEVICE = triton.runtime.driver.active.get_active_torch_device()\n\n\nclass ModelNew")
    assert static_verdict(source, "triton") == "ok"


def test_complex_outputs_are_compared_with_the_tolerance():
    import torch
    from server.evaluation.correctness import check_output
    ref = torch.randn(16, dtype=torch.complex64)
    assert check_output(ref + 1e-4, ref, atol=1e-2, rtol=1e-2) < 1e-3


@pytest.mark.parametrize("asm, verdict", [
    ('"max.f32 $0, $1, 0f00000000;"', "ok"),
    ('"mov.u64 $0, %globaltimer;"', "clock registers"),
    ('"mov.u64 $0, %" + "globaltimer;"', "single string literal"),
])
def test_inline_assembly_is_a_reviewable_literal_without_clocks(asm, verdict):
    source = (KERNELS / "legit" / "relu.py").read_text().replace(
        "tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)",
        f"y = tl.inline_asm_elementwise({asm}, \"=f,f\", [x], dtype=tl.float32, is_pure=True, pack=1)\n"
        "    tl.store(out_ptr + offs, y, mask=mask)")
    assert "inline_asm" in source
    result = static_verdict(source, "triton")
    assert (result == "ok") if verdict == "ok" else (verdict in result), result


def verdict(windows, working=True):
    from server.evaluation.pipeline import _KernelCheck
    from server.evaluation.protocol import EvalResult
    from server.evaluation.stages import StageFailure
    result = EvalResult(stage="timing")
    try:
        _KernelCheck(RecordedNames(windows=windows, working=working), triton_own("relu.py")).verify("timing", result)
    except StageFailure as failure:
        return failure.error_class, failure.feedback
    return "accepted", " ".join(result.notes)


def test_every_recorded_forward_must_launch_a_kernel_of_the_submissions_own():
    assert verdict([["relu_kernel"], [FILL, "relu_kernel"]])[0] == "accepted"
    # one forward made its output with layout copies alone, or launched nothing at all
    for windows in ([["relu_kernel"], ["Memcpy HtoD (Pageable -> Device)"]], [["relu_kernel"], []]):
        error, feedback = verdict(windows)
        assert error == "foreign_kernel" and "none of your own kernels" in feedback
    assert verdict([["relu_kernel"], [VENDOR[0]]])[0] == "foreign_kernel"


def test_a_host_where_cupti_records_nothing_says_so_instead_of_rejecting():
    error, notes = verdict([[], []], working=False)
    assert error == "accepted" and "CUPTI recorded nothing" in notes
