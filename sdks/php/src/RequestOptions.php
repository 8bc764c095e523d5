<?php

declare(strict_types=1);

namespace Lajan;

/** What one call may set for itself, as the last argument of any method. */
final readonly class RequestOptions
{
    public function __construct(
        /** The key that makes a POST safe to repeat; a new one per call when left out (retries reuse it). */
        public ?string $idempotencyKey = null,
        /** Seconds to wait for each try's answer, instead of the client's. */
        public ?float $timeout = null,
        /** Tries after the first, instead of the client's. */
        public ?int $maxRetries = null,
    ) {
    }
}
