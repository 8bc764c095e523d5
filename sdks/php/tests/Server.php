<?php

declare(strict_types=1);

namespace Lajan\Tests;

/**
 * A fresh `lajan serve` (SQLite in a temporary directory) for one test class: the binary is
 * LAJAN_BINARY, else the workspace's target/debug/lajan.
 */
final class Server
{
    /** @var resource|null */
    private $process = null;
    public string $baseUrl = '';
    public string $apiKey = '';

    public static function start(): self
    {
        $binary = getenv('LAJAN_BINARY') ?: __DIR__ . '/../../../target/debug/lajan';
        if (!is_file($binary)) {
            if (getenv('CI')) {
                throw new \RuntimeException("no lajan binary at $binary, and CI needs this story to run");
            }
            \PHPUnit\Framework\TestCase::markTestSkipped("no lajan binary at $binary: run cargo build -p lajan first or set LAJAN_BINARY");
        }
        $server = new self();
        $work = sys_get_temp_dir() . '/lajan-php-' . bin2hex(random_bytes(6));
        mkdir($work);
        $port = self::freePort();
        $env = getenv() + [];
        $env['LAJAN_DATABASE_URL'] = "sqlite://$work/lajan.db";
        $env['LAJAN_LISTEN'] = "127.0.0.1:$port";
        $env['LAJAN_LOG'] = 'warn';
        $env['LAJAN_METRICS_LISTEN'] = 'off';
        // The story's webhook receiver listens on loopback.
        $env['LAJAN_SANDBOX_WEBHOOKS_PRIVATE'] = 'allow';
        $env['LAJAN_RATE_LIMIT_STANDARD'] = '100000';
        $log = "$work/serve.log";
        $server->process = proc_open([$binary, 'serve'], [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'w'], 2 => ['file', $log, 'a']], $pipes, null, $env) ?: null;
        $server->baseUrl = "http://127.0.0.1:$port";
        self::waitFor($server->baseUrl . '/readyz', fn () => (string) file_get_contents($log));
        preg_match('/sk_test_[A-Za-z0-9]+/', (string) file_get_contents($log), $key);
        if (!isset($key[0])) {
            throw new \RuntimeException("no sandbox key in the server's first output");
        }
        $server->apiKey = $key[0];
        return $server;
    }

    public static function freePort(): int
    {
        $probe = stream_socket_server('tcp://127.0.0.1:0');
        if ($probe === false) {
            throw new \RuntimeException('no free port');
        }
        $name = (string) stream_socket_get_name($probe, false);
        fclose($probe);
        return (int) substr($name, (int) strrpos($name, ':') + 1);
    }

    /** @param callable(): string $log */
    public static function waitFor(string $url, callable $log): void
    {
        for ($i = 0; @file_get_contents($url) === false; $i++) {
            if ($i > 200) {
                throw new \RuntimeException("$url did not answer: " . $log());
            }
            usleep(50_000);
        }
    }

    public function stop(): void
    {
        if (is_resource($this->process)) {
            proc_terminate($this->process);
            proc_close($this->process);
        }
    }
}
