"""The real ``openai`` client against the scripted server: retries, budget, cache, costs."""

from __future__ import annotations

import random
import socket
from pathlib import Path

import pytest

from rulebook2game.errors import BadInputError, ModelError
from rulebook2game.llm.cache import CachedModel, RequestCache
from rulebook2game.llm.messages import ChatRequest, ChatResponse, ToolMessage, UserMessage
from rulebook2game.llm.openai_model import Endpoint, OpenAIChatModel, resolve_endpoint
from rulebook2game.llm.pricing import Price, load_prices, price_for
from rulebook2game.llm.retry import RetryEvent, RetryPolicy, backoff_delay, retry_after
from rulebook2game.llm.usage import Budget, BudgetExceeded, Usage
from tests.fake_openai import FakeOpenAIServer, call, script

FAST = RetryPolicy(max_attempts=4, base_delay=0.01, max_delay=0.05)
HELLO = ChatRequest("any", (UserMessage("hello"),))


def model_for(
    server: FakeOpenAIServer, **kwargs: object
) -> tuple[OpenAIChatModel, list[RetryEvent]]:
    retries: list[RetryEvent] = []
    options = {"retry": FAST, "timeout": 5.0, **kwargs}
    model = OpenAIChatModel(
        Endpoint(server.base_url, "test-key"),
        on_retry=retries.append,
        **options,  # type: ignore[arg-type]
    )
    return model, retries


def test_tool_calls_come_back_typed() -> None:
    with FakeOpenAIServer(
        script({"tool_calls": [call("read_rulebook", {"section_id": "2"})]})
    ) as srv:
        model, _ = model_for(srv)
        response = model.complete(HELLO)
    (tool_call,) = response.message.tool_calls
    assert (tool_call.name, tool_call.arguments) == ("read_rulebook", '{"section_id": "2"}')
    assert response.usage.prompt_tokens > 0 and not response.cached


def test_429_then_success_honours_retry_after() -> None:
    step = {"fail": [{"status": 429, "headers": {"retry-after-ms": "30"}}], "content": "ok"}
    with FakeOpenAIServer(script(step)) as srv:
        model, retries = model_for(srv)
        response = model.complete(HELLO)
        statuses = [r.status for r in srv.received]
    assert response.message.content == "ok"
    assert statuses == [429, 200]
    assert [r.delay for r in retries] == [0.03]


def test_500s_until_the_budget_is_a_clear_model_error() -> None:
    with FakeOpenAIServer(script({"fail_always": {"status": 500}})) as srv:
        model, retries = model_for(srv)
        with pytest.raises(ModelError, match="after 4 attempts: server error"):
            model.complete(HELLO)
        assert len(srv.received) == 4 and len(retries) == 3


def test_a_timeout_is_retried() -> None:
    with FakeOpenAIServer(script({"fail": [{"delay": 1.5}], "content": "late but fine"})) as srv:
        model, retries = model_for(srv, timeout=0.4)
        response = model.complete(HELLO)
    assert response.message.content == "late but fine"
    assert "timed out" in retries[0].reason


def test_client_errors_are_not_retried() -> None:
    with FakeOpenAIServer(script({"fail": [{"status": 401}], "content": "never"})) as srv:
        model, retries = model_for(srv)
        with pytest.raises(ModelError, match="authentication"):
            model.complete(HELLO)
        assert len(srv.received) == 1 and retries == []


def _closed_port() -> int:
    """A loopback port that was free a moment ago: nothing listens on it now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_unreachable_endpoint_is_a_model_error() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    model = OpenAIChatModel(Endpoint(url, "k"), retry=FAST, timeout=1.0)
    with pytest.raises(ModelError, match="could not reach"):
        model.complete(HELLO)


def test_same_request_is_answered_from_the_cache(tmp_path: Path) -> None:
    with FakeOpenAIServer(script({"content": "one"}, {"content": "two"})) as srv:
        inner, _ = model_for(srv)
        cached = CachedModel(inner, RequestCache(tmp_path))
        first = cached.complete(HELLO)
        again = cached.complete(HELLO)
        follow = ChatRequest("any", (UserMessage("hello"), first.message, UserMessage("more")))
        cached.complete(follow)
        assert len(srv.received) == 2
    assert again.cached and again.message == first.message
    assert not CachedModel(inner, RequestCache(tmp_path / "other")).cache.get(HELLO)


def test_request_key_is_canonical() -> None:
    a = ChatRequest("m", (UserMessage("x"), ToolMessage("c1", "y")))
    b = ChatRequest("m", (UserMessage("x"), ToolMessage("c1", "y")))
    assert a.key() == b.key() != ChatRequest("m2", a.messages).key()


def test_backoff_grows_and_is_jittered() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=8.0)
    rng = random.Random(7)
    delays = [backoff_delay(policy, attempt, rng) for attempt in range(6)]
    for attempt, delay in enumerate(delays):
        ceiling = min(8.0, 2.0**attempt)
        assert ceiling / 2 <= delay <= ceiling


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"retry-after": "3"}, 3.0),
        ({"Retry-After-Ms": "250"}, 0.25),
        ({"x": "1"}, None),
        (None, None),
    ],
)
def test_retry_after_headers(headers: dict[str, str] | None, seconds: float | None) -> None:
    assert retry_after(headers) == seconds


def test_endpoint_resolution() -> None:
    assert resolve_endpoint(None, {}) is None
    local = resolve_endpoint("http://127.0.0.1:1/v1", {})
    assert local is not None and local.api_key != ""  # a placeholder key
    from_env = resolve_endpoint(None, {"OPENAI_API_KEY": "sk-x"})
    assert from_env == Endpoint(None, "sk-x")
    assert resolve_endpoint(None, {"OPENAI_BASE_URL": "http://h/v1"}) is not None


def test_prices_and_cost(tmp_path: Path) -> None:
    table = load_prices()
    assert price_for("gpt-4o-2024-08-06", table) == table["gpt-4o"]
    assert price_for("my-local-model", table) is None
    assert price_for("my-local-model", table, 1.0, 2.0) == Price(1.0, 2.0)
    with pytest.raises(BadInputError):
        price_for("m", table, 1.0, None)
    broken = tmp_path / "p.toml"
    broken.write_text("[models.x]\ninput = 'free'\n")
    with pytest.raises(BadInputError):
        load_prices(broken)
    response = ChatResponse.from_wire(
        {
            "message": {"role": "assistant", "content": "x"},
            "usage": {"prompt_tokens": 1_000_000, "completion_tokens": 500_000},
        }
    )
    usage = Usage().add(response, Price(2.0, 8.0))
    assert usage.cost == pytest.approx(6.0) and usage.tokens == 1_500_000
    replayed = ChatResponse.from_wire(response.to_wire(), cached=True)
    assert usage.add(replayed, Price(2.0, 8.0)).cost == pytest.approx(6.0)
    assert Usage().add(response, None).cost is None


def test_budget_checks() -> None:
    budget = Budget(max_turns=3, max_tokens=100, max_repairs=1)
    budget.check(2, 99, 1)
    with pytest.raises(BudgetExceeded, match="turn"):
        budget.check(3, 0, 0)
    with pytest.raises(BudgetExceeded, match="token"):
        budget.check(0, 100, 0)
    with pytest.raises(BudgetExceeded, match="repair"):
        budget.check(0, 0, 2)
