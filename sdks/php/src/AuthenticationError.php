<?php

declare(strict_types=1);

namespace Lajan;

/** 401: the key is missing, unknown or revoked. */
final class AuthenticationError extends ApiError
{
}
