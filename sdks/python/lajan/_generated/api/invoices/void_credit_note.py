from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.credit_note_view import CreditNoteView
from ...models.error_body import ErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    credit_note_id: str,
    *,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/invoices/{id}/credit-notes/{credit_note_id}/void".format(
            id=quote(str(id), safe=""),
            credit_note_id=quote(str(credit_note_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreditNoteView | ErrorBody | None:
    if response.status_code == 200:
        response_200 = CreditNoteView.from_dict(response.json())

        return response_200

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
    credit_note_id: str,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[CreditNoteView | ErrorBody]:
    """Voids a credit note (kept, with when and by whom): the invoice asks for its amount again, a paid
    invoice left short reopens, and an overpayment it had made is taken back from the client's credit
    balance. Records credit_note.voided. Send an Idempotency-Key: a retry voids it once.

    Args:
        id (str):
        credit_note_id (str):
        idempotency_key (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreditNoteView | ErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        credit_note_id=credit_note_id,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    credit_note_id: str,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: None | str | Unset = UNSET,
) -> CreditNoteView | ErrorBody | None:
    """Voids a credit note (kept, with when and by whom): the invoice asks for its amount again, a paid
    invoice left short reopens, and an overpayment it had made is taken back from the client's credit
    balance. Records credit_note.voided. Send an Idempotency-Key: a retry voids it once.

    Args:
        id (str):
        credit_note_id (str):
        idempotency_key (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreditNoteView | ErrorBody
    """

    return sync_detailed(
        id=id,
        credit_note_id=credit_note_id,
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    credit_note_id: str,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[CreditNoteView | ErrorBody]:
    """Voids a credit note (kept, with when and by whom): the invoice asks for its amount again, a paid
    invoice left short reopens, and an overpayment it had made is taken back from the client's credit
    balance. Records credit_note.voided. Send an Idempotency-Key: a retry voids it once.

    Args:
        id (str):
        credit_note_id (str):
        idempotency_key (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreditNoteView | ErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        credit_note_id=credit_note_id,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    credit_note_id: str,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: None | str | Unset = UNSET,
) -> CreditNoteView | ErrorBody | None:
    """Voids a credit note (kept, with when and by whom): the invoice asks for its amount again, a paid
    invoice left short reopens, and an overpayment it had made is taken back from the client's credit
    balance. Records credit_note.voided. Send an Idempotency-Key: a retry voids it once.

    Args:
        id (str):
        credit_note_id (str):
        idempotency_key (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreditNoteView | ErrorBody
    """

    return (
        await asyncio_detailed(
            id=id,
            credit_note_id=credit_note_id,
            client=client,
            idempotency_key=idempotency_key,
        )
    ).parsed
