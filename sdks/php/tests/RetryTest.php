<?php

declare(strict_types=1);

namespace Lajan\Tests;

use Lajan\ApiError;
use Lajan\ApiConnectionError;
use Lajan\ApiTimeoutError;
use Lajan\Core;
use Lajan\Lajan;
use Lajan\RateLimitError;
use Lajan\RequestOptions;
use PHPUnit\Framework\TestCase;

/**
 * Retries are safe: through a proxy (`php -S` with tests/proxy.php) in front of a real server that
 * loses answers, refuses with 503 or 429, or stalls, the library tries again with the same
 * Idempotency-Key, and the server makes one object; with Guzzle found by itself, and with the
 * Symfony HttpClient and Nyholm factories given to it.
 */
final class RetryTest extends TestCase
{
    private static ?Server $server = null;
    /** @var resource|null */
    private static $proxy = null;
    private static string $proxyUrl = '';
    private static string $state = '';

    public static function setUpBeforeClass(): void
    {
        self::$server = Server::start();
        self::$state = sys_get_temp_dir() . '/lajan-proxy-' . bin2hex(random_bytes(6));
        mkdir(self::$state);
        $port = Server::freePort();
        $env = getenv() + ['LAJAN_PROXY_STATE' => self::$state, 'LAJAN_PROXY_UPSTREAM' => self::$server->baseUrl];
        self::$proxy = proc_open([PHP_BINARY, '-S', "127.0.0.1:$port", __DIR__ . '/proxy.php'], [0 => ['file', '/dev/null', 'r'], 1 => ['file', self::$state . '/proxy.log', 'w'], 2 => ['file', self::$state . '/proxy.log', 'a']], $pipes, null, $env) ?: null;
        self::$proxyUrl = "http://127.0.0.1:$port";
        Server::waitFor(self::$proxyUrl . '/readyz', fn () => (string) file_get_contents(self::$state . '/proxy.log'));
    }

    public static function tearDownAfterClass(): void
    {
        if (is_resource(self::$proxy)) {
            proc_terminate(self::$proxy);
            proc_close(self::$proxy);
        }
        self::$server?->stop();
    }

    /** @param list<string> $steps */
    private function expect(array $steps): void
    {
        file_put_contents(self::$state . '/steps.json', json_encode($steps));
        file_put_contents(self::$state . '/seen.jsonl', '');
    }

    /** @return list<array{headers: array<string, string>, at: float}> */
    private function seen(): array
    {
        $lines = array_filter(explode("\n", (string) file_get_contents(self::$state . '/seen.jsonl')));
        return array_values(array_map(fn ($line) => json_decode($line, true), $lines));
    }

    private function lajan(mixed ...$options): Lajan
    {
        $server = self::$server ?? throw new \LogicException('no server');
        return new Lajan(...['apiKey' => $server->apiKey, 'baseUrl' => self::$proxyUrl] + $options);
    }

    public function testALostAnswerIsRetriedWithTheSameKeyAndMakesOneObject(): void
    {
        $clients = [
            'found by itself (Guzzle)' => $this->lajan(),
            'given (Symfony HttpClient, Nyholm)' => $this->lajan(
                httpClient: new \Symfony\Component\HttpClient\Psr18Client(),
                requestFactory: new \Nyholm\Psr7\Factory\Psr17Factory(),
                streamFactory: new \Nyholm\Psr7\Factory\Psr17Factory(),
            ),
        ];
        foreach ($clients as $which => $lajan) {
            $family = bin2hex(random_bytes(5));
            $this->expect(['lose']);
            $client = $lajan->clients->create(['firstName' => 'Rose', 'lastName' => $family]);
            $keys = array_map(fn ($s) => $s['headers']['idempotency-key'] ?? null, $this->seen());
            $this->assertCount(2, $keys, $which);
            $this->assertNotNull($keys[0], $which);
            $this->assertSame($keys[0], $keys[1], $which);
            $this->assertStringStartsWith('lajan-php/' . Core::VERSION . ' ', $this->seen()[0]['headers']['user-agent'], $which);
            $listed = array_map(fn ($c) => $c->id, iterator_to_array($lajan->clients->list(['search' => $family]), false));
            $this->assertSame([$client->id], $listed, "$which: one client, not two");
        }
    }

    public function test503Then200WaitsAndTriesAgain(): void
    {
        $this->expect(['503', '503']);
        $this->assertNotEmpty($this->lajan()->settings->retrieve()->defaultCurrency);
        $at = array_map(fn ($s) => $s['at'], $this->seen());
        $this->assertCount(3, $at);
        $first = $at[1] - $at[0];
        $second = $at[2] - $at[1];
        $this->assertTrue($first > 0.3 && $first < 1.0 && $second > 0.7 && $second < 2.0, "backoff with jitter: $first, $second");
    }

    public function testRetryAfterIsHonouredAndTheLastRefusalThrown(): void
    {
        $this->expect(['429', '429']);
        try {
            $this->lajan(maxRetries: 1)->settings->retrieve();
            $this->fail('answered');
        } catch (RateLimitError $e) {
            $this->assertSame([429, 1.0], [$e->status, $e->retryAfter]);
        }
        $at = array_map(fn ($s) => $s['at'], $this->seen());
        $this->assertCount(2, $at);
        $this->assertGreaterThanOrEqual(0.95, $at[1] - $at[0]);
    }

    public function testNoRetryWhenAskedForNone(): void
    {
        $this->expect(['503']);
        try {
            $this->lajan()->settings->retrieve(new RequestOptions(maxRetries: 0));
            $this->fail('answered');
        } catch (ApiError $e) {
            $this->assertSame(503, $e->status);
        }
        $this->assertCount(1, $this->seen());
    }

    public function testAStallIsRetriedAndATimeoutOnEveryTryThrown(): void
    {
        $this->expect(['stall']);
        $this->assertNotEmpty($this->lajan()->settings->retrieve(new RequestOptions(timeout: 1.0))->defaultCurrency);
        $this->assertCount(2, $this->seen());
        $this->expect(['stall', 'stall', 'stall']);
        try {
            $this->lajan(maxRetries: 1)->settings->retrieve(new RequestOptions(timeout: 0.5));
            $this->fail('answered');
        } catch (ApiTimeoutError) {
            $this->addToAssertionCount(1);
        }
        // php -S answers one request at a time: let the stalled ones drain before the next test.
        sleep(4);
        $server = self::$server ?? throw new \LogicException('no server');
        $this->expectException(ApiConnectionError::class);
        (new Lajan(apiKey: $server->apiKey, baseUrl: 'http://127.0.0.1:9', maxRetries: 1))->settings->retrieve();
    }
}
