"""Lists, page after page: iterating a page goes on through the pages after it.

Each next page is asked after the last item of the one before (`startingAfter`), or before the
first when the walk began with `endingBefore`, so a walk costs the same per page however long the
list is, and an item added meanwhile is neither skipped nor seen twice.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterator
from typing import Any, Generic, TypeVar

from .models import PaginationView

T = TypeVar("T")


def _next_query(query: dict[str, Any], data: list[Any]) -> dict[str, Any]:
    rest = {k: v for k, v in query.items() if k not in ("startingAfter", "endingBefore")}
    if query.get("endingBefore") is not None:
        return {**rest, "endingBefore": data[0].id}
    return {**rest, "startingAfter": data[-1].id}


class SyncPage(Generic[T]):
    """One page of a list (`data`, `pagination`); iterating it yields every item from here on."""

    def __init__(
        self,
        fetch: Callable[[dict[str, Any]], SyncPage[T]],
        query: dict[str, Any],
        data: list[T],
        pagination: PaginationView,
    ):
        self._fetch = fetch
        self._query = query
        self.data = data
        self.pagination = pagination

    @property
    def has_more(self) -> bool:
        return self.pagination.has_more and bool(self.data)

    def next_page(self) -> SyncPage[T] | None:
        return self._fetch(_next_query(self._query, self.data)) if self.has_more else None

    def iter_pages(self) -> Iterator[SyncPage[T]]:
        page: SyncPage[T] | None = self
        while page is not None:
            yield page
            page = page.next_page()

    def __iter__(self) -> Iterator[T]:
        for page in self.iter_pages():
            yield from page.data


class AsyncPage(Generic[T]):
    """One page of a list (`data`, `pagination`); `async for` over it yields every item from here on."""

    def __init__(
        self,
        fetch: Callable[[dict[str, Any]], Awaitable[AsyncPage[T]]],
        query: dict[str, Any],
        data: list[T],
        pagination: PaginationView,
    ):
        self._fetch = fetch
        self._query = query
        self.data = data
        self.pagination = pagination

    @property
    def has_more(self) -> bool:
        return self.pagination.has_more and bool(self.data)

    async def next_page(self) -> AsyncPage[T] | None:
        return await self._fetch(_next_query(self._query, self.data)) if self.has_more else None

    async def iter_pages(self) -> AsyncIterator[AsyncPage[T]]:
        page: AsyncPage[T] | None = self
        while page is not None:
            yield page
            page = await page.next_page()

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.iter_pages():
            for item in page.data:
                yield item


class AsyncPaginator(Generic[T]):
    """What an async `list()` returns: `await` it for the first page, or `async for` over it for
    every item of every page."""

    def __init__(self, fetch: Callable[[dict[str, Any]], Awaitable[AsyncPage[T]]], query: dict[str, Any]):
        self._fetch = fetch
        self._query = query

    def __await__(self) -> Generator[Any, None, AsyncPage[T]]:
        return self._fetch(self._query).__await__()

    async def __aiter__(self) -> AsyncIterator[T]:
        page = await self
        async for item in page:
            yield item
