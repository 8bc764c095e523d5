<?php

declare(strict_types=1);

namespace Lajan;

/** Every error this library throws. */
class LajanError extends \RuntimeException
{
}
