"""Turning exceptions into short feedback an agent can act on."""

from __future__ import annotations

import traceback

MAX_FEEDBACK_CHARS = 2000
HEADLINE_CHARS = 300


def clip(text: str, limit: int = MAX_FEEDBACK_CHARS) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 20] + "\n... (truncated)"


def describe_exception(exc: BaseException, candidate_file: str | None = None) -> str:
    """The exception line plus the frames in the submission's own file (the evaluator's are noise)."""
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if candidate_file and f.filename == candidate_file]
    where = "".join(f"  line {f.lineno}, in {f.name}: {(f.line or '').strip()}\n" for f in own[-3:])
    message = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    message = _first_real_error(message)
    return clip((where + message) if where else message)


def _first_real_error(message: str) -> str:
    """Compiler logs bury the first error under the build's command lines, warnings and notes:
    keep the headline (shortened: a build failure's first line holds the whole compiler command)
    and start at the first line that reports an error."""
    lines = message.splitlines()
    for i, line in enumerate(lines[1:], 1):
        low = line.lower().lstrip()
        if "error:" in low or low.startswith("error"):
            return "\n".join([clip(lines[0], HEADLINE_CHARS)] + lines[i: i + 12])
    return "\n".join(lines[:40])
