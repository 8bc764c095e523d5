"""Exact JSON for money: Decimals are written as JSON numbers digit for digit, and every JSON
number read is a Decimal (integers stay int), so no amount ever passes through a float."""

import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, cast


def dumps(value: Any) -> str:
    """JSON text of `value`, writing each Decimal as its plain digits; a float is refused."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, int)):
        return json.dumps(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{value} is not an amount")
        return format(value, "f")
    if isinstance(value, float):
        raise TypeError(f"{value!r} is a float, which cannot hold an amount exactly: pass a Decimal")
    if isinstance(value, dict):
        fields = cast(dict[str, Any], value)
        return "{" + ",".join(f"{json.dumps(str(k))}:{dumps(v)}" for k, v in fields.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(dumps(v) for v in cast(Sequence[Any], value)) + "]"
    raise TypeError(f"{type(value).__name__} is not JSON")


def loads(text: str | bytes) -> Any:
    return json.loads(text, parse_float=Decimal)
