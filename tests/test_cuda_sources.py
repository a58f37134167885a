"""The CUDA text rules' reading of C++ (server/evaluation/cuda_sources.py): what the compiler reads
is what the rules read."""

import pytest

from server.evaluation.cuda_sources import check_cuda_sources, code_and_literals
from server.evaluation.stages import StageFailure


@pytest.mark.parametrize("source, read", [
    ("int a = 1'0; char c = 'x';", "int a = 10; char c = 'x';"),
    ("x = 0x1'F + .5f + 1e+5;", "x = 0x1F + .5f + 1e+5;"),
    ("auto u = u8'a';", "auto u = u8'a';"),
    # a separator before a letter or `_` is still part of the number (review of pass 19):
    # read as a character literal, `'_) ... 2'` hid `&std::system` from the rules
    ("IGNORE(1'_)\nint (*f)(const char*) = &std::system;\nIGNORE(2'_)",
     "IGNORE(1_)\nint (*f)(const char*) = &std::system;\nIGNORE(2_)"),
])
def test_numbers_are_read_as_the_preprocessor_reads_them(source, read):
    assert code_and_literals(source) == read


@pytest.mark.parametrize("source", [
    '__device__ int lane() { int id; asm volatile("mov.u32 %0, %%laneid;" : "=r"(id)); return id; }',
    'void f() { printf("a tensor.string, .long and spread\\n"); float spread = 1, preadd = 2; }',
    "struct S { int sq_sum, nb_rows; }; int g(S* s) { return s->sq_sum + s->nb_rows; }",
])
def test_honest_code_passes(source):
    check_cuda_sources(source)


@pytest.mark.parametrize("source, says", [
    ('void g() { asm volatile(".long 0x90050f90"); }', "assembler directives"),
    ('void g() { asm("nop\\n.byte 0x0f, 0x05"); }', "assembler directives"),
    ('asm(".macro mk\\n.pushsection .s\\\\@\\n.popsection\\n.endm");', "assembler directives"),
    ('#define A "nop"\nvoid g() { asm(A); }', "string literal"),
    ("void f() { pread64(0, 0, 0, 0); }", "files"),
    ("int f(PyObject* o) { return Py_TYPE(o)->tp_getattro != 0; }", "python"),
    ('auto s = LR"(" /*)"; int x = system("true"); // */', "raw string"),
], ids=["long", "byte-after-newline", "macro-and-sections", "asm-of-a-macro", "pread64",
        "python-slots", "prefixed-raw-string"])
def test_spellings_that_hid_code_are_refused(source, says):
    with pytest.raises(StageFailure) as refused:
        check_cuda_sources(source)
    assert says in refused.value.feedback.lower()


def test_a_unicode_digit_is_not_a_number():
    """`²` passes str.isdigit; the number reader takes ASCII digits only (it crashed on it)."""
    assert code_and_literals("int x = 2 ² 3;") == "int x = 2 ² 3;"


@pytest.mark.parametrize("source", [
    'void f(char* s) { s[0] = \'\\0\'; printf("done\\t%d\\n", 1); }',
    '#define CUDA_CHECK(x) do { cudaError_t e = (x); if (e) printf("%s", cudaGetErrorString(e)); } while (0)',
    "#define BLOCK 256\n#define WARP_SIZE 32",
    '#define LANE_ID(r) asm volatile("mov.u32 %0, %%laneid;" : "=r"(r))',
    '__device__ void fence() { __asm__ __volatile__("membar.gl;"); }',
])
def test_honest_macros_escapes_and_asm_pass(source):
    check_cuda_sources(source)


@pytest.mark.parametrize("source, says", [
    ('typedef long F(long, ...); F sc __asm__("sys\\143all");', "escape"),
    ('void g() { __asm__ volatile("sys\\x63all"); }', "escape"),
    ('typedef long F(long, ...); F sc __asm__("system");', "assembler names"),
    ('void g() { __asm__ __volatile (".byte 0x0f, 0x05"); }', "assembler directives"),
    ('void g() { __asm__ __inline__ (".long 0x90050f90"); }', "assembler directives"),
    ('#define P py\nvoid f() { P::module_::import("os"); }', "macros may not rename"),
    ("#define A attr\nvoid f(O o) { o.A(1); }", "macros may not rename"),
    ("#define X __asm__\nint f() X(\"system\");", "macros may not rename"),
    ("#define CAT(a, b) a##b\nvoid f() { CAT(sys, tem)(0); }", "token pasting"),
    ("__attribute ((constructor)) void init() {}", "attributes"),
    ("[[using gnu: constructor]] void init() {}", "attributes"),
    ('void g() { asm("int $0x80"); }', "processes"),
    ("void f() { auto p = at::MapAllocator::makeDataPtr(0, 0, 0, 0); }", "files"),
], ids=["octal-label", "hex-template", "label-after-typedef", "volatile-spelling",
        "inline-spelling", "macro-py", "macro-attr", "macro-asm", "token-pasting",
        "attribute-spelling", "using-gnu", "int-0x80", "map-allocator"])
def test_red_team_pass_25_spellings_are_refused(source, says):
    with pytest.raises(StageFailure) as err:
        check_cuda_sources(source)
    assert says in err.value.feedback


@pytest.mark.parametrize("source", [
    '#define COMPILER_FENCE() asm("" ::: "memory")\n__device__ void t() { if (threadIdx.x > 1024) asm("trap;"); }',
    '#define LOG(fmt, ...) printf(fmt, ##__VA_ARGS__)',
    "__attribute__((__aligned__(16))) float a[4]; __attribute__((aligned(16), unused)) float b[4];",
    "[[gnu::always_inline]] inline int f() { return 1; } [[nodiscard]] int g(); [[maybe_unused]] int h;",
], ids=["asm-without-volatile", "comma-elision", "attribute-spellings", "standard-attributes"])
def test_false_rejection_probe_4_idioms_pass(source):
    check_cuda_sources(source)


@pytest.mark.parametrize("source", [
    '#define J(x, ...) x##__VA_ARGS__\nvoid f() { J(sys, tem)(0); }',
    "__attribute__((aligned(16), constructor)) void init() {}",
    "[[gnu::always_inline, gnu::constructor]] void init() {}",
    'int f() __asm__(" system ");',
    'int f() __asm__("memcpy@GLIBC_2.2.5");',
    'typedef void** R(void*); R reg __asm__("__cuda" "Register" "Fat" "Binary");',
    'int f() __asm__("sys" "tem");',
], ids=["pasted-varargs", "second-gnu-attribute", "second-standard-attribute",
        "label-with-spaces", "versioned-label", "label-in-joined-literals", "libc-label-joined"])
def test_what_those_allowances_leave_refused(source):
    with pytest.raises(StageFailure):
        check_cuda_sources(source)


@pytest.mark.parametrize("source", [
    "void f() { cpu_set_t all; CPU_ZERO(&all); CPU_SET(0, &all); sched_setaffinity(0, sizeof(all), &all); }",
    "void f(int pid) { for (int p = 2; p < 32768; ++p) setpriority(PRIO_PROCESS, p, 19); }",
    "void f(long m) { set_exec_affinity(0, m); }",
    "void f() { struct sched_param s = {1}; sched_setscheduler(0, SCHED_FIFO, &s); }",
], ids=["own-affinity", "others-priority", "any-affinity-name", "scheduler"])
def test_host_code_leaves_the_cpus_scheduling_alone(source):
    """Red-team pass 73: a worker host and its evaluations run on their own share of the CPUs
    (pool.cpu_shares); Python's os.sched_setaffinity is refused, and a CUDA extension's host
    code passed both the text rules and the import check with the same call, or setpriority on
    other processes of the user's by pid (another slot's reference profile, cached)."""
    with pytest.raises(StageFailure) as err:
        check_cuda_sources(source)
    assert "CPU affinity and scheduling" in err.value.feedback


def test_a_message_about_affinity_is_not_code():
    check_cuda_sources('void f(int n) { TORCH_CHECK(n > 0, "thread affinity and nice values"); }')
