<?php

declare(strict_types=1);

namespace Lajan\Tests;

use Lajan\Lajan;
use Lajan\LajanError;
use PHPUnit\Framework\TestCase;

/**
 * The story an integrator runs, through the library against a fresh `lajan serve` (SQLite in a
 * temporary directory; the binary is LAJAN_BINARY, else the workspace's target/debug/lajan).
 */
final class StoryTest extends TestCase
{
    private const WALLET = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';

    /** @var resource|null */
    private static $server = null;
    private static string $baseUrl = '';
    private static string $apiKey = '';
    private Lajan $lajan;

    public static function setUpBeforeClass(): void
    {
        $binary = getenv('LAJAN_BINARY') ?: __DIR__ . '/../../../target/debug/lajan';
        if (!is_file($binary)) {
            if (getenv('CI')) {
                self::fail("no lajan binary at $binary, and CI needs this story to run");
            }
            self::markTestSkipped("no lajan binary at $binary: run cargo build -p lajan first or set LAJAN_BINARY");
        }
        $work = sys_get_temp_dir() . '/lajan-php-' . bin2hex(random_bytes(6));
        mkdir($work);
        $probe = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) substr(strrchr((string) stream_socket_get_name($probe, false), ':'), 1);
        fclose($probe);
        $env = getenv() + [];
        $env['LAJAN_DATABASE_URL'] = "sqlite://$work/lajan.db";
        $env['LAJAN_LISTEN'] = "127.0.0.1:$port";
        $env['LAJAN_LOG'] = 'warn';
        $env['LAJAN_METRICS_LISTEN'] = 'off';
        // The story's webhook receiver listens on loopback.
        $env['LAJAN_SANDBOX_WEBHOOKS_PRIVATE'] = 'allow';
        $env['LAJAN_RATE_LIMIT_STANDARD'] = '100000';
        $log = "$work/serve.log";
        self::$server = proc_open([$binary, 'serve'], [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'w'], 2 => ['file', $log, 'a']], $pipes, null, $env);
        self::$baseUrl = "http://127.0.0.1:$port";
        for ($i = 0; @file_get_contents(self::$baseUrl . '/readyz') === false; $i++) {
            if ($i > 200) {
                self::fail('lajan serve did not become ready: ' . file_get_contents($log));
            }
            usleep(50_000);
        }
        preg_match('/sk_test_[A-Za-z0-9]+/', (string) file_get_contents($log), $key);
        self::assertNotEmpty($key, "no sandbox key in the server's first output");
        self::$apiKey = $key[0];
    }

    public static function tearDownAfterClass(): void
    {
        if (is_resource(self::$server)) {
            proc_terminate(self::$server);
            proc_close(self::$server);
        }
    }

    protected function setUp(): void
    {
        $this->lajan = new Lajan(self::$baseUrl, self::$apiKey);
    }

    private function eventually(callable $read, callable $done, string $what): array
    {
        $deadline = microtime(true) + 30;
        while (true) {
            $value = $read();
            if ($done($value)) {
                return $value;
            }
            $this->assertLessThan($deadline, microtime(true), "$what: still " . json_encode($value));
            usleep(100_000);
        }
    }

    public function testAnInvoiceIsCreatedSentAndPaidInTheSandbox(): void
    {
        $client = $this->lajan->createClient(['firstName' => 'Marie', 'lastName' => 'Jean', 'email' => 'marie@example.ht']);
        $invoice = $this->lajan->createInvoice([
            'clientId' => $client['id'],
            'dueDate' => '2030-03-31',
            'lineItems' => [['description' => 'Loan repayment', 'quantity' => '0.5', 'unitPrice' => '5000.20', 'taxRate' => '10']],
        ]);
        $this->assertSame('2750.11', $invoice['total']);
        $this->assertSame('0.5', $invoice['lineItems'][0]['quantity'], 'numbers in answers stay exact decimal strings');
        $this->assertSame('sent', $this->lajan->sendInvoice($invoice['id'])['status']);
        $intent = basename($invoice['paymentLink']['url']);
        $this->lajan->simulateSandboxPayment($intent);
        $paid = $this->eventually(fn () => $this->lajan->getInvoice($invoice['id']), fn ($i) => $i['status'] === 'paid', 'the invoice');
        $this->assertSame('2750.11', $paid['amountPaid']);
    }

    public function testAPayoutIsApprovedAndSent(): void
    {
        $payout = $this->lajan->createPayout(['walletAccountId' => self::WALLET, 'assetAmount' => '125.50', 'assetCode' => 'USDC']);
        $this->assertSame('125.50', $payout['assetAmount']);
        $this->lajan->approvePayout($payout['id']);
        $sent = $this->eventually(fn () => $this->lajan->getPayout($payout['id']), fn ($p) => $p['execStatus'] === 'sent', 'the payout');
        $this->assertNotEmpty($sent['attempts'][0]['txHash']);
    }

    public function testASmallDisbursementIsSubmittedAndApprovedAndOneComesFromCsv(): void
    {
        $batch = $this->lajan->createDisbursement(['name' => 'March stipends', 'assetCode' => 'USDC', 'items' => [
            ['walletAccountId' => self::WALLET, 'assetAmount' => '10.01', 'externalId' => 'row-1'],
            ['walletAccountId' => self::WALLET, 'assetAmount' => '20.02', 'externalId' => 'row-2'],
        ]]);
        $this->assertSame('30.03', $batch['totalAmount']);
        $this->lajan->submitDisbursement($batch['id']);
        $this->lajan->approveDisbursement($batch['id']);
        $done = $this->eventually(fn () => $this->lajan->getDisbursement($batch['id']), fn ($d) => $d['status'] === 'completed', 'the batch');
        $this->assertSame('30.03', $done['amountSent']);
        $fromCsv = $this->lajan->createDisbursementFromCsv("walletAccountId,assetAmount\n" . self::WALLET . ",5.00\n", 'April', 'USDC');
        $this->assertSame(['draft', '5.00'], [$fromCsv['status'], $fromCsv['totalAmount']]);
    }

    public function testARefusalIsOneExceptionWithItsCodeAndFields(): void
    {
        try {
            $this->lajan->createClient(['firstName' => 'Marie', 'lastName' => 'Jean', 'email' => 'marie@']);
            $this->fail('accepted');
        } catch (LajanError $e) {
            $this->assertSame([400, 'validation_error', 'email'], [$e->statusCode, $e->errorCode, $e->details[0]['field']]);
            $this->assertNotEmpty($e->getMessage());
            $this->assertNotEmpty($e->requestId);
        }
        try {
            $this->lajan->getClient('cli_' . str_repeat('0', 32));
            $this->fail('found');
        } catch (LajanError $e) {
            $this->assertSame('not_found', $e->errorCode);
        }
    }

    public function testEveryPageOfAList(): void
    {
        $family = bin2hex(random_bytes(4));
        $made = [];
        for ($i = 0; $i < 5; $i++) {
            $made[] = $this->lajan->createClient(['firstName' => 'Paul', 'lastName' => $family])['id'];
        }
        $seen = array_map(fn ($c) => $c['id'], iterator_to_array($this->lajan->paginate('listClients', ['search' => $family, 'limit' => 2]), false));
        sort($made);
        sort($seen);
        $this->assertSame($made, $seen);
    }

    public function testAReplayedPostAnswersTheFirstResult(): void
    {
        $key = bin2hex(random_bytes(16));
        $first = $this->lajan->createClient(['firstName' => 'Rose', 'lastName' => 'Pierre'], $key);
        $again = $this->lajan->createClient(['firstName' => 'Rose', 'lastName' => 'Pierre'], $key);
        $this->assertSame($first['id'], $again['id']);
        $other = $this->lajan->createClient(['firstName' => 'Rose', 'lastName' => 'Pierre']);
        $this->assertNotSame($first['id'], $other['id'], "without a key of the caller's, each call is a new create");
    }

    public function testADeliveryVerifiesWithTheEndpointsSecretAndATamperedOneDoesNot(): void
    {
        $receiver = stream_socket_server('tcp://127.0.0.1:0');
        $url = 'http://' . stream_socket_get_name($receiver, false) . '/hooks';
        $endpoint = $this->lajan->createWebhookEndpoint(['url' => $url, 'events' => ['webhook_endpoint.test']]);
        $this->lajan->sendTestWebhookEvent($endpoint['id']);
        $connection = stream_socket_accept($receiver, 30);
        $this->assertNotFalse($connection, 'no delivery');
        [$head, $body] = explode("\r\n\r\n", (string) fread($connection, 65536), 2);
        $headers = [];
        foreach (array_slice(explode("\r\n", $head), 1) as $line) {
            [$name, $value] = explode(':', $line, 2);
            $headers[trim($name)] = trim($value);
        }
        while (strlen($body) < (int) ($headers['content-length'] ?? $headers['Content-Length'] ?? 0)) {
            $body .= fread($connection, 65536);
        }
        fwrite($connection, "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
        fclose($connection);
        fclose($receiver);
        $event = Lajan::verifyWebhook($endpoint['secret'], $body, $headers);
        $this->assertSame('webhook_endpoint.test', $event['type']);
        $this->expectException(\UnexpectedValueException::class);
        Lajan::verifyWebhook($endpoint['secret'], str_replace('endpoint.test', 'endpoint.tesT', $body), $headers);
    }

    public function testTheReadmeSnippetRunsAsWritten(): void
    {
        $readme = (string) file_get_contents(__DIR__ . '/../../../README.md');
        $section = explode("\n## ", explode('## Client libraries', $readme, 2)[1], 2)[0];
        $this->assertSame(1, preg_match('/```php\n(.*?)```/s', $section, $snippet));
        // A file PHP runs as written opens with its tag; eval takes the code after it.
        $this->assertStringStartsWith("<?php\n", $snippet[1]);
        $code = str_replace(
            ["<?php\n", "require 'vendor/autoload.php';", "'http://127.0.0.1:8080'", "'sk_test_...'"],
            ['', '', var_export(self::$baseUrl, true), var_export(self::$apiKey, true)],
            $snippet[1],
        );
        ob_start();
        eval($code);
        $lines = explode("\n", trim((string) ob_get_clean()));
        $this->assertMatchesRegularExpression('/^cli_[0-9a-f]{32}$/', $lines[0]);
        $this->assertSame('400 validation_error email', end($lines));
    }
}
