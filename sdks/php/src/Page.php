<?php

declare(strict_types=1);

namespace Lajan;

use Lajan\Models\PaginationView;

/**
 * One page of a list (`data`, `pagination`); `foreach` over it yields every item from here on,
 * page after page. Each next page is asked after the last item of the one before
 * (`startingAfter`), or before the first when the walk began with `endingBefore`, so a walk costs
 * the same per page however long the list is.
 *
 * @template T
 * @implements \IteratorAggregate<int, T>
 */
final class Page implements \IteratorAggregate
{
    /**
     * @param \Closure(array<string, mixed>): Page<T> $fetch
     * @param array<string, mixed> $query
     * @param list<T> $data
     */
    public function __construct(
        private readonly \Closure $fetch,
        private readonly array $query,
        public readonly array $data,
        public readonly PaginationView $pagination,
    ) {
    }

    public function hasMore(): bool
    {
        return $this->pagination->hasMore && $this->data !== [];
    }

    /** @return Page<T>|null */
    public function nextPage(): ?self
    {
        if (!$this->hasMore()) {
            return null;
        }
        $query = $this->query;
        unset($query['startingAfter'], $query['endingBefore']);
        if (($this->query['endingBefore'] ?? null) !== null) {
            $query['endingBefore'] = self::idOf($this->data[0]);
        } else {
            $query['startingAfter'] = self::idOf($this->data[count($this->data) - 1]);
        }
        return ($this->fetch)($query);
    }

    /** @return \Generator<int, Page<T>> */
    public function pages(): \Generator
    {
        for ($page = $this; $page !== null; $page = $page->nextPage()) {
            yield $page;
        }
    }

    /** @return \Generator<int, T> */
    public function getIterator(): \Generator
    {
        foreach ($this->pages() as $page) {
            yield from $page->data;
        }
    }

    private static function idOf(mixed $item): string
    {
        return is_object($item) && property_exists($item, 'id') && is_string($item->id) ? $item->id : '';
    }
}
