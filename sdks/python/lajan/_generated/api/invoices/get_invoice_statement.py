from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.invoice_statement import InvoiceStatement
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    accept: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(accept, Unset):
        headers["Accept"] = accept

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/invoices/{id}/statement".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | InvoiceStatement | None:
    if response.status_code == 200:
        response_200 = InvoiceStatement.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = ErrorBody.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | InvoiceStatement]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    accept: None | str | Unset = UNSET,
) -> Response[ErrorBody | InvoiceStatement]:
    """Explains the invoice's balance line by line: its total, each payment (ledger or outside Lajan) and
    reversal, a void, and what moved to or from the client's credit balance, oldest first, each with the
    running balance; the last balance is amountRemaining. With Accept: text/csv, the same lines as a CSV
    a spreadsheet opens safely.

    Args:
        id (str):
        accept (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | InvoiceStatement]
    """

    kwargs = _get_kwargs(
        id=id,
        accept=accept,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    accept: None | str | Unset = UNSET,
) -> ErrorBody | InvoiceStatement | None:
    """Explains the invoice's balance line by line: its total, each payment (ledger or outside Lajan) and
    reversal, a void, and what moved to or from the client's credit balance, oldest first, each with the
    running balance; the last balance is amountRemaining. With Accept: text/csv, the same lines as a CSV
    a spreadsheet opens safely.

    Args:
        id (str):
        accept (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | InvoiceStatement
    """

    return sync_detailed(
        id=id,
        client=client,
        accept=accept,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    accept: None | str | Unset = UNSET,
) -> Response[ErrorBody | InvoiceStatement]:
    """Explains the invoice's balance line by line: its total, each payment (ledger or outside Lajan) and
    reversal, a void, and what moved to or from the client's credit balance, oldest first, each with the
    running balance; the last balance is amountRemaining. With Accept: text/csv, the same lines as a CSV
    a spreadsheet opens safely.

    Args:
        id (str):
        accept (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | InvoiceStatement]
    """

    kwargs = _get_kwargs(
        id=id,
        accept=accept,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    accept: None | str | Unset = UNSET,
) -> ErrorBody | InvoiceStatement | None:
    """Explains the invoice's balance line by line: its total, each payment (ledger or outside Lajan) and
    reversal, a void, and what moved to or from the client's credit balance, oldest first, each with the
    running balance; the last balance is amountRemaining. With Accept: text/csv, the same lines as a CSV
    a spreadsheet opens safely.

    Args:
        id (str):
        accept (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | InvoiceStatement
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            accept=accept,
        )
    ).parsed
