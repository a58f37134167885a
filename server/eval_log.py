"""One JSON line per reset and per step, on stdout and optionally appended to a file."""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path


class EvalLog:
    def __init__(self, path: Path | None = None, stream=None):
        self.path = path
        self.stream = stream or sys.stdout
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
