"""Every ``openai`` exception class has a retry decision (like httpx's mapping test)."""

from __future__ import annotations

import inspect

import httpx2
import openai
import openai._exceptions
import pytest

from rulebook2game.llm.errors import ERROR_TABLE, RETRYABLE_STATUS, classify


def _openai_exception_classes() -> set[type[BaseException]]:
    found: set[type[BaseException]] = set()
    for module in (openai, openai._exceptions):
        for name, obj in list(vars(module).items()):
            if (
                inspect.isclass(obj)
                and issubclass(obj, BaseException)
                and not name.startswith("_")
                and obj.__module__.startswith("openai")
            ):
                found.add(obj)
    return found


def test_table_covers_every_openai_exception_class() -> None:
    classes = _openai_exception_classes()
    assert len(classes) > 15  # the walk found them
    mapped = {policy.exc_type for policy in ERROR_TABLE}
    assert classes - mapped == set()


def _status_error(status: int) -> openai.APIStatusError:
    request = httpx2.Request("POST", "http://x/v1/chat/completions")
    response = httpx2.Response(status, request=request)
    return openai.APIStatusError("boom", response=response, body=None)


@pytest.mark.parametrize(
    ("status", "retry"),
    [(400, False), (408, True), (409, True), (429, True), (418, False), (503, True)],
)
def test_plain_status_errors_are_decided_by_code(status: int, retry: bool) -> None:
    policy = classify(_status_error(status))
    assert policy is not None and policy.retry is retry
    assert (status in RETRYABLE_STATUS) is retry


def test_specific_classes_win_over_bases() -> None:
    request = httpx2.Request("POST", "http://x")
    timeout = classify(openai.APITimeoutError(request))
    assert timeout is not None and timeout.exc_type is openai.APITimeoutError and timeout.retry
    auth = classify(
        openai.AuthenticationError("no", response=httpx2.Response(401, request=request), body=None)
    )
    assert auth is not None and not auth.retry
    assert classify(ValueError("not ours")) is None
