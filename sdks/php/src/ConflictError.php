<?php

declare(strict_types=1);

namespace Lajan;

/** 409: the object's state does not allow this now (an invoice already paid, say). */
final class ConflictError extends ApiError
{
}
