from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.credit_note_view import CreditNoteView
from ...models.error_body import ErrorBody
from ...models.issue_credit_note import IssueCreditNote
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: IssueCreditNote,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/invoices/{id}/credit-notes".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreditNoteView | ErrorBody | None:
    if response.status_code == 201:
        response_201 = CreditNoteView.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

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
) -> Response[CreditNoteView | ErrorBody]:
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
    body: IssueCreditNote,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[CreditNoteView | ErrorBody]:
    """Reduces what a sent invoice asks for (a waiver, a rescheduling, a duplicate): before payment it
    lowers amountRemaining; what the invoice had received beyond its new total is held on the client's
    credit balance; a credit note that leaves nothing owed pays the invoice (invoice.paid). Numbered
    CN-000001 per organization, gapless. Records credit_note.created. Send an Idempotency-Key: a retry
    issues it once.

    Args:
        id (str):
        idempotency_key (None | str | Unset):
        body (IssueCreditNote): What the invoice no longer asks for (an `amount`, or the units of
            its `lines`), and why.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreditNoteView | ErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: IssueCreditNote,
    idempotency_key: None | str | Unset = UNSET,
) -> CreditNoteView | ErrorBody | None:
    """Reduces what a sent invoice asks for (a waiver, a rescheduling, a duplicate): before payment it
    lowers amountRemaining; what the invoice had received beyond its new total is held on the client's
    credit balance; a credit note that leaves nothing owed pays the invoice (invoice.paid). Numbered
    CN-000001 per organization, gapless. Records credit_note.created. Send an Idempotency-Key: a retry
    issues it once.

    Args:
        id (str):
        idempotency_key (None | str | Unset):
        body (IssueCreditNote): What the invoice no longer asks for (an `amount`, or the units of
            its `lines`), and why.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreditNoteView | ErrorBody
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: IssueCreditNote,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[CreditNoteView | ErrorBody]:
    """Reduces what a sent invoice asks for (a waiver, a rescheduling, a duplicate): before payment it
    lowers amountRemaining; what the invoice had received beyond its new total is held on the client's
    credit balance; a credit note that leaves nothing owed pays the invoice (invoice.paid). Numbered
    CN-000001 per organization, gapless. Records credit_note.created. Send an Idempotency-Key: a retry
    issues it once.

    Args:
        id (str):
        idempotency_key (None | str | Unset):
        body (IssueCreditNote): What the invoice no longer asks for (an `amount`, or the units of
            its `lines`), and why.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreditNoteView | ErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: IssueCreditNote,
    idempotency_key: None | str | Unset = UNSET,
) -> CreditNoteView | ErrorBody | None:
    """Reduces what a sent invoice asks for (a waiver, a rescheduling, a duplicate): before payment it
    lowers amountRemaining; what the invoice had received beyond its new total is held on the client's
    credit balance; a credit note that leaves nothing owed pays the invoice (invoice.paid). Numbered
    CN-000001 per organization, gapless. Records credit_note.created. Send an Idempotency-Key: a retry
    issues it once.

    Args:
        id (str):
        idempotency_key (None | str | Unset):
        body (IssueCreditNote): What the invoice no longer asks for (an `amount`, or the units of
            its `lines`), and why.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreditNoteView | ErrorBody
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
