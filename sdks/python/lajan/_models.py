"""Turns an answer's JSON into the typed models of `lajan.models`, led by their annotations.

Amounts (`format: decimal` strings, and JSON numbers, which `_json` reads as Decimals) become
`Decimal`, dates `date`, times `datetime`; a field the model does not know is skipped, so a newer
server never breaks an older library, and an enum value it does not know is kept as text.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from datetime import date, datetime
from decimal import Decimal
from functools import cache
from typing import Any, Literal, TypeVar, Union, cast, get_args, get_origin

T = TypeVar("T")

_WORD = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@cache
def attribute(json_name: str) -> str:
    """The model attribute of a JSON property: `amountPaid` -> `amount_paid` (as the generator names it)."""
    return _WORD.sub("_", json_name).lower()


@cache
def _hints(model: type) -> dict[str, Any]:
    return typing.get_type_hints(model)


def decode(kind: Any, value: Any) -> Any:
    """`value` (parsed JSON) as the type `kind`."""
    if value is None or kind is Any:
        return value
    origin = get_origin(kind)
    if origin is Union or origin is types.UnionType:
        (option,) = [a for a in get_args(kind) if a is not type(None)]
        return decode(option, value)
    if origin is Literal:
        return value
    if origin is list:
        (item,) = get_args(kind)
        return [decode(item, v) for v in value]
    if origin is dict:
        return {k: decode(get_args(kind)[1], v) for k, v in value.items()}
    if kind is Decimal:
        return value if isinstance(value, Decimal) else Decimal(str(value))
    if kind is datetime:
        return datetime.fromisoformat(value)
    if kind is date:
        return date.fromisoformat(value)
    model = origin or kind
    if dataclasses.is_dataclass(model) and isinstance(value, dict):
        return _model(model, get_args(kind), cast(dict[str, Any], value))
    return value


def _model(model: Any, arguments: tuple[Any, ...], value: dict[str, Any]) -> Any:
    # A base whose subclasses are told apart by `type` (Event): the subclass of this value's type.
    variants = model.__dict__.get("by_type")
    if variants:
        model = variants.get(value.get("type"), variants[""])
    hints = _hints(model)
    bound = dict(zip(getattr(model, "__parameters__", ()), arguments, strict=False))
    fields = {}
    for key, item in value.items():
        name = attribute(key)
        if name in hints:
            hint = hints[name]
            fields[name] = decode(bound.get(hint, hint), item)
    return model(**fields)
