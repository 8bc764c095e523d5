"""`Lajan`: one client from a base URL and a key, over every generated operation.

`lajan.<area>.<operation>(...)` calls the generated function of that name (the OpenAPI
operationId in snake case: `lajan.invoices.create_invoice(body=...)`), gives every POST an
Idempotency-Key (the caller's `idempotency_key=`, which makes a retry safe, else a new one per
call), and returns the parsed answer or raises `LajanError`.
"""

import importlib
import inspect
import pkgutil
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from . import _json
from ._generated import api
from ._generated.client import AuthenticatedClient
from ._generated.models.disbursement_view import DisbursementView
from ._http import ExactJsonClient
from .errors import LajanError

# One per tag of the document, as the generator made them.
AREAS = tuple(module.name for module in pkgutil.iter_modules(api.__path__))


class Operation:
    """One API operation, bound to a client."""

    def __init__(self, lajan: "Lajan", module: Any):
        self._lajan = lajan
        self._module = module
        self.__name__ = module.__name__.rsplit(".", 1)[-1]
        self.__doc__ = module.sync_detailed.__doc__
        self._keyed = "idempotency_key" in inspect.signature(module.sync_detailed).parameters

    def __call__(self, **kwargs: Any) -> Any:
        if self._keyed and kwargs.get("idempotency_key") is None:
            kwargs["idempotency_key"] = str(uuid.uuid4())
        response = self._module.sync_detailed(client=self._lajan._client, **kwargs)
        if not 200 <= response.status_code < 300:
            raise LajanError.from_response(response)
        return response.parsed


class Area:
    """The operations of one area, e.g. `lajan.clients`."""

    def __init__(self, lajan: "Lajan", name: str):
        self._lajan = lajan
        self._package = f"{__package__}._generated.api.{name}"

    def __getattr__(self, operation: str) -> Operation:
        if operation.startswith("_"):
            raise AttributeError(operation)
        try:
            module = importlib.import_module(f"{self._package}.{operation}")
        except ModuleNotFoundError:
            raise AttributeError(f"no operation {operation!r} in {self._package.rsplit('.', 1)[-1]}") from None
        return Operation(self._lajan, module)


class Lajan:
    """A client of the Lajan API.

    >>> lajan = Lajan("http://127.0.0.1:8080", "sk_test_...")
    >>> lajan.clients.create_client(body=CreateClient(first_name="Marie", last_name="Jean"))
    """

    clients: Area
    disbursements: Area
    events: Area
    invoices: Area
    operations: Area
    payment_links: Area
    payouts: Area
    sandbox: Area
    settings: Area
    webhook_endpoints: Area

    def __init__(self, base_url: str, api_key: str, *, timeout: float = 30.0):
        http = ExactJsonClient(
            base_url=base_url.rstrip("/"),
            headers={"Authorization": f"Bearer {api_key}"},
            timeout=timeout,
        )
        self._client = AuthenticatedClient(base_url=base_url, token=api_key).set_httpx_client(http)
        for area in AREAS:
            setattr(self, area, Area(self, area))

    def close(self) -> None:
        self._client.get_httpx_client().close()

    def __enter__(self) -> "Lajan":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def paginate(self, operation: Callable[..., Any], **kwargs: Any) -> Iterator[Any]:
        """Every item of a list operation, page after page (`limit` up to 100 per request), each
        page asked after the last item of the one before (`starting_after`), so the walk costs
        the same per page however long the list is.

        >>> for client in lajan.paginate(lajan.clients.list_clients, search="jean"):
        ...     print(client.id)
        """
        after: str | None = None
        while True:
            answer = operation(**kwargs) if after is None else operation(starting_after=after, **kwargs)
            yield from answer.data
            if not answer.pagination.has_more or not answer.data:
                return
            after = answer.data[-1].id

    def create_disbursement_from_csv(
        self,
        csv: str | bytes,
        *,
        name: str,
        asset_code: str,
        asset_issuer: str | None = None,
        idempotency_key: str | None = None,
    ) -> DisbursementView:
        """A draft disbursement from a CSV file (header row naming any of clientId,
        walletAccountId, assetAmount, memo, externalId); the generator reads JSON bodies only."""
        params = {"name": name, "assetCode": asset_code}
        if asset_issuer is not None:
            params["assetIssuer"] = asset_issuer
        response = self._client.get_httpx_client().post(
            "/v1/disbursements",
            params=params,
            content=csv.encode() if isinstance(csv, str) else csv,
            headers={"Content-Type": "text/csv", "Idempotency-Key": idempotency_key or str(uuid.uuid4())},
        )
        if not 200 <= response.status_code < 300:
            raise LajanError.from_response(response)
        return DisbursementView.from_dict(_json.loads(response.content))
