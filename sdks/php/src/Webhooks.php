<?php

declare(strict_types=1);

namespace Lajan;

use Lajan\Models\Event;

/**
 * `$lajan->webhooks`: what a webhook receiver needs, no request to the API.
 *
 * The official Standard Webhooks PHP library is on Packagist, which this project's build cannot
 * reach, so this follows the specification (HMAC-SHA256 of "id.timestamp.body" keyed with the
 * secret's base64 after `whsec_`, any of the `v1,` signatures, five minutes of tolerance); the
 * story checks it on real deliveries and a tampered one.
 */
final class Webhooks
{
    /**
     * The event a delivery carries, once its signature verifies with the endpoint's `$secret`
     * (`whsec_...`); throws WebhookVerificationError for a bad signature or a timestamp more than
     * five minutes off. Pass the body exactly as received and the request's headers (any case; a
     * header's values as a list, as PSR-7 gives them, or a string).
     *
     * @param array<string, string|list<string>> $headers
     */
    public function verify(string $payload, array $headers, string $secret, ?int $now = null): Event
    {
        $headers = array_change_key_case(array_map(fn ($v) => is_array($v) ? (string) ($v[0] ?? '') : $v, $headers), CASE_LOWER);
        $id = $headers['webhook-id'] ?? '';
        $timestamp = $headers['webhook-timestamp'] ?? '';
        if ($id === '' || !ctype_digit($timestamp)) {
            throw new WebhookVerificationError('missing webhook-id or webhook-timestamp');
        }
        if (abs(($now ?? time()) - (int) $timestamp) > 300) {
            throw new WebhookVerificationError('the webhook-timestamp is over five minutes off');
        }
        $key = base64_decode(str_starts_with($secret, 'whsec_') ? substr($secret, 6) : $secret, true);
        if ($key === false) {
            throw new WebhookVerificationError('the secret is not whsec_ and base64');
        }
        $expected = base64_encode(hash_hmac('sha256', "$id.$timestamp.$payload", $key, true));
        foreach (explode(' ', $headers['webhook-signature'] ?? '') as $signature) {
            [$version, $value] = array_pad(explode(',', $signature, 2), 2, '');
            if ($version === 'v1' && hash_equals($expected, $value)) {
                return Event::fromArray(ExactJson::decode($payload));
            }
        }
        throw new WebhookVerificationError('no matching signature');
    }
}
