<?php

declare(strict_types=1);

namespace Lajan;

/** 429: over the rate limit, on every try; `retryAfter` says how many seconds to wait. */
final class RateLimitError extends ApiError
{
    public ?float $retryAfter = null;
}
