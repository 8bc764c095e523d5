from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.remind_at import RemindAt
from ...models.reminders_sent import RemindersSent
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: RemindAt,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sandbox/invoices/{id}/remind".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | RemindersSent | None:
    if response.status_code == 200:
        response_200 = RemindersSent.from_dict(response.json())

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
) -> Response[ErrorBody | RemindersSent]:
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
    body: RemindAt,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[ErrorBody | RemindersSent]:
    """Runs a sandbox invoice's reminder schedule as if it were `at` (the invoice's test clock), so a
    reminder days away can be read now: it sends what the worker would send then (none when nothing is
    due, already sent, paid, or the client opted out), with `invoice.reminder_sent` and the messages in
    `GET /v1/sandbox/messages`. The worker then looks at the invoice again after `at`. Needs a sandbox
    key with scope `invoices:write` (or `*`).

    Args:
        id (str):
        idempotency_key (None | str | Unset):
        body (RemindAt): The instant to run an invoice's reminder schedule at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RemindersSent]
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
    body: RemindAt,
    idempotency_key: None | str | Unset = UNSET,
) -> ErrorBody | RemindersSent | None:
    """Runs a sandbox invoice's reminder schedule as if it were `at` (the invoice's test clock), so a
    reminder days away can be read now: it sends what the worker would send then (none when nothing is
    due, already sent, paid, or the client opted out), with `invoice.reminder_sent` and the messages in
    `GET /v1/sandbox/messages`. The worker then looks at the invoice again after `at`. Needs a sandbox
    key with scope `invoices:write` (or `*`).

    Args:
        id (str):
        idempotency_key (None | str | Unset):
        body (RemindAt): The instant to run an invoice's reminder schedule at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RemindersSent
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
    body: RemindAt,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[ErrorBody | RemindersSent]:
    """Runs a sandbox invoice's reminder schedule as if it were `at` (the invoice's test clock), so a
    reminder days away can be read now: it sends what the worker would send then (none when nothing is
    due, already sent, paid, or the client opted out), with `invoice.reminder_sent` and the messages in
    `GET /v1/sandbox/messages`. The worker then looks at the invoice again after `at`. Needs a sandbox
    key with scope `invoices:write` (or `*`).

    Args:
        id (str):
        idempotency_key (None | str | Unset):
        body (RemindAt): The instant to run an invoice's reminder schedule at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RemindersSent]
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
    body: RemindAt,
    idempotency_key: None | str | Unset = UNSET,
) -> ErrorBody | RemindersSent | None:
    """Runs a sandbox invoice's reminder schedule as if it were `at` (the invoice's test clock), so a
    reminder days away can be read now: it sends what the worker would send then (none when nothing is
    due, already sent, paid, or the client opted out), with `invoice.reminder_sent` and the messages in
    `GET /v1/sandbox/messages`. The worker then looks at the invoice again after `at`. Needs a sandbox
    key with scope `invoices:write` (or `*`).

    Args:
        id (str):
        idempotency_key (None | str | Unset):
        body (RemindAt): The instant to run an invoice's reminder schedule at.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RemindersSent
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
