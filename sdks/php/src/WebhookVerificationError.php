<?php

declare(strict_types=1);

namespace Lajan;

/** A webhook delivery whose signature or timestamp does not verify: do not act on it. */
final class WebhookVerificationError extends LajanError
{
}
