<?php

declare(strict_types=1);

namespace Lajan;

/** Every answer other than 2xx, in the API's error shape. */
final class LajanError extends \RuntimeException
{
    /**
     * @param list<array<string, mixed>> $details the fields at fault
     */
    public function __construct(
        public readonly int $statusCode,
        public readonly string $errorCode,
        string $message,
        public readonly array $details,
        public readonly ?string $requestId,
    ) {
        parent::__construct($message, $statusCode);
    }
}
