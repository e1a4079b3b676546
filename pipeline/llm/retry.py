"""The one retry helper: exponential backoff with jitter, honouring ``Retry-After``.

Whether an error is worth another attempt is decided by
:data:`rulebook2game.llm.errors.ERROR_TABLE`; everything else about waiting is here.
The ``openai`` client's own retries are switched off (``max_retries=0``) so this is
the only policy in force.
"""

from __future__ import annotations

import email.utils
import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

import openai

from rulebook2game.errors import ModelError
from rulebook2game.llm.errors import classify, describe

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry."""

    max_attempts: int = 6
    """Attempts in all, the first one included."""
    base_delay: float = 1.0
    """Seconds before the first retry; doubled each time."""
    max_delay: float = 60.0
    """Cap of one backoff wait."""
    max_retry_after: float = 120.0
    """A server asking for a longer wait than this ends the attempts."""
    max_unreachable_attempts: int = 3
    """Attempts when nothing answers at all (connection refused, no such host): such an
    endpoint is rarely back within seconds, so the wait stays short and bounded."""


@dataclass(frozen=True)
class RetryEvent:
    """One failed attempt that will be retried (for logs and progress)."""

    attempt: int
    delay: float
    reason: str


def backoff_delay(policy: RetryPolicy, attempt: int, rng: random.Random) -> float:
    """Wait before attempt ``attempt + 1``: half fixed, half random ("equal jitter")."""
    ceiling = min(policy.max_delay, policy.base_delay * (2.0**attempt))
    return ceiling / 2 + rng.uniform(0, ceiling / 2)


def retry_after(headers: Mapping[str, str] | None, now: float | None = None) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms`` or ``retry-after``)."""
    if not headers:
        return None
    lowered = {k.lower(): v for k, v in headers.items()}
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        raw = lowered.get(name)
        if raw is None:
            continue
        try:
            value = float(raw) / divisor
        except ValueError:
            parsed = email.utils.parsedate_to_datetime(raw) if name == "retry-after" else None
            if parsed is None:
                continue
            value = parsed.timestamp() - (time.time() if now is None else now)
        if math.isfinite(value):
            return max(0.0, value)
    return None


def _headers_of(exc: BaseException) -> Mapping[str, str] | None:
    if isinstance(exc, openai.APIStatusError):
        return dict(exc.response.headers)
    return None


def _unreachable(exc: BaseException) -> bool:
    """Nothing answered (a timeout is an answer that came too late, and is not this)."""
    return isinstance(exc, openai.APIConnectionError) and not isinstance(
        exc, openai.APITimeoutError
    )


def with_retries(
    call: Callable[[], T],
    policy: RetryPolicy,
    *,
    sleep: Callable[[float], None] = time.sleep,
    rng: random.Random | None = None,
    on_retry: Callable[[RetryEvent], None] | None = None,
) -> T:
    """Run ``call``; retry ``openai`` errors the table marks retryable.

    Raises:
        ModelError: a non-retryable error, a too-long ``Retry-After``, or the last
            retryable error once ``policy.max_attempts`` are used (chained with ``from``).
    """
    rng = rng or random.Random()
    for attempt in range(policy.max_attempts):
        try:
            return call()
        except openai.OpenAIError as exc:
            verdict = classify(exc)
            reason = describe(exc)
            if verdict is None or not verdict.retry:
                raise ModelError(f"model request failed: {reason}") from exc
            attempts = policy.max_attempts
            if _unreachable(exc):
                attempts = min(attempts, policy.max_unreachable_attempts)
            if attempt + 1 >= attempts:
                raise ModelError(
                    f"model request failed after {attempts} attempts: {reason}"
                ) from exc
            asked = retry_after(_headers_of(exc))
            if asked is not None and asked > policy.max_retry_after:
                raise ModelError(
                    f"model request failed: server asked to retry after {asked:.0f} s "
                    f"(limit {policy.max_retry_after:.0f} s): {reason}"
                ) from exc
            delay = asked if asked is not None else backoff_delay(policy, attempt, rng)
            if on_retry is not None:
                on_retry(RetryEvent(attempt + 1, delay, reason))
            sleep(delay)
    raise ModelError("model request failed: no attempts allowed")  # max_attempts < 1
