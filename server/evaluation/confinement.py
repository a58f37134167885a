"""Where an evaluation process may write files: its own folders and the devices, nothing else.

Every evaluation runs as the server's OS user, so without this a submission's native code (a
`language="cuda"` extension past the text rules) could write anywhere that user can: a sibling
evaluation's folder, or a cache a later evaluation loads from (Triton's shared cache holds
compiled kernels and the launchers' shared libraries, torch's kernel cache, the driver's PTX
cache), reaching every later step of every session. Linux's Landlock lets an unprivileged
process give up write access for itself and everything it starts, for good: `confine(folders)`
keeps writes (create, write, truncate, rename, remove, link) only beneath `folders`; reads and
execution stay unrestricted. Each call adds a layer, so a later call can only narrow what an
earlier one left. Landlock also stops a confined process from tracing (or writing the memory
of) any process outside its own confinement.

Where the kernel has no Landlock (older than 5.13, or it is not enabled, or a sandbox such as
gVisor hides it) nothing is confined and `confine` says why; the README's threat model lists
this as out of reach there.
"""

from __future__ import annotations

import ctypes
import os
import platform

# Syscall numbers are the same on x86_64 and aarch64 (new syscalls share one table).
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_VERSION_FLAG = 1  # LANDLOCK_CREATE_RULESET_VERSION: ask for the ABI version
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

# LANDLOCK_ACCESS_FS_* rights that change the file system (ABI 1), then REFER (ABI 2: renames
# and links across folders) and TRUNCATE (ABI 3). Reading, listing and executing stay open.
_WRITES_ABI1 = (
    (1 << 1)     # WRITE_FILE
    | (1 << 4)   # REMOVE_DIR
    | (1 << 5)   # REMOVE_FILE
    | (1 << 6)   # MAKE_CHAR
    | (1 << 7)   # MAKE_DIR
    | (1 << 8)   # MAKE_REG
    | (1 << 9)   # MAKE_SOCK
    | (1 << 10)  # MAKE_FIFO
    | (1 << 11)  # MAKE_BLOCK
    | (1 << 12)  # MAKE_SYM
)
_REFER, _TRUNCATE = 1 << 13, 1 << 14


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def abi_version() -> int:
    """Landlock's ABI version on this kernel; 0 where there is none (or not Linux)."""
    if platform.system() != "Linux":
        return 0
    libc = _libc()
    libc.syscall.restype = ctypes.c_long
    version = libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_VERSION_FLAG))
    return max(0, int(version))


def unavailable_reason() -> str | None:
    """Why writes cannot be confined here; None where they can."""
    if platform.system() != "Linux":
        return f"Landlock is a Linux feature (this is {platform.system()})"
    if abi_version() < 1:
        return "this kernel offers no Landlock (Linux 5.13 or later, with Landlock enabled, has it)"
    return None


def _write_rights(abi: int) -> int:
    rights = _WRITES_ABI1
    if abi >= 2:
        rights |= _REFER
    if abi >= 3:
        rights |= _TRUNCATE
    return rights


def confine(folders: list[str]) -> str | None:
    """Keep this process's (and its children's) file-system writes beneath `folders` from now
    on. Returns None once confined, or why nothing was confined (no Landlock here). A folder
    that does not exist is skipped. Raises OSError if Landlock is there but refuses the rules:
    a confinement that silently failed would be worse than none."""
    reason = unavailable_reason()
    if reason is not None:
        return reason
    libc = _libc()
    libc.syscall.restype = ctypes.c_long
    rights = _write_rights(abi_version())
    attr = ctypes.c_uint64(rights)  # struct landlock_ruleset_attr's first field, handled_access_fs
    ruleset = libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(8), ctypes.c_uint32(0))
    if ruleset < 0:
        raise _error("create a Landlock ruleset")
    try:
        for folder in folders:
            try:
                fd = os.open(folder, os.O_PATH | os.O_CLOEXEC | os.O_DIRECTORY)
            except FileNotFoundError:
                continue
            try:
                rule = _PathBeneath(rights, fd)
                if libc.syscall(_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_RULE_PATH_BENEATH),
                                ctypes.byref(rule), ctypes.c_uint32(0)) < 0:
                    raise _error(f"allow writes beneath {folder}")
            finally:
                os.close(fd)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise _error("set no_new_privs")
        if libc.syscall(_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) < 0:
            raise _error("restrict this process")
    finally:
        os.close(ruleset)
    return None


def _error(what: str) -> OSError:
    errno = ctypes.get_errno()
    return OSError(errno, f"could not {what}: {os.strerror(errno)}")
