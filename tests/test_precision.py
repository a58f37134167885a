"""Narrow arithmetic (server/evaluation/precision.py): 8-bit and narrower formats are found in the
compiler's own output (TTIR, PTX, inline assembly) and in CUDA sources; 16- and 32-bit ones are
not. The kernels themselves go through the pipeline in tests/test_pipeline_kernels.py
(adversarial/matmul_fp8_centred_behind_a_range_guard.py, matmul_int8_centred_quantised.py,
legit/matmul_fp16_tensor_cores.py) and on the GPU in tests/test_gpu.py."""

import importlib.util
import os
import shutil
import struct
import subprocess
import sys
import re
from pathlib import Path

import pytest

from server.evaluation import precision
from server.evaluation.cuda_sources import check_cuda_sources
from server.evaluation.stages import StageFailure

WGMMA_E4M3 = "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {%f1}, %rd1, %rd2, 1, 1, 1;"
NARROW_LINES = [
    # TTIR as Triton 3.6 makes it for `.to(tl.float8e4nv)` and a dot on int8 blocks
    "%c = tt.fp_to_fp %a_20, rounding = rtne : tensor<32x32xf32> -> tensor<32x32xf8E4M3FN> loc(#loc40)",
    "%acc = tt.dot %qa, %qb, %acc_1, inputPrecision = tf32 : tensor<64x32xi8> * tensor<32x64xi8> "
    "-> tensor<64x64xi32> loc(#loc47)",
    "%x = tt.bitcast %y : tensor<16xi8> -> tensor<16xf8E5M2>",
    "%s = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e2m1 rhs = e2m1",
    "%r = arith.truncf %v : f32 to f4E2M1FN",
    "%q = arith.fptosi %x : tensor<128xf32> to tensor<128xi8> loc(#loc12)",
    "%q = arith.fptoui %x : f32 to i8",
    # PTX: the conversions, the tensor-core products, byte dot products
    "cvt.rn.satfinite.e4m3x2.f32 %rs1, %f2, %f1;",
    "cvt.rn.f16x2.e5m2x2 %r3, %rs4;",
    "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7}, {%r8, %r9, %r10, %r11};",
    "wgmma.mma_async.sync.aligned.m64n64k32.s32.u8.s8 {%r1}, %rd1, %rd2;",
    WGMMA_E4M3,
    "tcgen05.mma.cta_group::1.kind::i8 [%r1], %rd2, %rd3, %r4, %p1;",
    "dp4a.s32.s32 %r1, %r2, %r3, %r4;",
    # inline assembly held in TTIR
    '%0 = tt.elementwise_inline_asm "cvt.rn.satfinite.e4m3x2.f32 $0, $2, $1;" {constraints = "=h,r,r"}',
]

WIDE_LINES = [
    "%c_45 = tt.dot %a, %b, %acc, inputPrecision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>",
    "%c = tt.dot %a, %b, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>",
    "%c = tt.dot %a, %b, %acc : tensor<64x32xbf16> * tensor<32x64xbf16> -> tensor<64x64xf32>",
    "%m = arith.extui %p : tensor<128xi1> to tensor<128xi8>",  # a mask stored as bytes
    "%i = arith.fptosi %x : tensor<128xf32> to tensor<128xi32>",  # an index, a floor
    "%i = arith.fptosi %x : tensor<128xf32> to tensor<128xi64>",
    "tt.store %ptr, %m : tensor<128x!tt.ptr<i8>>",
    "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3}, {%f5};",
    "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%f1}, %rd1, %rd2, 1, 1, 1, 0, 1;",
    "ld.global.u8 %rs1, [%rd2];",
    "cvt.rn.f16.f32 %rs1, %f1;",
    "mov.b32 %r1, 0xf8E3;",  # a constant, not a type
    # int32 literals narrowed to a byte or bool pointer's bytes by Triton itself, in a kernel that
    # converts no float to an integer: `tl.load(mask_ptr + offs, mask=ok, other=0)`,
    # `tl.store(m_ptr + offs, tl.where(x > 0, 1, 0))`, `tl.store(flag_ptr, 1)`
    "%m_32 = arith.trunci %m_31 : tensor<1024xi32> to tensor<1024xi8> loc(#loc27)",
    "%6 = arith.trunci %5 : i32 to i8 loc(#loc11)",
]


@pytest.mark.parametrize("line", NARROW_LINES)
def test_narrow_formats_are_found_in_compiled_text(line):
    found = precision.narrow_arithmetic(f"module {{\n  {line}\n}}")
    assert found is not None and found.split()[0] in line  # (the line, the source's names dropped)


@pytest.mark.parametrize("line", [*NARROW_LINES, "DP4A.S32.S32 %r1, %r2, %r3, %r4;",
                                  "cvt.rn.satfinite.E4M3X2.F32 %rs1, %f2, %f1;"])
def test_each_narrow_pattern_is_searched_wherever_it_could_match(line):
    """The whole-text search (`_may_hold_narrow`) skips a pattern when none of its literals is in
    the text: every pattern that matches a narrow line holds one of its own there."""
    text = precision.as_read(line)
    matched = [(p, clues) for p, clues in zip(precision._NARROW, precision._CLUES) if p.search(text)]
    assert matched or "arith.fpto" in text, line
    for pattern, clues in matched:
        hay = text.lower() if pattern.flags & re.IGNORECASE else text
        assert any(clue in hay for clue in clues), (pattern.pattern, line)
    assert precision.narrow_arithmetic(line) is not None


def test_the_whole_text_search_finds_a_narrow_line_among_many_wide_ones():
    # (a float converted to an integer and an integer narrowed to a byte, in one kernel, is narrow)
    wide = "\n".join([line for line in WIDE_LINES if "fpto" not in line and "trunci" not in line] * 50)
    assert precision.narrow_arithmetic(wide) is None
    for line in NARROW_LINES:
        found = precision.narrow_arithmetic(f"{wide}\n{line}\n{wide}")
        assert found is not None and found.split()[0] in line


@pytest.mark.parametrize("text", [
    # the modifiers split by a comment, across lines, or after a newline escaped in TTIR's asm
    "mma.sync.aligned.m16n8k32.row.col.s32/**/.s8.s8.s32 {%r1}, {%r2}, {%r3}, {%r4};",
    "mma.sync.aligned.m16n8k32.row.col.s32 // accumulate\n    .s8.s8.s32 {%r1}, {%r2}, {%r3}, {%r4};",
    '%0 = tt.elementwise_inline_asm "// c\\0Amma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {$0}" {pure}',
    '%0 = tt.elementwise_inline_asm "mov.b32 $0, $1;\\0Adp4a.s32.s32 $0, $1, $2, $3;" {pure}',
    "cvt.rni.sat.s8.f32 %rs1, %f1;",
    "dp2a.lo.s32.s32 %r1, %r2, %r3, %r4;",
    # red-team pass 64: two line comments to ptxas, not one block comment
    "// /*\nmma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%r1}, {%r2}, {%r3}, {%r4};\n// */",
    '%0 = tt.elementwise_inline_asm "// /*\\0Acvt.rni.sat.s8.f32 $0, $1;\\0A// */" {pure}',
    # a float quantised by way of int32 (`.to(tl.int32).to(tl.int8)`)
    "%i = arith.fptosi %x : tensor<128xf32> to tensor<128xi32>\n"
    "%q = arith.trunci %i : tensor<128xi32> to tensor<128xi8>",
    # red-team pass 65: comment marks and a location's parentheses in assert messages (strings
    # in MLIR's lexer) around the narrow lines
    'tt.assert %0, "/*" : tensor<64xi1> loc(#loc9)\n'
    "%y = tt.fp_to_fp %x, rounding = rtne : tensor<64x32xf32> -> tensor<64x32xf8E4M3FN> loc(#loc10)\n"
    'tt.assert %1, "*/" : tensor<64xi1> loc(#loc11)',
    'tt.assert %0, "loc(" : tensor<64xi1> loc(#loc9)\n'
    "%y = tt.fp_to_fp %x, rounding = rtne : tensor<64x32xf32> -> tensor<64x32xf8E4M3FN> loc(#loc10)\n"
    'tt.assert %1, ")" : tensor<64xi1> loc(#loc11)',
    '%0 = tt.elementwise_inline_asm "loc(" {constraints = "=r,r", pure = true} %a\n'
    "%y = tt.fp_to_fp %x, rounding = rtne : tensor<64x32xf32> -> tensor<64x32xf8E4M3FN> loc(#loc10)\n"
    '%1 = tt.elementwise_inline_asm ")" {constraints = "=r,r", pure = true} %b',
])
def test_narrow_instructions_are_read_as_the_assembler_reads_them(text):
    assert precision.narrow_arithmetic(text) is not None


@pytest.mark.parametrize("text", [
    "%dp2a = arith.mulf %x, %cst : tensor<128xf32> loc(#loc12)",
    '#loc12 = loc("/tmp/e4m3/sub.py":14:11)',
    "tt.func public @e4m3_kernel(%arg0: !tt.ptr<f32>) attributes {noinline = false} {",
    '%x = tt.load %E5M2 : tensor<64x!tt.ptr<f32>> loc("e4m3"(#loc3))',
    '%y = arith.addf %a, %b : f32 loc(callsite("dp4a"(#loc1) at fused["x"(#loc2), #loc4]))',
    ".visible .entry dp4a_kernel(",
    # a helper's mangled symbol that MLIR quotes (a tuple constexpr in it): still its own name
    '%2 = tt.call @"submission.f8E4_clamp__fp32S1024S__(1, 0)cconstexpr_0_d_0__(1, 1)cconstexpr_inf_"(%x_26) '
    ': (tensor<1024xf32>) -> tensor<1024xf32> loc(#loc9)',
    'tt.func private @"submission.f8E4_clamp__fp32S1024S__(1, 0)cconstexpr_0_d_0_"(%x: tensor<1024xf32>) {',
    "ld.param.u64 %rd1, [e4m3_kernel_param_0];",
    '.file 1 "/tmp/e4m3.py"',
])
def test_the_sources_own_names_are_not_read_as_formats(text):
    assert precision.narrow_arithmetic(text) is None


@pytest.mark.parametrize("line", WIDE_LINES)
def test_16_and_32_bit_arithmetic_is_not(line):
    assert precision.narrow_arithmetic(line) is None


def test_strings_in_inline_assembly_are_read_as_the_assembler_reads_them():
    """Inline assembly is read on its own, unescaped, with its strings emptied as ptxas's lexer
    takes them (`.pragma "..."`): comment marks inside them hide nothing after them, and an
    instruction inside quotes, which ptxas would not assemble, is not read as one."""
    pragmas = ('%0 = tt.elementwise_inline_asm ".pragma \\22/*\\22;\\0Acvt.rn.satfinite.e4m3x2.f32 '
               '$0, $2, $1;\\0A.pragma \\22*/\\22;" {pure}')
    assert "e4m3x2" in precision.narrow_arithmetic(pragmas)
    quoted = '%0 = tt.elementwise_inline_asm "tt.call @\\22 cvt.rn.satfinite.e4m3x2.f32 $0, $2, $1; \\22" {pure}'
    assert precision.narrow_arithmetic(quoted) is None


def test_a_steps_compiled_kernels_are_read_from_its_cache_folder(tmp_path):
    honest = tmp_path / "AAAA"
    honest.mkdir()
    (honest / "relu_kernel.ttir").write_text(WIDE_LINES[0])
    (honest / "relu_kernel.ptx").write_text(WIDE_LINES[5])
    (honest / "relu_kernel.json").write_text('{"note": "cvt.rn.satfinite.e4m3x2.f32"}')  # not code
    assert precision.check_compiled(str(tmp_path)) is None
    assert precision.check_compiled(str(tmp_path / "missing")) is None
    narrow = tmp_path / "BBBB"
    narrow.mkdir()
    (narrow / "mm_kernel.ptx").write_text("\n".join(["// header", WGMMA_E4M3]))
    found = precision.check_compiled(str(tmp_path))
    assert found is not None and found.startswith("mm_kernel: wgmma")
    assert "e4m3" in precision.feedback(found) and "TF32" in precision.feedback(found)
    os.chmod(narrow / "mm_kernel.ptx", 0)  # unreadable: skipped, not an evaluator failure
    if not os.access(narrow / "mm_kernel.ptx", os.R_OK):
        assert precision.check_compiled(str(tmp_path)) is None


@pytest.mark.parametrize("source", [
    "#include <cuda_fp8.h>\n__global__ void k(const float* x) {}",
    "__global__ void k(__nv_fp8_e4m3* q, const float* x) { q[0] = __nv_fp8_e4m3(x[0]); }",
    "__device__ int d(int a, int b, int c) { return __dp4a(a, b, c); }",
    '__device__ void m(int* d) { asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 '
    '{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) '
    ': "r"(d[4]), "r"(d[5]), "r"(d[6])); }',
    "__global__ void k() { nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, signed char, "
    "nvcuda::wmma::row_major> a; }",
    "__device__ unsigned short c(float a, float b) { return __nv_cvt_float2_to_fp8x2(make_float2(a, b), "
    "__NV_SATFINITE, __NV_E5M2); }",
    "__device__ unsigned char c(float a) { return __nv_cvt_float_to_fp8(a, (__nv_saturation_t)1, "
    "(__nv_fp8_interpretation_t)0); }",
    "torch::Tensor q(torch::Tensor x) { return x.to(torch::kFloat8_e4m3fn); }",
    "__device__ c10::Float8_e4m3fn q(float x) { return c10::Float8_e4m3fn(x); }",
    "__device__ int d(int a, int b, int c) { return __dp2a_lo(a, b, c); }",
    "using namespace nvcuda::wmma::experimental::precision;\n__global__ void k() { "
    "nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 8, 8, 128, b1, nvcuda::wmma::row_major> a; }",
    "__global__ void k() { nvcuda::wmma::bmma_sync(d, a, b, c, nvcuda::wmma::experimental::bmmaBitOpAND); }",
])
def test_cuda_sources_computing_narrow_are_refused(source):
    with pytest.raises(StageFailure) as failure:
        check_cuda_sources(source)
    assert failure.value.error_class == "format_violation"
    assert "8-bit or narrower" in failure.value.feedback


@pytest.mark.parametrize("source", [
    "#include <cuda_fp16.h>\n__global__ void k(__half* y, const float* x) { y[0] = __float2half(x[0]); }",
    "#include <cuda_bf16.h>\n__global__ void k(__nv_bfloat16* y, const float* x) { y[0] = __float2bfloat16(x[0]); }",
    "__global__ void k(uint8_t* mask, const float* x, int n) { int i = threadIdx.x; if (i < n) mask[i] = x[i] > 0; }",
    "__global__ void k() { nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, "
    "nvcuda::wmma::row_major> a; }",
    "__global__ void k(double* y, const double* x) { double fp64 = x[0]; y[0] = fp64; }",
    "__global__ void k(float* y, const float* x) { float fp16_scale = 1.f, fp32 = x[0]; y[0] = fp32 * fp16_scale; }",
    "__device__ void ld(nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, "
    "nvcuda::wmma::row_major>& f, const half* p, const char* tag) {}",
])
def test_16_bit_and_byte_mask_cuda_sources_pass(source):
    check_cuda_sources(source)


# Machine code: the kernels compiled for an H200 (sm_90) on this machine (Triton's own ptxas, no
# GPU needed) and disassembled as the gpu evaluator does (precision.Disassembly, nvdisasm).
KERNELS = Path(__file__).parent / "kernels"
MATMUL_SIGNATURE = dict.fromkeys(("a_ptr", "b_ptr", "c_ptr"), "*fp32") | dict.fromkeys(
    ("M", "N", "K", "sam", "sak", "sbk", "sbn", "scm", "scn"), "i32")


def _sm90_cubin(tmp_path, monkeypatch, file: str, kernel: str, signature: dict, constexprs: dict,
                options: dict | None = None) -> str:
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from triton.runtime.cache import FileCacheManager
    monkeypatch.setattr(triton.knobs.cache, "manager_class", FileCacheManager)
    monkeypatch.setattr(triton.knobs.cache, "dir", str(tmp_path / "cache"))
    spec = importlib.util.spec_from_file_location(f"sm90_{kernel}_{tmp_path.name}", KERNELS / file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    compiled = triton.compile(ASTSource(getattr(module, kernel), dict(signature, **dict.fromkeys(
        constexprs, "constexpr")), constexprs), target=GPUTarget("cuda", 90, 32), options=options)
    out = tmp_path / f"{kernel}.cubin"
    out.write_bytes(compiled.asm["cubin"])
    for kind in ("ttir", "ptx"):  # beside it, as in Triton's cache
        (tmp_path / f"{kernel}.{kind}").write_text(compiled.asm[kind])
    return str(out)


needs_disassembler = pytest.mark.skipif(precision.disassembler() is None,
                                        reason="no NVIDIA backend tools (nvdisasm) in this Triton")


@needs_disassembler
@pytest.mark.parametrize("file, kernel, signature, constexprs, opcode", [
    ("adversarial/matmul_fp8_centred_behind_a_range_guard.py", "mm_kernel", MATMUL_SIGNATURE,
     {"BM": 64, "BN": 64, "BK": 32}, "F2FP.SATFINITE.E4M3"),
    ("adversarial/matmul_int8_centred_quantised.py", "mm_kernel", MATMUL_SIGNATURE,
     {"BM": 64, "BN": 64, "BK": 32}, "IGMMA"),
    ("adversarial/matmul_int8_mma_comment_in_inline_asm.py", "gemm_kernel",
     dict.fromkeys(("a_ptr", "b_ptr", "ra_ptr", "cb_ptr", "c_ptr"), "*fp32")
     | dict.fromkeys(("aq_ptr", "bq_ptr", "fa_ptr", "fb_ptr"), "*i32")
     | dict.fromkeys(("M", "N", "K", "KW"), "i32"), {}, "IMMA"),
    # (red-team pass 64; its 8 bit planes take the interpreter past a test's time limit, so it
    # is checked here, compiled, rather than through the cpu evaluator's pipeline)
    ("machine_code/matmul_int8_bit_serial_on_1bit_tensor_cores.py", "gemm_kernel",
     dict.fromkeys(("a_ptr", "b_ptr", "c_ptr"), "*fp32")
     | dict.fromkeys(("aq_ptr", "bq_ptr", "fa_ptr", "fb_ptr"), "*i32")
     | dict.fromkeys(("M", "N", "K", "KW"), "i32"), {"P": 8}, "BMMA"),
], ids=["fp8", "int8", "int8-asm-comment", "int8-bit-serial-asm-comments"])
def test_the_machine_code_of_narrow_kernels_is_refused(tmp_path, monkeypatch, file, kernel, signature,
                                                      constexprs, opcode):
    cubin = _sm90_cubin(tmp_path, monkeypatch, file, kernel, signature, constexprs,
                        {"num_warps": 1} if kernel == "gemm_kernel" else None)  # as they launch
    assert precision.check_compiled(str(tmp_path)) is not None  # its text says so as well
    machine_code = precision.Disassembly(precision.disassembler())
    machine_code.start([cubin, str(tmp_path / "missing.cubin"), str(tmp_path / "a.ptx")])
    found = machine_code.finish()
    assert found is not None and found.startswith(f"{kernel}: ") and opcode in found, found
    assert machine_code.finish() is None  # each is read once
    library = precision.check_library(cubin)  # cuobjdump, as the build gate reads a CUDA library
    assert library is not None and library.startswith(f"{kernel}.cubin: ") and opcode in library


@needs_disassembler
def test_the_machine_code_of_honest_tf32_and_fp16_matmuls_passes(tmp_path, monkeypatch):
    cubins = []
    for name in ("square_matmul", "matmul_fp16_tensor_cores"):
        folder = tmp_path / name
        folder.mkdir()
        signature = dict.fromkeys(("a_ptr", "b_ptr", "c_ptr"), "*fp32") | dict.fromkeys(
            ("M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm",
             "stride_cn"), "i32")
        cubins.append(_sm90_cubin(folder, monkeypatch, f"legit/{name}.py", "matmul_kernel", signature,
                                  {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8}))
    machine_code = precision.Disassembly(precision.disassembler())
    machine_code.start(cubins)
    assert machine_code.finish() is None
    assert all(precision.check_library(c) is None for c in cubins)
    assert precision.narrow_in_sass("        /*0a10*/                   HGMMA.64x64x8.F32.TF32 gdesc[UR4], RZ, !UPT ;") is None
    assert precision.narrow_in_sass("  /*0b20*/  QGMMA.64x64x32.F32.E4M3.E4M3 R24, gdesc[UR8], R24 ;") \
        == "0b20 QGMMA.64x64x32.F32.E4M3.E4M3 R24, gdesc[UR8], R24 ;"
    for sass in ("BMMA.168256.AND.POPC R4, R8, R12, R4 ;", "BGMMA.64x8x256.AND.POPC R24, gdesc[UR4] ;",
                 "F2I.S8.NTZ R5, R2 ;", "F2IP.U8.F32.NTZ R3, RZ, R4, RZ ;", "I2IP.S8.S32.SAT R7, R2, RZ, RZ ;"):
        assert precision.narrow_in_sass(f"        /*0c40*/    {sass}") is not None, sass
    for sass in ("HMMA.16816.F32.BF16 R4, R8, R12, R4 ;", "F2I.S32.TRUNC.NTZ R5, R2 ;", "F2I.U64.TRUNC R2, R4 ;",
                 "DMMA.8x8x4 R0, R4, R8, R0 ;", "F2FP.BF16.F32.PACK_AB R3, R4, R5 ;"):
        assert precision.narrow_in_sass(sass) is None, sass


def test_no_disassembler_gives_no_verdict_and_starts_nothing(tmp_path):
    machine_code = precision.Disassembly(None)
    machine_code.start([str(tmp_path / "k.cubin")])
    assert machine_code.running == {} and machine_code.finish() is None


def test_the_disassemblers_are_the_evaluators_children_not_the_submissions(tmp_path):
    """They run beside the timing stage, whose integrity check refuses any process the step
    started: the first H200 run of the machine-code check called every kernel tampering."""
    from server.evaluation import integrity
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(b"")
    machine_code = precision.Disassembly(["sh", "-c", "sleep 1; echo IMMA.16832.S8.S8"])
    before = integrity.child_processes()
    machine_code.start([str(cubin)])
    started = integrity.child_processes() - before
    assert started and started <= precision.STARTED
    assert machine_code.finish() == "k: IMMA.16832.S8.S8"


def test_only_kernels_whose_text_cannot_vouch_for_them_are_disassembled(tmp_path):
    """Triton's own PTX is what ptxas assembled, and the text check read it: a cubin needs its
    machine code read only where the submission wrote assembly, or where its text is missing."""
    def kernel(name, ttir="tt.func @k() { tt.return }", ptx=".version 8.7"):
        for suffix, text in ((".ttir", ttir), (".ptx", ptx), (".cubin", "")):
            if text is not None:
                (tmp_path / f"{name}{suffix}").write_text(text)
        return str(tmp_path / f"{name}.cubin")
    plain = kernel("plain")
    own_asm = kernel("own_asm", ttir='%0 = tt.elementwise_inline_asm "max.f32 $0, $1, $2;" {pure}')
    no_ptx = kernel("no_ptx", ptx=None)
    no_ttir = kernel("no_ttir", ttir=None)
    files = [plain, own_asm, no_ptx, no_ttir, str(tmp_path / "plain.ptx"), plain]
    assert precision.needing_machine_code(files) == [own_asm, no_ptx, no_ttir]


def test_machine_code_that_cannot_be_read_vouches_for_nothing(tmp_path, monkeypatch):
    """Only kernels holding the submission's own assembly (or lacking their text) are
    disassembled, so a disassembly that fails, runs past its limit or cannot start leaves the
    kernel unread, and the step is refused with a message saying so, not scored."""
    cubins = {}
    for name in ("fails", "hangs", "fine"):
        cubins[name] = tmp_path / f"{name}.cubin"
        cubins[name].write_bytes(b"")
    monkeypatch.setattr(precision, "DISASSEMBLY_TIMEOUT_S", 0.5)
    failing = precision.Disassembly(["sh", "-c", 'case "$0" in *fails*) exit 3;; *hangs*) sleep 30;; esac; '
                                           'echo "HMMA.16816.F32.BF16 R4, R8, R12, R4 ;"'])
    failing.start([str(p) for p in cubins.values()])
    assert failing.finish() is None
    assert set(failing.unread) == {str(cubins["fails"]), str(cubins["hangs"])}
    message = failing.unread_feedback()
    assert "fails: the disassembler failed (exit status 3)" in message
    assert "hangs: the disassembler ran past 0.5 s" in message
    assert "could not be read" in message
    missing_tool = precision.Disassembly([str(tmp_path / "no-such-disassembler")])
    missing_tool.start([str(cubins["fine"])])
    assert missing_tool.finish() is None
    assert "fine: the disassembler did not start" in missing_tool.unread_feedback()
    honest = precision.Disassembly(["sh", "-c", 'echo "HMMA.16816.F32.BF16 R4, R8, R12, R4 ;"'])
    honest.start([str(cubins["fine"])])
    assert honest.finish() is None and honest.unread_feedback() is None


def test_the_feedback_names_the_line_of_the_source_that_computes_narrow(tmp_path, monkeypatch):
    """TTIR's debug locations say which line of the submission made the narrow instruction; a
    line inside Triton's library is followed to its call site in the submission."""
    file = "adversarial/matmul_int8_centred_quantised.py"
    _sm90_cubin(tmp_path, monkeypatch, file, "mm_kernel", MATMUL_SIGNATURE, {"BM": 64, "BN": 64, "BK": 32})
    quantising = next(n for n, line in enumerate((KERNELS / file).read_text().splitlines(), 1)
                      if ".to(tl.int8)" in line)
    found = precision.narrow_arithmetic((tmp_path / "mm_kernel.ttir").read_text())
    assert found.endswith(f"(line {quantising} of your source)"), found
    through_library = "\n".join([
        "module {",
        "  %1 = arith.fptosi %0 : tensor<4xf32> to tensor<4xi8> loc(#loc7)",
        "}",
        '#loc3 = loc("/eval/submission.py":12:4)',
        '#loc5 = loc("/venv/site-packages/triton/language/standard.py":10:2)',
        '#loc6 = loc("q"(#loc5))',
        "#loc7 = loc(callsite(#loc6 at #loc3))"])
    assert precision.narrow_arithmetic(through_library).endswith("(line 12 of your source)")
    assert precision.narrow_arithmetic("cvt.rni.sat.s8.f32 %r1, %f1;") == "cvt.rni.sat.s8.f32 , ;"


def test_a_library_whose_machine_code_cannot_be_read_is_refused(tmp_path, monkeypatch):
    """The build gate reads every CUDA library's machine code before it loads: a library with
    no device code passes, one cuobjdump fails on or times out on vouches for nothing."""
    library = str(tmp_path / "ext.so")
    monkeypatch.setattr(precision, "DISASSEMBLY_TIMEOUT_S", 0.5)

    def with_tool(script):
        monkeypatch.setattr(precision, "disassembler", lambda kind="nvdisasm": ["sh", "-c", script])
        return precision.check_library(library)

    assert with_tool("echo \"cuobjdump info    : File '$0' does not contain device code\"; exit 255") is None
    assert with_tool('echo "HMMA.16816.F32.BF16 R4, R8, R12, R4 ;"') is None
    assert with_tool('echo "  IMMA.16832.S8.S8 R4, R8, R12, R4 ;"') == "ext.so: IMMA.16832.S8.S8 R4, R8, R12, R4 ;"
    with pytest.raises(precision.Unreadable, match=r"failed \(exit status 1\): cuobjdump fatal"):
        with_tool('echo "cuobjdump fatal : bad fatbin" >&2; exit 1')
    with pytest.raises(precision.Unreadable, match="ran past 0.5 s"):
        with_tool("sleep 30")


WMMA_INT8 = r"""
#include <mma.h>
using namespace nvcuda;
using q8 = signed char;
__global__ void product(const q8* a, const q8* b, int* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, q8, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, q8, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
  wmma::fill_fragment(fc, 0);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
"""


@needs_disassembler
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc on this machine")
@pytest.mark.parametrize("code", ["sm_90", "compute_90"], ids=["machine-code", "ptx-only"])
def test_a_librarys_int8_product_is_refused_as_machine_code_or_as_ptx(tmp_path, code):
    """A library built for PTX alone (`code=compute_90`, an allowed flag) holds no machine code
    until the driver compiles it at load: cuobjdump's PTX is read then, as a Triton kernel's."""
    (tmp_path / "k.cu").write_text(WMMA_INT8)
    library = tmp_path / "k.so"
    subprocess.run(["nvcc", "-shared", "-Xcompiler", "-fPIC", "-gencode", f"arch=compute_90,code={code}",
                    "-o", str(library), str(tmp_path / "k.cu")], check=True, capture_output=True, timeout=300)
    found = precision.check_library(str(library))
    assert found is not None and found.startswith("k.so: "), found
    assert ("IMMA" in found) if code == "sm_90" else (".s8.s8.s32" in found), found


SWAPPED_BEFORE_REGISTRATION = r"""
// a global object's constructor, linked before the CUDA translation unit: it runs before nvcc's
// registration and points the library's fatbin record at a fatbin of its own
static const unsigned long long hidden[] = {WORDS};
static unsigned long long first_word = 1;
static unsigned long long image[sizeof(hidden) / 8];
struct Setup {
  Setup() {
    for (unsigned i = 0; i < sizeof(hidden) / 8; ++i) image[i] = hidden[i];
    unsigned int* p = (unsigned int*)&first_word;
    for (; p + 6 <= (unsigned int*)image; p += 2)
      if (p[0] == 0x466243b1u && p[1] == 1u) { *(const void**)(p + 2) = image; break; }
  }
};
static Setup setup;
"""
VISIBLE_PRODUCT = r"""
__global__ void product(const signed char* a, const signed char* b, int* c) {
  c[threadIdx.x] = (int)((float)a[threadIdx.x] * (float)b[threadIdx.x]);
}
"""


def _cuda_runtime_dirs() -> str:
    import torch
    found = [str(p.parent) for p in Path(torch.__file__).parent.parent.glob("nvidia/*/lib/libcudart.so*")]
    return ":".join([*found, "/usr/local/cuda/lib64"])


@needs_disassembler
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc on this machine")
def test_a_fatbin_record_swapped_as_the_library_loads_is_refused(tmp_path):
    """Red-team pass 67: nvcc's fatbin records are writable data, registered by a constructor.
    A constructor of an earlier translation unit pointed the record at an int8 WMMA fatbin carried
    as data: cuobjdump read the honest `.nv_fatbin`, the runtime registered the hidden one. Read
    after loading, the record no longer points into `.nv_fatbin`."""
    (tmp_path / "hidden.cu").write_text(WMMA_INT8.replace("__global__", 'extern "C" __global__'))
    nvcc = ["nvcc", "-gencode", "arch=compute_90,code=sm_90"]
    subprocess.run([*nvcc, "-fatbin", "-o", str(tmp_path / "hidden.fatbin"), str(tmp_path / "hidden.cu")],
                   check=True, capture_output=True, timeout=300)
    fatbin = (tmp_path / "hidden.fatbin").read_bytes()
    fatbin += bytes(-len(fatbin) % 8)
    words = ", ".join(f"{w:#x}ull" for w in struct.unpack(f"<{len(fatbin) // 8}Q", fatbin))
    (tmp_path / "swap.cpp").write_text(SWAPPED_BEFORE_REGISTRATION.replace("WORDS", words))
    (tmp_path / "k.cu").write_text('extern "C"' + VISIBLE_PRODUCT)
    libraries = {}
    for name, sources in (("honest", ["k.cu"]), ("swapped", ["swap.cpp", "k.cu"])):
        libraries[name] = str(tmp_path / f"{name}.so")
        subprocess.run([*nvcc, "-shared", "-Xcompiler", "-fPIC", "-o", libraries[name],
                        *(str(tmp_path / s) for s in sources)], check=True, capture_output=True, timeout=300)
        assert precision.check_library(libraries[name]) is None  # the hidden IMMA is not in .nv_fatbin
    assert precision.narrow_in_sass(subprocess.run([*precision.disassembler("cuobjdump"), str(tmp_path / "hidden.fatbin")],
                                                   capture_output=True, text=True).stdout)
    loaded = ("import ctypes, sys; from server.evaluation import precision; ctypes.CDLL(sys.argv[1]); "
              "print(precision.moved_device_code(sys.argv[1]))")
    env = {**os.environ, "LD_LIBRARY_PATH": _cuda_runtime_dirs()}
    verdicts = {name: subprocess.run([sys.executable, "-c", loaded, library], capture_output=True, text=True,
                                     env=env, cwd=Path(__file__).parent.parent, timeout=120)
                for name, library in libraries.items()}
    assert verdicts["honest"].stdout.strip() == "None", verdicts["honest"].stderr
    assert "outside the .nv_fatbin" in verdicts["swapped"].stdout, verdicts["swapped"].stderr
