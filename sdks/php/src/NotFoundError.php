<?php

declare(strict_types=1);

namespace Lajan;

/** 404: no such object in this key's organization and environment. */
final class NotFoundError extends ApiError
{
}
