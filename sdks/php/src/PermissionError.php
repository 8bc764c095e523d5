<?php

declare(strict_types=1);

namespace Lajan;

/** 403: the key lacks the scope, or the environment, this operation needs. */
final class PermissionError extends ApiError
{
}
