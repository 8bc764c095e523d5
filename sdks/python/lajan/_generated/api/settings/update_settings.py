from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.settings_view import SettingsView
from ...models.update_settings import UpdateSettings
from ...types import Response


def _get_kwargs(
    *,
    body: UpdateSettings,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/settings",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | SettingsView | None:
    if response.status_code == 200:
        response_200 = SettingsView.from_dict(response.json())

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
) -> Response[ErrorBody | SettingsView]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: UpdateSettings,
) -> Response[ErrorBody | SettingsView]:
    """Changes the fields given; every change writes a settings.updated event naming the key and the
    previous values. Changing payoutApprovalRequired or requireDistinctApprover (the approval policy)
    also needs payouts:approve. A change that lets payouts go with fewer people (either turned off) does
    not apply yet: the answer's pendingChange waits for another key or console user with approval rights
    to confirm it within 72 hours (settings.change_requested); the other fields of the request apply at
    once. Where no one else has approval rights it applies at once, and settings.updated says
    secondPerson none_available.

    Args:
        body (UpdateSettings): Fields to change; those left out keep their value. `null` is a
            `validation_error`; the
            organization's Stellar profile (`homeDomain` to `orgSupportEmail`) is cleared field by
            field
            with an empty string.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SettingsView]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: UpdateSettings,
) -> ErrorBody | SettingsView | None:
    """Changes the fields given; every change writes a settings.updated event naming the key and the
    previous values. Changing payoutApprovalRequired or requireDistinctApprover (the approval policy)
    also needs payouts:approve. A change that lets payouts go with fewer people (either turned off) does
    not apply yet: the answer's pendingChange waits for another key or console user with approval rights
    to confirm it within 72 hours (settings.change_requested); the other fields of the request apply at
    once. Where no one else has approval rights it applies at once, and settings.updated says
    secondPerson none_available.

    Args:
        body (UpdateSettings): Fields to change; those left out keep their value. `null` is a
            `validation_error`; the
            organization's Stellar profile (`homeDomain` to `orgSupportEmail`) is cleared field by
            field
            with an empty string.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SettingsView
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: UpdateSettings,
) -> Response[ErrorBody | SettingsView]:
    """Changes the fields given; every change writes a settings.updated event naming the key and the
    previous values. Changing payoutApprovalRequired or requireDistinctApprover (the approval policy)
    also needs payouts:approve. A change that lets payouts go with fewer people (either turned off) does
    not apply yet: the answer's pendingChange waits for another key or console user with approval rights
    to confirm it within 72 hours (settings.change_requested); the other fields of the request apply at
    once. Where no one else has approval rights it applies at once, and settings.updated says
    secondPerson none_available.

    Args:
        body (UpdateSettings): Fields to change; those left out keep their value. `null` is a
            `validation_error`; the
            organization's Stellar profile (`homeDomain` to `orgSupportEmail`) is cleared field by
            field
            with an empty string.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SettingsView]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: UpdateSettings,
) -> ErrorBody | SettingsView | None:
    """Changes the fields given; every change writes a settings.updated event naming the key and the
    previous values. Changing payoutApprovalRequired or requireDistinctApprover (the approval policy)
    also needs payouts:approve. A change that lets payouts go with fewer people (either turned off) does
    not apply yet: the answer's pendingChange waits for another key or console user with approval rights
    to confirm it within 72 hours (settings.change_requested); the other fields of the request apply at
    once. Where no one else has approval rights it applies at once, and settings.updated says
    secondPerson none_available.

    Args:
        body (UpdateSettings): Fields to change; those left out keep their value. `null` is a
            `validation_error`; the
            organization's Stellar profile (`homeDomain` to `orgSupportEmail`) is cleared field by
            field
            with an empty string.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SettingsView
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
