from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.client_view import ClientView
from ...models.error_body import ErrorBody
from ...models.update_client import UpdateClient
from ...types import Response


def _get_kwargs(
    id: str,
    *,
    body: UpdateClient,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/clients/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ClientView | ErrorBody | None:
    if response.status_code == 200:
        response_200 = ClientView.from_dict(response.json())

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
) -> Response[ClientView | ErrorBody]:
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
    body: UpdateClient,
) -> Response[ClientView | ErrorBody]:
    """Changes the fields given. A walletAccountId given to a client that had none sends the client's
    payouts waiting in awaiting_registration on their way (approved ones to ready_to_send, the others
    back to pending approval); when one of them is approved already, the key also needs payouts:approve,
    since it decides where approved money goes.

    Args:
        id (str):
        body (UpdateClient): A change to a client: fields left out are kept; `null` clears
            `email`, `phoneNumber`,
            `walletAccountId` or `verification` (a client always has a `language`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClientView | ErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: UpdateClient,
) -> ClientView | ErrorBody | None:
    """Changes the fields given. A walletAccountId given to a client that had none sends the client's
    payouts waiting in awaiting_registration on their way (approved ones to ready_to_send, the others
    back to pending approval); when one of them is approved already, the key also needs payouts:approve,
    since it decides where approved money goes.

    Args:
        id (str):
        body (UpdateClient): A change to a client: fields left out are kept; `null` clears
            `email`, `phoneNumber`,
            `walletAccountId` or `verification` (a client always has a `language`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClientView | ErrorBody
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: UpdateClient,
) -> Response[ClientView | ErrorBody]:
    """Changes the fields given. A walletAccountId given to a client that had none sends the client's
    payouts waiting in awaiting_registration on their way (approved ones to ready_to_send, the others
    back to pending approval); when one of them is approved already, the key also needs payouts:approve,
    since it decides where approved money goes.

    Args:
        id (str):
        body (UpdateClient): A change to a client: fields left out are kept; `null` clears
            `email`, `phoneNumber`,
            `walletAccountId` or `verification` (a client always has a `language`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClientView | ErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: UpdateClient,
) -> ClientView | ErrorBody | None:
    """Changes the fields given. A walletAccountId given to a client that had none sends the client's
    payouts waiting in awaiting_registration on their way (approved ones to ready_to_send, the others
    back to pending approval); when one of them is approved already, the key also needs payouts:approve,
    since it decides where approved money goes.

    Args:
        id (str):
        body (UpdateClient): A change to a client: fields left out are kept; `null` clears
            `email`, `phoneNumber`,
            `walletAccountId` or `verification` (a client always has a `language`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClientView | ErrorBody
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
