<?php

declare(strict_types=1);

namespace Lajan;

use Lajan\Models\FieldDetail;
use Lajan\Models\PaginationView;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Client\NetworkExceptionInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamFactoryInterface;

/**
 * The transport under the client: one call's request, its retries and what its answer becomes.
 *
 * A call is built once (its Idempotency-Key included) and sent up to `maxRetries + 1` times: again
 * after a network error, a timeout, a 429, a 5xx or a 409 `idempotency_in_progress`, waiting as
 * `Retry-After` says or else 0.5 s, 1 s, 2 s... (at most 8 s) less up to a quarter at random, so
 * many clients refused at once do not come back at once. The key is what makes the retry safe: the
 * server runs a POST once per key and replays its first answer.
 */
abstract class Core
{
    public const VERSION = '2.0.0';
    public const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
    public const DEFAULT_TIMEOUT = 30.0;
    public const DEFAULT_MAX_RETRIES = 2;
    private const FIRST_DELAY = 0.5;
    private const LONGEST_DELAY = 8.0;
    /** A Retry-After beyond this is not waited for: the error is thrown for the caller to decide. */
    private const LONGEST_RETRY_AFTER = 60.0;

    public readonly string $baseUrl;
    private readonly string $apiKey;
    private readonly ClientInterface $http;
    private readonly RequestFactoryInterface $requests;
    private readonly StreamFactoryInterface $streams;

    public function __construct(
        ?string $apiKey,
        ?string $baseUrl,
        public readonly float $timeout,
        public readonly int $maxRetries,
        ?ClientInterface $httpClient,
        ?RequestFactoryInterface $requestFactory,
        ?StreamFactoryInterface $streamFactory,
    ) {
        $apiKey ??= self::env('LAJAN_API_KEY');
        if ($apiKey === null || $apiKey === '') {
            throw new LajanError('no API key: pass apiKey or set LAJAN_API_KEY');
        }
        $this->apiKey = $apiKey;
        $this->baseUrl = rtrim($baseUrl ?? self::env('LAJAN_BASE_URL') ?? self::DEFAULT_BASE_URL, '/');
        $this->http = $httpClient ?? Discovery::httpClient();
        $this->requests = $requestFactory ?? Discovery::requestFactory();
        $this->streams = $streamFactory ?? Discovery::streamFactory();
    }

    /**
     * One call: its answer's JSON, or the error of its kind.
     *
     * @param array<string, mixed>|null $body
     * @param array<string, mixed> $query
     * @return array<string, mixed>
     */
    public function request(string $method, string $path, ?array $body = null, array $query = [], ?string $csv = null, ?RequestOptions $options = null): array
    {
        $query = array_filter($query, fn ($value) => $value !== null);
        $url = $this->baseUrl . $path . ($query === [] ? '' : '?' . http_build_query(array_map(self::queryText(...), $query)));
        $request = $this->requests->createRequest($method, $url)
            ->withHeader('Authorization', 'Bearer ' . $this->apiKey)
            ->withHeader('Accept', 'application/json')
            ->withHeader('User-Agent', sprintf('lajan-php/%s (php %s)', self::VERSION, PHP_VERSION));
        if ($csv !== null) {
            $request = $request->withHeader('Content-Type', 'text/csv')->withBody($this->streams->createStream($csv));
        } elseif ($body !== null) {
            $json = ExactJson::encode($body === [] ? new \stdClass() : $body);
            $request = $request->withHeader('Content-Type', 'application/json')->withBody($this->streams->createStream($json));
        }
        if ($method === 'POST') {
            $request = $request->withHeader('Idempotency-Key', $options?->idempotencyKey ?? self::uuid());
        }
        $maxRetries = $options?->maxRetries ?? $this->maxRetries;
        $timeout = $options?->timeout ?? $this->timeout;
        for ($tries = 1; ; $tries++) {
            try {
                $response = $this->send($request, $timeout);
            } catch (ClientExceptionInterface $error) {
                $delay = $this->delay($tries, $maxRetries, null, null);
                if ($delay === null) {
                    throw self::timedOut($error)
                        ? new ApiTimeoutError("no answer within $timeout s", 0, $error)
                        : new ApiConnectionError('could not reach the API: ' . $error->getMessage(), 0, $error);
                }
                usleep((int) ($delay * 1_000_000));
                continue;
            }
            $text = (string) $response->getBody();
            $answer = self::parsed($text);
            $delay = $this->delay($tries, $maxRetries, $response, $answer);
            if ($delay === null) {
                if ($response->getStatusCode() >= 300) {
                    throw self::error($response, $answer);
                }
                if (!is_array($answer) && $text !== '') {
                    throw ApiError::of($response->getStatusCode(), 'unexpected_response', 'the answer is not JSON: ' . substr($text, 0, 200), [], null, $text);
                }
                return is_array($answer) ? $answer : [];
            }
            usleep((int) ($delay * 1_000_000));
        }
    }

    /**
     * A list at `$path`: its first page, which fetches those after it.
     *
     * @template T
     * @param array<string, mixed> $query
     * @param callable(array<string, mixed>): T $read
     * @return Page<T>
     */
    public function page(string $path, array $query, callable $read, ?RequestOptions $options): Page
    {
        $fetch = function (array $query) use (&$fetch, $path, $read, $options): Page {
            $answer = $this->request('GET', $path, query: $query, options: $options);
            $data = array_values(array_map($read, is_array($answer['data'] ?? null) ? $answer['data'] : []));
            $pagination = PaginationView::fromArray(is_array($answer['pagination'] ?? null) ? $answer['pagination'] : []);
            return new Page(\Closure::fromCallable($fetch), $query, $data, $pagination);
        };
        return $fetch($query);
    }

    /** One try, within `$timeout` seconds where the client lets a call set it (Guzzle; Symfony from 6.3). */
    private function send(RequestInterface $request, float $timeout): ResponseInterface
    {
        // Every try sends the whole body: the last one may have read it to its end.
        if ($request->getBody()->isSeekable()) {
            $request->getBody()->rewind();
        }
        if ($this->http instanceof \GuzzleHttp\ClientInterface) {
            return $this->http->send($request, ['timeout' => $timeout, 'http_errors' => false, 'allow_redirects' => false]);
        }
        if ($this->http instanceof \Symfony\Component\HttpClient\Psr18Client && method_exists($this->http, 'withOptions')) {
            return $this->http->withOptions(['timeout' => $timeout, 'max_duration' => $timeout])->sendRequest($request);
        }
        return $this->http->sendRequest($request);
    }

    /** Seconds to wait before trying again after the `$tries`-th try answered `$response` (null: no answer at all), or null when it is not tried again. */
    private function delay(int $tries, int $maxRetries, ?ResponseInterface $response, mixed $answer): ?float
    {
        if ($tries > $maxRetries) {
            return null;
        }
        if ($response !== null) {
            $status = $response->getStatusCode();
            $busy = $status === 409 && is_array($answer) && ($answer['code'] ?? null) === 'idempotency_in_progress';
            if ($status !== 429 && $status < 500 && !$busy) {
                return null;
            }
            $after = self::retryAfter($response);
            if ($after !== null) {
                return $after <= self::LONGEST_RETRY_AFTER ? $after : null;
            }
        }
        return min(self::FIRST_DELAY * 2 ** ($tries - 1), self::LONGEST_DELAY) * (1 - mt_rand() / mt_getrandmax() / 4);
    }

    /** `Retry-After` in seconds, from its number of seconds or its date. */
    public static function retryAfter(ResponseInterface $response): ?float
    {
        $value = trim($response->getHeaderLine('Retry-After'));
        if ($value === '') {
            return null;
        }
        if (is_numeric($value)) {
            return max(0.0, (float) $value);
        }
        $when = strtotime($value);
        return $when === false ? null : max(0.0, (float) ($when - time()));
    }

    private static function error(ResponseInterface $response, mixed $answer): ApiError
    {
        $fields = is_array($answer) ? $answer : [];
        $details = [];
        foreach (is_array($fields['details'] ?? null) ? $fields['details'] : [] as $detail) {
            if (is_array($detail)) {
                $details[] = FieldDetail::fromArray($detail);
            }
        }
        $requestId = $response->getHeaderLine('X-Request-Id');
        $error = ApiError::of(
            $response->getStatusCode(),
            is_string($fields['code'] ?? null) ? $fields['code'] : 'unexpected_response',
            is_string($fields['message'] ?? null) ? $fields['message'] : $response->getReasonPhrase(),
            $details,
            $requestId !== '' ? $requestId : (is_string($fields['requestId'] ?? null) ? $fields['requestId'] : null),
            $answer,
        );
        if ($error instanceof RateLimitError) {
            $error->retryAfter = self::retryAfter($response);
        }
        return $error;
    }

    private static function parsed(string $text): mixed
    {
        try {
            return ExactJson::decode($text);
        } catch (\JsonException) {
            return null;
        }
    }

    private static function timedOut(ClientExceptionInterface $error): bool
    {
        $context = $error instanceof \GuzzleHttp\Exception\ConnectException ? $error->getHandlerContext() : [];
        return ($context['errno'] ?? null) === 28 || stripos($error->getMessage(), 'timed out') !== false
            || stripos($error->getMessage(), 'timeout') !== false;
    }

    private static function queryText(mixed $value): string
    {
        return is_bool($value) ? ($value ? 'true' : 'false') : (is_scalar($value) ? (string) $value : '');
    }

    private static function env(string $name): ?string
    {
        $value = getenv($name);
        return is_string($value) && $value !== '' ? $value : null;
    }

    private static function uuid(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
