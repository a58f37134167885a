"""One JSON line per reset and per step, on stdout and optionally appended to a file.

The file is rotated once it passes MAX_FILE_BYTES (to `<file>.1`, replacing the last one): a
server runs for days, and a client resetting in a loop wrote 337 KB/s of reset lines (red-team
pass 80), so the file holds at most about twice the limit. Stdout is the container runtime's
to rotate.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

MAX_FILE_BYTES = 1 << 30


class EvalLog:
    def __init__(self, path: Path | None = None, stream=None, max_file_bytes: int = MAX_FILE_BYTES):
        self.path = path
        self.stream = stream or sys.stdout
        self.max_file_bytes = max_file_bytes
        self._lock = threading.Lock()
        self._warned: set[str] = set()  # where writing failed (said once)

    def write(self, **fields) -> None:
        """Log one record. A log that cannot be written (a full disk, a closed stdout) is said
        once on stderr and never fails the step: its turn is spent and its answer must go out."""
        line = json.dumps({"ts": round(time.time(), 3), **fields}, default=str)
        with self._lock:
            try:
                self.stream.write(line + "\n")  # one write: print's two let other lines in between
                self.stream.flush()
            except (OSError, ValueError) as exc:  # ValueError: a closed stream
                self._failed("the log stream", exc)
            if self.path is not None:
                try:
                    with open(self.path, "a") as f:
                        f.write(line + "\n")
                        full = f.tell() >= self.max_file_bytes
                    if full:  # the next line starts a new file
                        os.replace(self.path, f"{self.path}.1")
                except OSError as exc:
                    self._failed(str(self.path), exc)

    def _failed(self, where: str, exc: Exception) -> None:
        if where not in self._warned:
            self._warned.add(where)
            try:
                sys.stderr.write(f"kernel_env: cannot write eval log records to {where} ({exc}); "
                                 "steps go on without them\n")
            except (OSError, ValueError):
                pass
