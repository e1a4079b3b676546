"""The agent's tools: their names, argument models and the JSON schemas sent to the API.

The argument models are the boundary where the model's JSON becomes typed values;
the descriptions the model reads live in ``prompts/agent/tools.toml`` (no prompt text
in code).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rulebook2game.errors import WorkspaceError
from rulebook2game.llm.messages import ToolSpec
from rulebook2game.resources import PROMPTS_DIR

TOOLS_FILE = PROMPTS_DIR / "agent" / "tools.toml"


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ReadRulebookArgs(_Args):
    section_id: str | None = None


class NoArgs(_Args):
    pass


Side = Literal["this", "second"]
"""Whose pages a page tool works on: this translation's, or the second opinion's."""


class ListPagesArgs(_Args):
    side: Side = "this"


class PageNameArgs(_Args):
    name: str = Field(min_length=1, max_length=64)
    side: Side = "this"


class WritePageArgs(_Args):
    name: str = Field(min_length=1, max_length=64)
    content: str
    side: Side = "this"


class RunChecksArgs(_Args):
    first: int = Field(default=1, ge=1)


class Ambiguity(_Args):
    """One place where the rulebook allows more than one reading, and the one chosen."""

    sentences: list[str] = Field(min_length=1)
    reading: str = Field(min_length=1)
    why: str = ""


class FinishArgs(_Args):
    summary: str = ""
    ambiguities: list[Ambiguity] = Field(default_factory=list)


class WriteScenarioArgs(_Args):
    name: str = Field(min_length=1, max_length=64)
    cites: list[str] = Field(min_length=1)
    description: str = ""
    actions: list[str] = Field(default_factory=list)
    expect: list[dict[str, Any]] = Field(default_factory=list)
    setup: dict[str, Any] | None = None


class ScenarioNameArgs(_Args):
    name: str = Field(min_length=1, max_length=64)


class RunMutantsArgs(_Args):
    max: int = Field(default=40, ge=0)
    survivors: bool = False
    jobs: int = Field(default=0, ge=0, le=64)


class ReviewMutantArgs(_Args):
    id: str = Field(min_length=1)
    why: str = Field(min_length=1)


class MarkOutOfScopeArgs(_Args):
    sentences: list[str] = Field(min_length=1)
    why: str = ""
    remove: bool = False


class ShowPositionArgs(_Args):
    actions: list[str] = Field(default_factory=list)
    state: str | None = None
    set: dict[str, Any] | None = None


ARG_MODELS: dict[str, type[_Args]] = {
    "read_rulebook": ReadRulebookArgs,
    "list_pages": ListPagesArgs,
    "read_page": PageNameArgs,
    "write_page": WritePageArgs,
    "delete_page": PageNameArgs,
    "compile": NoArgs,
    "run_checks": RunChecksArgs,
    "write_scenario": WriteScenarioArgs,
    "list_scenarios": NoArgs,
    "delete_scenario": ScenarioNameArgs,
    "show_position": ShowPositionArgs,
    "run_mutants": RunMutantsArgs,
    "review_mutant": ReviewMutantArgs,
    "mark_out_of_scope": MarkOutOfScopeArgs,
    "finish": FinishArgs,
}
"""Every tool, in the order the model is shown them."""

TOOL_NAMES: tuple[str, ...] = tuple(ARG_MODELS)


def _schema(model: type[_Args], arg_docs: dict[str, str]) -> dict[str, Any]:
    schema = model.model_json_schema()
    schema.pop("title", None)
    schema.setdefault("properties", {})
    for name, prop in schema["properties"].items():
        prop.pop("title", None)
        if "anyOf" in prop:  # `X | None`: say X (the default says optional)
            kinds = [k for k in prop.pop("anyOf") if k.get("type") != "null"]
            prop.update(kinds[0] if len(kinds) == 1 else {"anyOf": kinds})
        if name in arg_docs:
            prop["description"] = arg_docs[name]
    return schema


def tool_specs(path: Path | None = None) -> tuple[ToolSpec, ...]:
    """The tool specs for the API: schemas from the models, words from ``tools.toml``."""
    path = path or TOOLS_FILE
    try:
        with path.open("rb") as fh:
            docs = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise WorkspaceError(f"{path}: cannot read tool descriptions ({exc})") from None
    specs = []
    for name, model in ARG_MODELS.items():
        entry = docs.get(name)
        if not isinstance(entry, dict) or "description" not in entry:
            raise WorkspaceError(f"{path}: no description for tool {name!r}")
        specs.append(
            ToolSpec(name, str(entry["description"]).strip(), _schema(model, entry.get("args", {})))
        )
    return tuple(specs)
