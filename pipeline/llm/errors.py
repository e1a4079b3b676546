"""What to do about each error the ``openai`` package can raise: retry, or stop.

The table is the one place that knows the ``openai`` exception types; a test
checks that it covers every exception class the package defines. Lookup walks
the exception's MRO, so the most specific entry wins. A plain ``APIStatusError``
(a status code without a dedicated class) is decided by its status code.

Model-layer errors of our own (both :class:`~rulebook2game.errors.ModelError`)::

    ModelError                  the endpoint failed for good (after retries, or not retryable)
    └── BudgetExceeded          a turn, token or repair budget ran out (llm.usage)
"""

from __future__ import annotations

from dataclasses import dataclass

import openai
from openai._exceptions import SubjectTokenProviderError


@dataclass(frozen=True)
class ErrorPolicy:
    """How one exception type is handled."""

    exc_type: type[BaseException]
    retry: bool
    description: str


RETRYABLE_STATUS = frozenset({408, 409, 429}) | frozenset(range(500, 600))
"""Status codes worth another attempt: timeout, conflict, rate limit, server errors."""

ERROR_TABLE: tuple[ErrorPolicy, ...] = (
    ErrorPolicy(openai.APITimeoutError, True, "the request timed out"),
    ErrorPolicy(openai.APIConnectionError, True, "could not reach the endpoint"),
    ErrorPolicy(openai.RateLimitError, True, "rate limited (429)"),
    ErrorPolicy(openai.InternalServerError, True, "server error (5xx)"),
    ErrorPolicy(openai.ConflictError, True, "conflict (409), usually transient"),
    ErrorPolicy(openai.BadRequestError, False, "the endpoint rejected the request (400)"),
    ErrorPolicy(openai.AuthenticationError, False, "authentication failed (401): check the key"),
    ErrorPolicy(openai.OAuthError, False, "OAuth authentication failed"),
    ErrorPolicy(openai.PermissionDeniedError, False, "permission denied (403)"),
    ErrorPolicy(openai.NotFoundError, False, "not found (404): check --model and --base-url"),
    ErrorPolicy(openai.UnprocessableEntityError, False, "unprocessable request (422)"),
    ErrorPolicy(openai.APIStatusError, False, "unexpected HTTP status"),
    ErrorPolicy(
        openai.APIResponseValidationError, True, "the endpoint's answer did not parse; retried"
    ),
    ErrorPolicy(openai.APIError, False, "the API reported an error"),
    ErrorPolicy(openai.LengthFinishReasonError, False, "the answer hit the length limit"),
    ErrorPolicy(openai.ContentFilterFinishReasonError, False, "the content filter refused"),
    ErrorPolicy(openai.InvalidWebhookSignatureError, False, "webhook signature (unused here)"),
    ErrorPolicy(SubjectTokenProviderError, False, "workload-identity token provider failed"),
    ErrorPolicy(openai.WebSocketConnectionClosedError, True, "websocket closed (unused here)"),
    ErrorPolicy(openai.WebSocketQueueFullError, True, "websocket queue full (unused here)"),
    ErrorPolicy(openai.OpenAIError, False, "the openai client failed"),
)

_BY_TYPE = {policy.exc_type: policy for policy in ERROR_TABLE}


def classify(exc: BaseException) -> ErrorPolicy | None:
    """The policy for ``exc`` (``None`` when it is not an ``openai`` error at all)."""
    for klass in type(exc).__mro__:
        policy = _BY_TYPE.get(klass)
        if policy is None:
            continue
        if klass is openai.APIStatusError and isinstance(exc, openai.APIStatusError):
            retry = exc.status_code in RETRYABLE_STATUS
            return ErrorPolicy(klass, retry, f"HTTP {exc.status_code}")
        return policy
    return None


def describe(exc: BaseException) -> str:
    """One line about a failed request, for logs and for :class:`ModelError`."""
    policy = classify(exc)
    what = policy.description if policy else type(exc).__name__
    detail = str(exc).splitlines()[0] if str(exc) else ""
    return f"{what}: {detail}" if detail and detail not in what else what
