"""Model prices, read from a TOML table (data, not code)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulebook2game.errors import BadInputError

DEFAULT_PRICES = Path(__file__).resolve().parent / "prices.toml"
"""The shipped table."""

_DATE_SUFFIX = re.compile(r"-\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens."""

    input: float
    output: float

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.input + completion_tokens * self.output) / 1_000_000


class _PriceEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    input: float = Field(ge=0)
    output: float = Field(ge=0)


class _PriceFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    models: dict[str, _PriceEntry] = {}


def load_prices(path: Path = DEFAULT_PRICES) -> dict[str, Price]:
    """Read a price table; a broken file is bad input."""
    try:
        with path.open("rb") as fh:
            parsed = _PriceFile.model_validate(tomllib.load(fh))
    except (OSError, tomllib.TOMLDecodeError, ValidationError) as exc:
        first = str(exc).splitlines()[0]
        raise BadInputError(f"{path}: not a usable price table ({first})") from None
    return {name: Price(e.input, e.output) for name, e in parsed.models.items()}


def price_for(
    model: str,
    table: dict[str, Price],
    price_in: float | None = None,
    price_out: float | None = None,
) -> Price | None:
    """The price of ``model``: the overrides when both are given, else the table's entry."""
    if price_in is not None or price_out is not None:
        if price_in is None or price_out is None:
            raise BadInputError("give both --price-in and --price-out, or neither")
        return Price(price_in, price_out)
    return table.get(model) or table.get(_DATE_SUFFIX.sub("", model))
