"""Narrow arithmetic: a kernel may not compute a task's products in 8-bit (or narrower) formats.

Red-team pass 62: a float32 matmul computed on fp8 (e4m3) operands, centred on the generator's
mean 0.5 so that the rounding errors of independent [0, 1) draws cancel, stayed within 0.55-0.66
of the tolerance on every random trial and scored 12 of 12; on inputs inside the same range it is
wrong (A = B = 0.2031 everywhere: 19x the tolerance), and on a GPU it would run on fp8 tensor
cores at 4x TF32's rate. Sampled correctness cannot refuse it: the random draws are exactly where
its errors cancel, and an error budget on them cannot tell it from an honest `tl.dot`, whose
TF32 operands are truncated (Triton passes float32 registers to the tensor cores, which drop the
low 13 bits): on positive draws that error never cancels, ~1e-3 of every product, which is more
than the centred fp8 product's once K passes ~1000. What tells them apart is the format: TF32,
float16 and bfloat16 keep every product within 2^-8 of itself on any input, which the tolerance
(1e-2) admits; 8-bit formats (2^-4 for e4m3) do not. So every task here (16- and 32-bit floating
inputs) refuses 8-bit and narrower float formats anywhere in a kernel, dot products on 8-bit or
narrower integers (a centred int8 quantisation cancels the same way, at 2x bf16's rate) and
floats converted to such integers. Narrow values packed into wider words by bit operations are
beyond a rule on formats; what it keeps from a kernel is the tensor cores' 8-bit rates.

Where it is checked: the compiler's own IR of every Triton kernel. The cpu evaluator makes it on
each interpreted launch (front_end.py, the TTIR a GPU launch compiles); the gpu evaluator reads
the step's compiled kernels (their TTIR and PTX: every file Triton wrote or was handed from a
cache during the step, step_cache.py, and the step's own cache folder) after the correctness
trials and after timing, inline assembly read as the assembler reads it. Text can be spelled
around (red-team pass 63: a comment inside an instruction's modifiers, a typedef'd `signed char`
in a CUDA WMMA fragment), so on the GPU the machine code decides where text cannot vouch for
it: the SASS of a Triton kernel holding the submission's own assembly or lacking its PTX
(nvdisasm, beside the timing stage; `needing_machine_code`), and a CUDA extension's library
(cuobjdump, before it is loaded, build_gate.py). CUDA sources also get the matching text rules (cuda_sources.py), for an
earlier and clearer answer.
"""

from __future__ import annotations

import os
import re
import struct
import subprocess

from .so_imports import section_headers

ERROR_CLASS = "narrow_precision"  # (stages.ERROR_CLASSES)
REASON = ("kernels for this task may not compute in 8-bit or narrower formats (fp8, fp6, fp4, "
          "int8 or int4 dot products, floats converted to 8-bit integers): their rounding (2^-4 "
          "of a value for e4m3) is within the tolerance only where errors cancel, as on random "
          "inputs, not on every input of the task's range; compute in float32, TF32 (tl.dot's "
          "default) or 16-bit floats (a byte mask made from a comparison, `(x > 0).to(tl.uint8)`, "
          "is fine)")

# What names an 8-bit or narrower computation in Triton's IR (TTIR), in PTX, or in inline
# assembly held in either; each pattern is searched line by line.
_NARROW = (
    # MLIR's narrow float types (f8E4M3FN, f8E5M2, f8E4M3B11FNUZ, f6E2M3FN, f4E2M1FN, f8E8M0FNU),
    # alone or as a tensor's element type (`tensor<64x32xf8E4M3FN>`)
    re.compile(r"(?:\b|(?<=\dx)(?<!\b0x))f[468]E\d"),  # (not a hex constant 0xf8E3)
    # the same formats as PTX (and inline assembly) spells them: cvt.rn.satfinite.e4m3x2.f32, ...
    re.compile(r"\b(e4m3|e5m2|e2m1|e2m3|e3m2|ue8m0|ue4m3)(x[248])?\b", re.IGNORECASE),
    # tensor-core products of narrow integers: mma.sync...s32.s8.s8.s32, wgmma...s32.u8.s8,
    # tcgen05.mma...kind::i8 / kind::f8f6f4 / kind::mxf4
    re.compile(r"\b(wgmma|mma)[\w.:]*\.(s8|u8|s4|u4|b1)\b"),
    re.compile(r"kind::(i8|f8f6f4|mxf8f6f4|mxf4|mxf4nvf4)\b"),
    # byte dot products on the CUDA cores; PTX conversions of floats to 8-bit or narrower integers
    re.compile(r"\bdp[24]a(\.|\b)", re.IGNORECASE),
    re.compile(r"\bcvt\.[\w.]*\.[su][48]\.f(16|32|64)\b"),
    # Triton's own: a scaled (microscaling) dot, a dot on 8-bit or narrower integers, floats
    # quantised to 8-bit or narrower integers (a mask made from a comparison is `arith.extui`
    # of i1, not this)
    re.compile(r"\btt\.dot_scaled\b"),
    re.compile(r"\btt\.dot\b.*x(i8|i4|i1)>"),
    re.compile(r"\barith\.fpto[su]i\b.*\bto\b.*(\b|x)i(8|4)\b"),
)
# An integer narrowed to 8 bits or fewer (red-team pass 64): a float quantised by way of a wider
# integer (`x.to(tl.int32).to(tl.int8)`) only in a kernel that converts floats to integers at all.
# Triton narrows every int32 literal stored to or loaded (`other=0`) from a byte or bool pointer,
# and `tl.maximum(m, 0)` on bytes, the same way (red-team pass 65: honest byte and bool masks
# were refused).
_NARROWED_INT = re.compile(r"\barith\.trunci\b.*\bto\b.*(\b|x)i(8|4)\b")
_FLOAT_TO_INT = re.compile(r"\barith\.fpto[su]i\b")
COMPILED_SUFFIXES = (".ttir", ".ptx")
# For each of _NARROW's patterns, literals one of which every match holds (for the patterns that
# ignore case, in the lowered text): a text holding none is not searched for that pattern. The
# searches tried every pattern at every position of every line, ~14 ms for a 74 KB PTX file,
# and a step reads every kernel's TTIR and PTX.
_CLUES = (("f4E", "f6E", "f8E"), ("e4m3", "e5m2", "e2m1", "e2m3", "e3m2", "ue8m0", "ue4m3"),
          ("mma",), ("kind::",), ("dp2a", "dp4a"), (".s8.f", ".u8.f", ".s4.f", ".u4.f"),
          ("tt.dot_scaled",), ("xi8>", "xi4>", "xi1>"), ("arith.fpto",))


def narrow_arithmetic(text: str) -> str | None:
    """The first line of compiled text (TTIR or PTX) that computes in a narrow format, or None.
    Read as the assembler reads it (`_as_assembled`): red-team pass 63 split an instruction's
    modifiers with a comment (`.s32/**/.s8.s8.s32`). Each inline assembly string in TTIR is read
    on its own, as the assembly it is (`_INLINE_ASM`)."""
    joined = as_read(text)
    if not _may_hold_narrow(joined):
        return None
    lines = joined.splitlines()
    quantising = any(_FLOAT_TO_INT.search(line) for line in lines)
    for line in lines:
        if any(p.search(line) for p in _NARROW) or (quantising and _NARROWED_INT.search(line)):
            found = " ".join(line.split())
            where = source_line(text, found)
            shown = found.removeprefix("= ")  # (what a dropped name was assigned)
            return shown[:200] + (f" (line {where} of your source)" if where else "")
    return None


def as_read(text: str) -> str:
    """The text as `narrow_arithmetic` reads it: assembled (`_as_assembled`), then each inline
    assembly string of it, unescaped, on lines of its own."""
    inline = _INLINE_ASM.findall(text) if "elementwise_inline_asm" in text else []
    return "\n".join([_as_assembled(text), *(
        _as_assembled(_MLIR_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), asm), _ASM_NAMES)
        for asm in inline)])


def _may_hold_narrow(text: str) -> bool:
    """False only where no line of `text` matches a narrow pattern (`narrow_arithmetic` then
    finds the line). A pattern is searched over the whole text at once, and only where one of
    its literals is there; its matches never span a line break, so the whole text matches where
    a line does. Case is folded only for ASCII text (Unicode folds a few other letters)."""
    folded = text.lower() if text.isascii() else None
    for pattern, clues in zip(_NARROW, _CLUES):
        ignoring_case = bool(pattern.flags & re.IGNORECASE)
        hay = folded if ignoring_case else text
        if hay is not None and not any(clue in hay for clue in clues):
            continue
        if pattern.search(text):
            return True
    return ("arith.fpto" in text and "arith.trunci" in text and _FLOAT_TO_INT.search(text) is not None
            and _NARROWED_INT.search(text) is not None)


_LOCATION = re.compile(r'^\s*(#loc\d*) = loc\((.*)\)\s*$', re.MULTILINE)
_FILE_LINE = re.compile(r'"([^"]*)":(\d+):\d+')
_LOC_REFERENCE = re.compile(r"#loc\d*\b")


def source_line(text: str, found: str) -> int | None:
    """The line of the kernel's source that TTIR's debug locations give for the compiled line
    `found` (as `narrow_arithmetic` prints it), so that the feedback says where; None where the
    line spans several of the text's lines, sits in inline assembly, or names no location of the
    submission's own (a line in Triton's library is followed to its call site)."""
    locations = dict(_LOCATION.findall(text))
    for raw in text.splitlines():
        if " ".join(_as_assembled(raw).split()) != found:
            continue
        pending, seen = [m.group(0) for m in re.finditer(r"loc\((.*)\)\s*$", raw)], set()
        while pending:
            body = pending.pop(0)
            own = [int(n) for path, n in _FILE_LINE.findall(body) if "/triton/" not in path]
            if own:
                return own[0]
            for ref in _LOC_REFERENCE.findall(body):  # names, call sites: what they point at
                if ref not in seen and ref in locations:
                    seen.add(ref)
                    pending.append(locations[ref])
        return None
    return None


_MLIR_ESCAPE = re.compile(r"\\([0-9A-Fa-f]{2})")
# Both kinds in one left-to-right pass, as the assembler's lexer reads them (red-team pass 64:
# `// /*` then the instruction then `// */` is two line comments to ptxas, and stripping block
# comments first swallowed the instruction), and string literals as tokens of their own, as
# MLIR's and ptxas's lexers read them (red-team pass 65: assert messages "/*" and "*/", or
# "loc(" and ")", around an fp8 tl.dot in the TTIR made its lines one comment or one location).
# MLIR prints a string on one line (`\0A` for a newline, `\22` for a quote).
_COMMENT = re.compile(r'"[^"\n]*"|//[^\n]*|/\*.*?\*/', re.DOTALL)
# The assembly of `tl.inline_asm_elementwise` in TTIR (its other strings are messages and names)
_INLINE_ASM = re.compile(r'\belementwise_inline_asm\s+"([^"\n]*)"')
_SPACED_MODIFIER = re.compile(r"\s+\.(?=[A-Za-z0-9_])")


# Names the source chose, which the compilers carry along: TTIR's values and symbols are named
# after the kernel's variables (`%dp2a`, `@e4m3_kernel`) and its debug locations quote the
# source; PTX's registers, symbols, parameters and debug lines likewise (review of session 33:
# an honest kernel with a variable `dp2a` was refused).
_NAMES = re.compile(r"[%@][\w.$]+|\bloc\((\"[^\"\n]*\"|[^()\"\n]|\((\"[^\"\n]*\"|[^()\"\n]|\([^()\n]*\))*\))*\)"
                    r"|^\s*#loc.*$|^\s*\.(file|loc)\b.*$"
                    r"|\.(entry|func)\s+[\w$]+|\b[\w$]+_param_\d+\b", re.MULTILINE)
# In inline assembly: its registers and symbols (no MLIR locations there)
_ASM_NAMES = re.compile(r"[%@][\w.$]+")


def without_names(text: str) -> str:
    """`text` with its strings emptied and the names the source chose dropped (a float32 value
    named `bf16` is `%bf16`; a callee's symbol holding a tuple constexpr is quoted, `tt.call
    @"submission.f8E4_clamp__(1, 0)c..."`: red-team pass 65)."""
    return _as_assembled(text)


def _as_assembled(text: str, names: re.Pattern = _NAMES) -> str:
    """Comments dropped (PTX takes C's) and string literals emptied, in one pass (`_COMMENT`; an
    inline assembly string is read by itself, unescaped: `narrow_arithmetic`), the source's own
    names dropped (`_NAMES`), and a modifier after whitespace or a line break joined to what it
    follows (an instruction may span lines)."""
    text = _COMMENT.sub(lambda m: '""' if m.group(0).startswith('"') else " ", text)
    return _SPACED_MODIFIER.sub(".", names.sub(" ", text))


def files_under(folder: str) -> list[str]:
    if not folder or not os.path.isdir(folder):
        return []
    return [os.path.join(root, name) for root, _, names in sorted(os.walk(folder))
            for name in sorted(names)]


def compiled_files(folder: str, paths=()) -> list[str]:
    """`paths` (the files Triton was handed from any cache folder) and the files under `folder`
    (a step's Triton cache), once each, in order."""
    return list(dict.fromkeys([*paths, *files_under(folder)]))


def check_compiled(folder: str, paths=()) -> str | None:
    """The first narrow computation in the compiled kernels under `folder` or among `paths`
    (`compiled_files`): each kernel's TTIR and PTX, as 'kernel: line', or None."""
    return check_texts(compiled_files(folder, paths))


def check_texts(files) -> str | None:
    """The first narrow computation in the TTIR and PTX among `files`, as 'kernel: line'."""
    for path in files:
        if not path.endswith(COMPILED_SUFFIXES):
            continue
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                found = narrow_arithmetic(f.read())
        except OSError:
            continue
        if found is not None:
            return f"{_kernel_name(path)}: {found}"
    return None


# SASS opcodes of 8-bit and narrower products and conversions, sm_80 to sm_100 (Hopper's fp8
# warpgroup product is QGMMA, its int8 one IGMMA; IMMA is int8 mma.sync, BMMA/BGMMA 1-bit ones,
# IDP.4A a byte dot product, F2FP...E4M3 a conversion to fp8, F2I.S8 / F2IP / I2IP to bytes): what the GPU runs, whatever the source spelled
# (red-team pass 63: `using q8 = signed char` in a CUDA WMMA fragment assembled to IMMA).
_NARROW_SASS = re.compile(r"\b(IMMA|IGMMA|QMMA|QGMMA|OMMA|BMMA|BGMMA|UTCQMMA|UTCIMMA|UTCOMMA|UTCBMMA"
                          r"|IDP\.?[24]A|F2IP|I2IP)\b"
                          r"|\bF2FP[\w.]*\.(E4M3|E5M2|E2M1|E2M3|E3M2|UE8M0)\b|\bF2I[\w.]*\.[SU][48]\b")
DISASSEMBLY_TIMEOUT_S = 60.0
# The disassemblers this process started: the evaluator's, not the submission's (the integrity
# check refuses any other child process; pipeline._check_integrity leaves these out).
STARTED: set[int] = set()


def narrow_in_sass(text: str) -> str | None:
    """The first SASS instruction that computes in a narrow format, or None."""
    for line in text.splitlines():
        if _NARROW_SASS.search(line):
            return " ".join(line.replace("/*", " ").replace("*/", " ").split())[:200]
    return None


class Disassembly:
    """The machine code of a step's compiled kernels (cubins), read by a disassembler in
    processes of its own: started once the correctness trials have compiled the kernels, so that
    they run beside the timing stage, and read after it (nvdisasm takes ~0.5 s a cubin on a slow
    core). `tool`: its command (`disassembler()`); no tool, no verdict."""

    def __init__(self, tool: list[str] | None):
        self.tool = tool
        self.running: dict[str, subprocess.Popen] = {}
        # kernels whose machine code could not be read, and why: not vouched for (`unread`)
        self.unread: dict[str, str] = {}

    def start(self, paths) -> None:
        if not self.tool:
            return
        for path in paths:
            if path.endswith(".cubin") and path not in self.running and os.path.isfile(path):
                try:
                    self.running[path] = subprocess.Popen([*self.tool, path], stdout=subprocess.PIPE,
                                                          stderr=subprocess.DEVNULL, text=True,
                                                          errors="replace")
                except OSError as e:
                    self.unread[path] = f"the disassembler did not start: {e.strerror or e}"
                    continue
                STARTED.add(self.running[path].pid)

    def finish(self, paths=()) -> str | None:
        """The first narrow instruction among every kernel started so far and `paths`, as
        'kernel: instruction', or None. A disassembly that fails or runs past its time limit
        vouches for nothing: the kernel goes to `unread` (`unread_feedback`), since only kernels
        whose text cannot vouch for them are disassembled (`needing_machine_code`)."""
        self.start(paths)
        found = None
        for path, process in self.running.items():
            try:
                out, _ = process.communicate(timeout=DISASSEMBLY_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
                self.unread[path] = f"the disassembler ran past {DISASSEMBLY_TIMEOUT_S:g} s"
                continue
            if process.returncode != 0:
                self.unread[path] = f"the disassembler failed (exit status {process.returncode})"
            elif found is None:
                line = narrow_in_sass(out)
                if line is not None:
                    found = f"{_kernel_name(path)}: {line}"
        self.running = {}
        return found

    def unread_feedback(self) -> str | None:
        """What to tell a submission whose kernels' machine code could not be read, or None."""
        if not self.unread:
            return None
        named = "; ".join(f"{_kernel_name(p)}: {why}" for p, why in sorted(self.unread.items()))
        return (f"the machine code of your kernels holding inline assembly could not be read "
                f"({named}); kernels with assembly of their own are scored only once their "
                f"machine code shows no 8-bit or narrower arithmetic. {REASON}")


def _kernel_name(path: str) -> str:
    return os.path.basename(path).rsplit(".", 1)[0]


def needing_machine_code(files) -> list[str]:
    """The compiled kernels (cubins) whose text cannot vouch for them: those holding assembly the
    submission wrote (`tl.inline_asm_elementwise`, in their TTIR), or missing the TTIR or PTX
    they were compiled from (Triton can be set to keep binaries only). Every other cubin is
    ptxas's translation of PTX made by Triton's own code generator, which the text check read:
    disassembling every cubin cost the bundled matmul's step 0.48 s on the H200 (session 33),
    more than the whole step's overhead budget."""
    needed = []
    for path in dict.fromkeys(files):
        if not path.endswith(".cubin"):
            continue
        stem = path[: -len(".cubin")]
        try:
            with open(stem + ".ttir", encoding="utf-8", errors="replace") as f:
                own_assembly = "inline_asm" in f.read()
            text_there = os.path.isfile(stem + ".ptx")
        except OSError:
            own_assembly, text_there = True, False
        if own_assembly or not text_there:
            needed.append(path)
    return needed


def disassembler(kind: str = "nvdisasm") -> list[str] | None:
    """Triton's own copy of the CUDA disassembler (`nvdisasm -c`: code sections only) or of
    cuobjdump (`-sass -ptx`, for a CUDA extension's library); None where there is none."""
    try:
        from triton import knobs
        path = getattr(knobs.nvidia, kind).path
    except Exception:  # noqa: BLE001 - no NVIDIA backend: no machine code to read
        return None
    if not path or not os.access(path, os.X_OK):
        return None
    return [path, "-c"] if kind == "nvdisasm" else [path, "-sass", "-ptx"]


class Unreadable(Exception):
    """A library whose machine code the disassembler could not read: it vouches for nothing."""


def check_library(path: str) -> str | None:
    """The first narrow instruction in a built library's device code (a CUDA extension, read
    before it is loaded), as 'library: instruction', or None (none, or no device code at all).
    Raises Unreadable where cuobjdump fails otherwise or runs past its time limit."""
    tool = disassembler("cuobjdump")
    if tool is None:
        return None
    try:
        done = subprocess.run([*tool, path], capture_output=True, text=True, errors="replace",
                              timeout=DISASSEMBLY_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise Unreadable(f"cuobjdump ran past {DISASSEMBLY_TIMEOUT_S:g} s") from None
    except OSError as e:
        raise Unreadable(f"cuobjdump did not start: {e.strerror or e}") from None
    if done.returncode != 0:
        if "does not contain device code" in done.stdout + done.stderr:
            return None  # host code only: nothing to run on a GPU
        raise Unreadable(f"cuobjdump failed (exit status {done.returncode}): "
                         f"{(done.stderr or done.stdout).strip()[:200]}")
    machine, ptx = _fatbin_sections(done.stdout)
    line = narrow_in_sass(machine) or narrow_arithmetic(ptx)
    return None if line is None else f"{os.path.basename(path)}: {line}"


def _fatbin_sections(listing: str) -> tuple[str, str]:
    """cuobjdump's listing split into its machine code and its PTX. A library may carry PTX
    alone (`-gencode arch=compute_90,code=compute_90`), which the driver compiles as it loads:
    no machine code to read beforehand, so its PTX is read as a Triton kernel's is."""
    parts: dict[str, list[str]] = {"elf": [], "ptx": []}
    kind = "elf"
    for line in listing.splitlines():
        header = re.match(r"\s*Fatbin (elf|ptx) code:", line)
        if header:
            kind = header.group(1)
        parts[kind].append(line)
    return "\n".join(parts["elf"]), "\n".join(parts["ptx"])


class NarrowArithmetic(Exception):
    """Raised by the cpu evaluator's front end for a launch whose kernel computes narrow."""


def feedback(found: str) -> str:
    return f"narrow arithmetic in your kernel ({found}): {REASON}"


# nvcc's record of a translation unit's device code (`__fatBinC_Wrapper_t`: magic, version, the
# fatbin's address, 0), 24 bytes each in `.nvFatBinSegment`; the CUDA runtime registers what it
# points at from a static constructor.
_WRAPPER_MAGIC = 0x466243B1
_WRAPPER_SIZE = 24


def _sections(data: bytes) -> dict[str, tuple[int, int]]:
    """Section name -> (address, size) of an ELF64 little-endian file; {} without headers."""
    try:
        headers = section_headers(data)
        names = headers[struct.unpack_from("<H", data, 0x3E)[0]][4]  # e_shstrndx's section
        return {data[names + h[0]:data.index(b"\0", names + h[0])].decode("ascii", "replace"): (h[3], h[5])
                for h in headers}
    except (struct.error, IndexError, ValueError):
        return {}


def _load_base(path: str) -> int | None:
    """Where the loaded library `path` starts in this process (its first mapping, offset 0)."""
    real = os.path.realpath(path)
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split(maxsplit=5)
            if len(fields) == 6 and fields[5].strip() == real and int(fields[2], 16) == 0:
                return int(fields[0].split("-")[0], 16)
    return None


def moved_device_code(path: str) -> str | None:
    """After the library `path` is loaded (its constructors have run): a fatbin record of nvcc's
    that no longer points into the library's `.nv_fatbin` (what check_library read), or None.
    Red-team pass 67: the records are writable data outside RELRO, and load_inline links the C++
    translation unit first, so a global object's constructor there ran before nvcc's registration
    and pointed the record at an int8 fatbin carried as scrambled data. A constructor run after
    the registration can point it back: this check is a first line, not a proof (see README)."""
    import ctypes

    try:
        with open(path, "rb") as f:
            data = f.read()
        base = _load_base(path)
    except OSError:  # nothing the submission controls: no verdict rather than a false refusal
        return None
    sections = _sections(data)
    segment, fatbin = sections.get(".nvFatBinSegment"), sections.get(".nv_fatbin")
    if segment is None or base is None:
        return None
    low, high = (base + fatbin[0], base + fatbin[0] + fatbin[1]) if fatbin else (0, 0)
    for offset in range(0, segment[1] - _WRAPPER_SIZE + 1, _WRAPPER_SIZE):
        magic, version, address = struct.unpack("<IIQ", ctypes.string_at(base + segment[0] + offset, 16))
        if magic != _WRAPPER_MAGIC or not low <= address < high:
            return (f"{os.path.basename(path)}: its device code record at .nvFatBinSegment+{offset:#x} "
                    f"(magic {magic:#x}) points at {address:#x}, outside the .nv_fatbin that was read")
    return None
