"""Pydantic models of file schemas, made from the field declarations (``domain/entities.py``).

Each declared field is read by the one field parser; TOML and JSON floats are refused for every number:
``0.1`` as a float is not 0.1. Write such values as strings (``amount = "0.5"``) or integers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError, create_model, model_validator

from quotetui.domain.errors import BadInput, QuotetuiError, unnamed
from quotetui.domain.fields import Field as DeclaredField
from quotetui.domain.fields import Rule, parse_value
from quotetui.language import _
from quotetui.language.lists import clauses, labelled, quoted


class Strict(BaseModel):
    """Unknown keys are errors (a typo must not silently drop a figure)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, frozen=True)


class _Ruled(Strict):
    """A model made from field declarations; its entity's cross-field rules run once the fields are read."""

    entity_rules: ClassVar[tuple[Rule, ...]] = ()

    @model_validator(mode="after")
    def _rules(self) -> _Ruled:
        values = {name: getattr(self, name) for name in type(self).model_fields}
        for rule in self.entity_rules:
            problems = rule(values)
            if problems:
                raise ValueError(clauses(labelled(name, message) for name, message in problems.items()))
        return self


def _parser(f: DeclaredField) -> Any:
    def parse(value: Any) -> Any:
        if isinstance(value, float):
            raise ValueError(
                _('{value} is a float, which is not exact; write it as a string: "{text}"').format(
                    value=quoted(value), text=value
                )
            )
        try:
            return parse_value(f, value, percent_input=False)  # TOML keeps fractions, as JSON does
        except QuotetuiError as exc:
            raise ValueError(unnamed(str(exc))) from None

    return parse


def model_of(name: str, fields: Iterable[DeclaredField], *, rules: tuple[Rule, ...] = (), **extra: Any) -> Any:
    """A strict pydantic model whose keys are the declared ``fields`` (each read by the one field parser, a
    required one without a default), plus ``extra`` structural keys given as ``(type, default)``."""
    definitions: dict[str, Any] = {}
    for f in fields:
        annotation = Annotated[Any, BeforeValidator(_parser(f))]
        definitions[f.name] = (annotation, ... if f.required else f.empty)
    model = create_model(name, __base__=_Ruled, **definitions, **extra)
    model.entity_rules = rules
    return model


def _where(loc: Sequence[int | str]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts[-1] = f"{parts[-1]} {item + 1}" if parts else f"#{item + 1}"
        else:
            parts.append(str(item))
    return " › ".join(parts) or _("(top level)")


def explain(error: ValidationError, origin: str) -> BadInput:
    """All problems of a pydantic error as one message naming the file and the field."""
    lines = []
    for item in error.errors():
        message = str(item["msg"]).removeprefix("Value error, ")
        lines.append(f"{origin}: {_where(item['loc'])}: {message}")
    return BadInput("\n".join(lines))
