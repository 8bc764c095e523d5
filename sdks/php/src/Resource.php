<?php

declare(strict_types=1);

namespace Lajan;

/** What a resource's methods call. */
abstract class Resource
{
    public function __construct(protected readonly Core $core)
    {
    }
}
