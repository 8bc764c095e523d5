<?php

declare(strict_types=1);

namespace Lajan;

/**
 * A client of the Lajan API, over curl: one method per operation (src/Operations.php, generated
 * from the OpenAPI document), an Idempotency-Key on every POST (a new UUID when none is given),
 * LajanError for every answer other than 2xx, pages, the CSV create and webhook verification.
 */
final class Lajan
{
    use Operations;

    private string $baseUrl;

    public function __construct(string $baseUrl, private string $apiKey, private int $timeoutSeconds = 30)
    {
        $this->baseUrl = rtrim($baseUrl, '/');
    }

    /**
     * Every item of a list operation, page after page (`limit` up to 100 per request).
     *
     * @param string $operation a list operation, e.g. 'listClients'
     * @param array<string, string|int> $query its filters
     * @param string ...$ids its path's ids, when it has any
     * @return \Generator<int, array<string, mixed>>
     */
    public function paginate(string $operation, array $query = [], string ...$ids): \Generator
    {
        // Each page is asked after the last item of the one before (startingAfter), so the walk
        // costs the same per page however long the list is.
        for ($after = null; ;) {
            $cursor = $after === null ? [] : ['startingAfter' => $after];
            $answer = $this->{$operation}(...[...$ids, $cursor + $query]);
            yield from $answer['data'];
            if (!$answer['pagination']['hasMore'] || $answer['data'] === []) {
                return;
            }
            $after = $answer['data'][array_key_last($answer['data'])]['id'];
        }
    }

    /**
     * A draft disbursement from a CSV file (header row naming any of clientId, walletAccountId,
     * assetAmount, memo, externalId).
     *
     * @return array<string, mixed>
     */
    public function createDisbursementFromCsv(string $csv, string $name, string $assetCode, ?string $assetIssuer = null, ?string $idempotencyKey = null): array
    {
        $query = ['name' => $name, 'assetCode' => $assetCode] + ($assetIssuer === null ? [] : ['assetIssuer' => $assetIssuer]);
        return $this->send('POST', '/v1/disbursements?' . http_build_query($query), $csv, 'text/csv', $idempotencyKey ?? self::uuid());
    }

    /**
     * The event of a delivery whose Standard Webhooks signature `$secret` (whsec_...) verifies:
     * HMAC-SHA256 of "id.timestamp.body", any of the `v1,` signatures, a timestamp within five
     * minutes. The official PHP library is on Packagist, which this project cannot reach, so
     * this follows the specification; the story checks it on a real delivery.
     *
     * @param array<string, string> $headers the request's headers (any case)
     * @return array<string, mixed>
     */
    public static function verifyWebhook(string $secret, string $payload, array $headers, ?int $now = null): array
    {
        $headers = array_change_key_case($headers, CASE_LOWER);
        $id = $headers['webhook-id'] ?? '';
        $timestamp = $headers['webhook-timestamp'] ?? '';
        if ($id === '' || !ctype_digit($timestamp)) {
            throw new \UnexpectedValueException('missing webhook-id or webhook-timestamp');
        }
        if (abs(($now ?? time()) - (int) $timestamp) > 300) {
            throw new \UnexpectedValueException('the webhook-timestamp is over five minutes off');
        }
        $key = base64_decode(preg_replace('/^whsec_/', '', $secret) ?? '', true);
        if ($key === false) {
            throw new \InvalidArgumentException('the secret is not whsec_ and base64');
        }
        $expected = base64_encode(hash_hmac('sha256', "$id.$timestamp.$payload", $key, true));
        foreach (explode(' ', $headers['webhook-signature'] ?? '') as $signature) {
            [$version, $value] = array_pad(explode(',', $signature, 2), 2, '');
            if ($version === 'v1' && hash_equals($expected, $value)) {
                return ExactJson::decode($payload);
            }
        }
        throw new \UnexpectedValueException('no matching signature');
    }

    /**
     * @param array<string, string> $ids
     * @param array<string, mixed>|null $body
     * @param array<string, string|int> $query
     * @return array<string, mixed>
     */
    private function request(string $method, string $path, array $ids, ?array $body, array $query, ?string $idempotencyKey): array
    {
        foreach ($ids as $name => $value) {
            $path = str_replace('{' . $name . '}', rawurlencode($value), $path);
        }
        if ($query !== []) {
            $path .= '?' . http_build_query($query);
        }
        $content = $body === null || ($body === [] && $method !== 'POST' && $method !== 'PUT') ? null : ExactJson::encode($body === [] ? new \stdClass() : $body);
        $key = $method === 'POST' ? ($idempotencyKey ?? self::uuid()) : null;
        return $this->send($method, $path, $content, 'application/json', $key);
    }

    /** @return array<string, mixed> */
    private function send(string $method, string $path, ?string $content, string $contentType, ?string $idempotencyKey): array
    {
        $headers = ['Authorization: Bearer ' . $this->apiKey, 'Accept: application/json'];
        if ($content !== null) {
            $headers[] = 'Content-Type: ' . $contentType;
        }
        if ($idempotencyKey !== null) {
            $headers[] = 'Idempotency-Key: ' . $idempotencyKey;
        }
        $requestId = null;
        $curl = curl_init($this->baseUrl . $path);
        curl_setopt_array($curl, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $headers,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT => $this->timeoutSeconds,
            CURLOPT_HEADERFUNCTION => function ($curl, string $line) use (&$requestId): int {
                if (stripos($line, 'x-request-id:') === 0) {
                    $requestId = trim(substr($line, strlen('x-request-id:')));
                }
                return strlen($line);
            },
        ]);
        if ($content !== null) {
            curl_setopt($curl, CURLOPT_POSTFIELDS, $content);
        }
        $text = curl_exec($curl);
        $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        $failure = curl_error($curl);
        curl_close($curl);
        if (!is_string($text)) {
            throw new \RuntimeException("$method $path: $failure");
        }
        if ($status < 200 || $status >= 300) {
            try {
                $error = ExactJson::decode($text);
            } catch (\JsonException) {
                $error = [];
            }
            throw new LajanError(
                $status,
                (string) ($error['code'] ?? 'unexpected_response'),
                (string) ($error['message'] ?? substr($text, 0, 200)),
                $error['details'] ?? [],
                $requestId,
            );
        }
        return ExactJson::decode($text);
    }

    private static function uuid(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
