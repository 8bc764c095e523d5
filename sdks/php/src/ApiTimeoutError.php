<?php

declare(strict_types=1);

namespace Lajan;

/** The API did not answer within the timeout, on every try. */
final class ApiTimeoutError extends ApiConnectionError
{
}
