"""The WebSocket prefilter for messages OpenEnv's loop cannot parse (request_limits)."""

from __future__ import annotations

from server.request_limits import _LONG_DIGITS, _past_parser_limits


def test_an_integer_past_the_digit_limit_is_found_wherever_its_run_begins():
    assert "4300" in _past_parser_limits('{"type": "reset", "data": {"seed": ' + "7" * 4301 + "}}")
    assert _LONG_DIGITS.search("x" + "7" * 4300 + "y")
    assert not _LONG_DIGITS.search("x" + "7" * 4299 + "y")


def test_many_runs_just_under_the_limit_are_one_pass_over_the_message():
    """A step's 2 MiB of code in 4,299-digit runs (red-team pass 80): the search starts only
    where a run does, so each digit is read once (the old pattern rescanned every run from each
    of its digits: ~5 s of the event loop a message, every session stalled)."""
    code = ("1" * 4299 + ",") * 485
    message = '{"type": "step", "data": {"code": "' + code + '"}}'
    assert _LONG_DIGITS.search(message) is None
    assert _past_parser_limits(message) is None  # an object the loop parses: it answers it


def test_a_lone_surrogate_is_refused_and_a_pair_passes():
    """A lone `\\ud800` in a field OpenEnv's loop echoes back made its error reply unserialisable,
    and the loop ended the session (red-team pass 80); an emoji, escaped as a pair, is fine."""
    import json

    for text in ('{"type": "step", "data": {"code": "x", "foo": "\\ud800"}}',
                 '{"type": "state", "data": {"\\udfff": 1}}',
                 '{"type": "step", "data": {"code": ["\\ud83d"]}}'):
        assert "surrogate" in _past_parser_limits(text), text
    assert _past_parser_limits(json.dumps({"type": "step", "data": {"code": "print('\U0001F600')"}})) is None
    assert _past_parser_limits('{"type": "step", "data": {"code": "a\\\\ud800"}}') is None  # an escaped backslash
