<?php

declare(strict_types=1);

namespace Lajan;

/** 400 or 422: the request was refused as written; nothing changed. `details` names each field. */
final class ValidationError extends ApiError
{
}
