<?php

declare(strict_types=1);

namespace Lajan;

use Lajan\Models\FieldDetail;

/**
 * An answer other than 2xx, in the API's error shape: `status`; `errorCode`, stable and
 * machine-readable (`validation_error`; PHP's own `$code` is an int, the status); `getMessage()`,
 * for a person; `details`, the fields at fault; `requestId`, the `X-Request-Id` to quote when asking
 * for help; `body`, the answer as it came.
 */
class ApiError extends LajanError
{
    /**
     * @param list<FieldDetail> $details
     */
    public function __construct(
        public readonly int $status,
        public readonly string $errorCode,
        string $message,
        public readonly array $details,
        public readonly ?string $requestId,
        public readonly mixed $body,
    ) {
        parent::__construct($message, $status);
    }

    /**
     * The error of the kind `$status` is.
     *
     * @param list<FieldDetail> $details
     */
    public static function of(int $status, string $errorCode, string $message, array $details, ?string $requestId, mixed $body): self
    {
        $class = match ($status) {
            400, 422 => ValidationError::class,
            401 => AuthenticationError::class,
            403 => PermissionError::class,
            404 => NotFoundError::class,
            409 => ConflictError::class,
            429 => RateLimitError::class,
            default => self::class,
        };
        return new $class($status, $errorCode, $message, $details, $requestId, $body);
    }
}
