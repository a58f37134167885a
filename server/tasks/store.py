"""The task store: `levelN/<stem>.py` files under a root, a deterministic train/eval split.

The split hashes the task id (SHA-256; a task is in "eval" when the first 8 hex digits, as an
integer, are divisible by 5 - about 20%), so it never depends on which other tasks are present
and a task keeps its split across machines, releases and task roots. `seed` picks the task at
index `seed % len(split)` of the split's ids in sorted order.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass
from pathlib import Path

SPLITS = ("train", "eval")
EVAL_MODULUS = 5
# Level 4 loads Hugging Face models and needs the hub: only the offline levels are served.
_LEVEL_DIR = re.compile(r"^level[123]$")


def shown(value) -> str:
    """A client's bad value in an error message, never more than a line of it."""
    try:
        text = repr(value)
    except ValueError:  # an int past Python's 4300-digit limit for its text
        return f"an integer of {value.bit_length()} bits"
    return text if len(text) <= 80 else text[:60] + f"... ({len(text)} characters)"


class UnknownTask(ValueError):
    """A task id, split or level that the store does not hold."""


@dataclass(frozen=True)
class Task:
    task_id: str  # "level1/19_ReLU"
    path: Path

    @property
    def level(self) -> int:
        return int(self.task_id.split("/")[0][len("level"):])

    @property
    def name(self) -> str:
        return self.task_id.split("/", 1)[1]

    def source(self) -> str:
        return self.path.read_text()


def split_of(task_id: str) -> str:
    digest = hashlib.sha256(task_id.encode()).hexdigest()
    return "eval" if int(digest[:8], 16) % EVAL_MODULUS == 0 else "train"


class TaskStore:
    """Every task under a root, indexed by id and by split."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.tasks: dict[str, Task] = {}
        for level in sorted(p for p in self.root.iterdir() if p.is_dir() and _LEVEL_DIR.match(p.name)):
            for path in sorted(level.glob("*.py")):
                if not path.name.startswith("_"):
                    task = Task(f"{level.name}/{path.stem}", path)
                    self.tasks[task.task_id] = task
        if not self.tasks:
            raise UnknownTask(f"no task files (level*/<name>.py) under {self.root}")
        self.by_split = {s: sorted(t for t in self.tasks if split_of(t) == s) for s in SPLITS}

    def ids(self, split: str | None = None) -> list[str]:
        if split is None:
            return sorted(self.tasks)
        self._check_split(split)
        return self.by_split[split]

    def get(self, task_id: str) -> Task:
        task = self.tasks.get(task_id)
        if task is None:
            close = [t for t in self.tasks if task_id.split("/")[-1].lower() in t.lower()][:5]
            hint = f" Did you mean: {', '.join(close)}?" if close else ""
            raise UnknownTask(f"unknown task_id {shown(task_id)}.{hint} Task ids look like "
                              "'level1/19_ReLU'; list them with GET /tasks or "
                              "KernelEnv.list_tasks().")
        return task

    def pick(self, split: str, seed: int | None, rng: random.Random | None = None) -> Task:
        """The task for `seed` within `split` (deterministic), or a random one without a seed."""
        ids = self.ids(split)
        if not ids:
            raise UnknownTask(f"split {split!r} holds no tasks under {self.root}")
        if seed is None:
            return self.tasks[(rng or random).choice(ids)]
        return self.tasks[ids[seed % len(ids)]]

    def _check_split(self, split: str) -> None:
        if split not in SPLITS:
            raise UnknownTask(f"unknown split {split!r}; valid: {', '.join(SPLITS)}")
