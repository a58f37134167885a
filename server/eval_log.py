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

    def write(self, **fields) -> None:
        line = json.dumps({"ts": round(time.time(), 3), **fields}, default=str)
        with self._lock:
            self.stream.write(line + "\n")  # one write: print's two let other lines in between
            self.stream.flush()
            if self.path is not None:
                with open(self.path, "a") as f:
                    f.write(line + "\n")
