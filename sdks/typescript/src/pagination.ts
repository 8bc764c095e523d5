// Lists, page after page: iterating a page goes on through the pages after it.
//
// Each next page is asked after the last item of the one before (`startingAfter`), or before the
// first when the walk began with `endingBefore`, so a walk costs the same per page however long the
// list is, and an item added meanwhile is neither skipped nor seen twice.
import type { PaginationView } from "./types.js";

export type Query = Record<string, unknown>;
export type FetchPage<T> = (query: Query) => Promise<Page<T>>;

function nextQuery(query: Query, data: unknown[]): Query {
  const { startingAfter: _after, endingBefore: _before, ...rest } = query;
  const idOf = (item: unknown) => (item as { id: string }).id;
  if (query.endingBefore != null) return { ...rest, endingBefore: idOf(data[0]) };
  return { ...rest, startingAfter: idOf(data[data.length - 1]) };
}

/** One page of a list (`data`, `pagination`); `for await` over it yields every item from here on. */
export class Page<T> implements AsyncIterable<T> {
  readonly data: T[];
  readonly pagination: PaginationView;
  readonly #fetch: FetchPage<T>;
  readonly #query: Query;

  constructor(fetch: FetchPage<T>, query: Query, data: T[], pagination: PaginationView) {
    this.#fetch = fetch;
    this.#query = query;
    this.data = data;
    this.pagination = pagination;
  }

  get hasMore(): boolean {
    return this.pagination.hasMore && this.data.length > 0;
  }

  async nextPage(): Promise<Page<T> | null> {
    return this.hasMore ? this.#fetch(nextQuery(this.#query, this.data)) : null;
  }

  async *iterPages(): AsyncGenerator<Page<T>> {
    let page: Page<T> | null = this;
    while (page !== null) {
      yield page;
      page = await page.nextPage();
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/**
 * What `list()` returns: `await` it for the first page, or `for await` over it for every item of
 * every page. Nothing is asked before either.
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #load: () => Promise<Page<T>>;
  #first: Promise<Page<T>> | undefined;

  constructor(load: () => Promise<Page<T>>) {
    this.#load = load;
  }

  #page(): Promise<Page<T>> {
    this.#first ??= this.#load();
    return this.#first;
  }

  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#page().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    yield* await this.#page();
  }
}
