<?php

declare(strict_types=1);

namespace Lajan;

/** The API could not be reached, or did not answer in time, on every try. */
class ApiConnectionError extends LajanError
{
}
