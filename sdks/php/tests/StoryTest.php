<?php

declare(strict_types=1);

namespace Lajan\Tests;

use Lajan\Lajan;
use Lajan\Models\ClientView;
use Lajan\Models\UnknownEvent;
use Lajan\Models\WebhookEndpointTestEvent;
use Lajan\Models\WebhookEndpointView;
use Lajan\NotFoundError;
use Lajan\RequestOptions;
use Lajan\ValidationError;
use Lajan\WebhookVerificationError;
use PHPUnit\Framework\TestCase;

/**
 * The story an integrator runs, through the library against a fresh `lajan serve`: an invoice
 * paid in the sandbox, a payout sent, a disbursement approved, errors by kind, every page of a
 * list, idempotent replays, a webhook verified into a typed event, and the README's quick start.
 */
final class StoryTest extends TestCase
{
    private const WALLET = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';

    private static ?Server $server = null;
    private Lajan $lajan;

    public static function setUpBeforeClass(): void
    {
        self::$server = Server::start();
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
    }

    protected function setUp(): void
    {
        $server = self::$server ?? throw new \LogicException('no server');
        $this->lajan = new Lajan(apiKey: $server->apiKey, baseUrl: $server->baseUrl);
    }

    /**
     * @template T
     * @param callable(): T $read
     * @param callable(T): bool $done
     * @return T
     */
    private function eventually(callable $read, callable $done, string $what): mixed
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
        $client = $this->lajan->clients->create(['firstName' => 'Marie', 'lastName' => 'Jean', 'email' => 'marie@example.ht']);
        $this->assertInstanceOf(ClientView::class, $client);
        $invoice = $this->lajan->invoices->create([
            'clientId' => $client->id,
            'dueDate' => '2030-03-31',
            'lineItems' => [['description' => 'Loan repayment', 'quantity' => '0.5', 'unitPrice' => '5000.20', 'taxRate' => '10']],
        ]);
        $this->assertSame('2750.11', $invoice->total);
        $this->assertSame('0.5', $invoice->lineItems[0]->quantity, 'numbers in answers stay exact decimal strings');
        $this->assertSame('sent', $this->lajan->invoices->send($invoice->id)->status);
        $this->lajan->sandbox->simulatePayment(basename($invoice->paymentLink->url));
        $paid = $this->eventually(fn () => $this->lajan->invoices->retrieve($invoice->id), fn ($i) => $i->status === 'paid', 'the invoice');
        $this->assertSame('2750.11', $paid->amountPaid);
    }

    public function testAPayoutIsApprovedAndSent(): void
    {
        $payout = $this->lajan->payouts->create(['walletAccountId' => self::WALLET, 'assetAmount' => '125.50', 'assetCode' => 'USDC']);
        $this->assertSame('125.50', $payout->assetAmount);
        $this->lajan->payouts->approve($payout->id);
        $sent = $this->eventually(fn () => $this->lajan->payouts->retrieve($payout->id), fn ($p) => $p->execStatus === 'sent', 'the payout');
        $this->assertNotEmpty($sent->attempts[0]->txHash);
    }

    public function testASmallDisbursementIsSubmittedAndApprovedAndOneComesFromCsv(): void
    {
        $batch = $this->lajan->disbursements->create(['name' => 'March stipends', 'assetCode' => 'USDC', 'items' => [
            ['walletAccountId' => self::WALLET, 'assetAmount' => '10.01', 'externalId' => 'row-1'],
            ['walletAccountId' => self::WALLET, 'assetAmount' => '20.02', 'externalId' => 'row-2'],
        ]]);
        $this->assertSame('30.03', $batch->totalAmount);
        $this->lajan->disbursements->submit($batch->id);
        $this->lajan->disbursements->approve($batch->id);
        $done = $this->eventually(fn () => $this->lajan->disbursements->retrieve($batch->id), fn ($d) => $d->status === 'completed', 'the batch');
        $this->assertSame('30.03', $done->amountSent);
        $rows = array_map(fn ($item) => $item->externalId, iterator_to_array($this->lajan->disbursements->listItems($batch->id), false));
        $this->assertSame(['row-1', 'row-2'], $rows);
        $fromCsv = $this->lajan->disbursements->createFromCsv("walletAccountId,assetAmount\n" . self::WALLET . ",5.00\n", ['name' => 'April', 'assetCode' => 'USDC']);
        $this->assertSame(['draft', '5.00'], [$fromCsv->status, $fromCsv->totalAmount]);
    }

    public function testARefusalIsAnErrorOfItsKindWithItsCodeAndFields(): void
    {
        try {
            $this->lajan->clients->create(['firstName' => 'Marie', 'lastName' => 'Jean', 'email' => 'marie@']);
            $this->fail('accepted');
        } catch (ValidationError $e) {
            $this->assertSame([400, 'validation_error', 'email'], [$e->status, $e->errorCode, $e->details[0]->field]);
            $this->assertNotEmpty($e->getMessage());
            $this->assertNotEmpty($e->requestId);
        }
        try {
            $this->lajan->clients->retrieve('cli_' . str_repeat('0', 32));
            $this->fail('found');
        } catch (NotFoundError $e) {
            $this->assertSame([404, 'not_found'], [$e->status, $e->errorCode]);
        }
        $this->expectException(\InvalidArgumentException::class);
        $this->lajan->payouts->create(['walletAccountId' => self::WALLET, 'assetAmount' => 0.1, 'assetCode' => 'USDC']);
    }

    public function testEveryItemOfEveryPageOnce(): void
    {
        $family = bin2hex(random_bytes(4));
        $made = [];
        for ($i = 0; $i < 5; $i++) {
            $made[] = $this->lajan->clients->create(['firstName' => 'Paul', 'lastName' => $family])->id;
        }
        $page = $this->lajan->clients->list(['search' => $family, 'limit' => 2]);
        $this->assertCount(2, $page->data);
        $this->assertTrue($page->hasMore());
        $this->assertSame(array_reverse($made), array_map(fn ($c) => $c->id, iterator_to_array($page, false)), 'newest first, each once');
        $this->assertSame([2, 2, 1], array_map(fn ($p) => count($p->data), iterator_to_array($page->pages(), false)));
        $newer = array_map(fn ($c) => $c->id, iterator_to_array($this->lajan->clients->list(['search' => $family, 'limit' => 2, 'endingBefore' => $made[1]]), false));
        sort($newer);
        $expected = array_slice($made, 2);
        sort($expected);
        $this->assertSame($expected, $newer);
    }

    public function testAReplayedPostAnswersTheFirstResult(): void
    {
        $key = new RequestOptions(idempotencyKey: bin2hex(random_bytes(16)));
        $first = $this->lajan->clients->create(['firstName' => 'Rose', 'lastName' => 'Pierre'], $key);
        $again = $this->lajan->clients->create(['firstName' => 'Rose', 'lastName' => 'Pierre'], $key);
        $this->assertSame($first->id, $again->id);
        $other = $this->lajan->clients->create(['firstName' => 'Rose', 'lastName' => 'Pierre']);
        $this->assertNotSame($first->id, $other->id, "without a key of the caller's, each call is a new create");
    }

    public function testADeliveryVerifiesIntoATypedEventAndATamperedOneDoesNot(): void
    {
        $receiver = stream_socket_server('tcp://127.0.0.1:0');
        $this->assertNotFalse($receiver);
        $url = 'http://' . stream_socket_get_name($receiver, false) . '/hooks';
        $endpoint = $this->lajan->webhookEndpoints->create(['url' => $url, 'events' => ['webhook_endpoint.test']]);
        $this->lajan->webhookEndpoints->sendTestEvent($endpoint->id);
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
        $event = $this->lajan->webhooks->verify($body, $headers, $endpoint->secret);
        $this->assertInstanceOf(WebhookEndpointTestEvent::class, $event);
        $this->assertSame('webhook_endpoint.test', $event->type);
        $this->assertInstanceOf(WebhookEndpointView::class, $event->data->object);
        $this->assertSame($endpoint->id, $event->data->object->id);
        $newer = \Lajan\Models\Event::fromArray(['type' => 'client.teleported', 'data' => ['object' => ['id' => 'x']]] + json_decode($body, true));
        $this->assertInstanceOf(UnknownEvent::class, $newer);
        $this->expectException(WebhookVerificationError::class);
        $this->lajan->webhooks->verify(str_replace('endpoint.test', 'endpoint.tesT', $body), $headers, $endpoint->secret);
    }

    public function testTheReadmesShowTheQuickStartAndItRunsAsWritten(): void
    {
        $example = (string) file_get_contents(__DIR__ . '/../examples/quickstart.php');
        foreach ([__DIR__ . '/../../../README.md', __DIR__ . '/../README.md'] as $readme) {
            $this->assertStringContainsString("```php\n$example```", (string) file_get_contents($readme), "$readme shows examples/quickstart.php as it is");
        }
        $server = self::$server ?? throw new \LogicException('no server');
        $code = str_replace(
            ["require 'vendor/autoload.php';", "'http://127.0.0.1:8080'", "'sk_test_...'"],
            ['require ' . var_export(__DIR__ . '/bootstrap.php', true) . ';', var_export($server->baseUrl, true), var_export($server->apiKey, true)],
            $example,
        );
        $file = tempnam(sys_get_temp_dir(), 'quickstart') . '.php';
        file_put_contents($file, $code);
        exec(PHP_BINARY . ' ' . escapeshellarg($file) . ' 2>&1', $out, $status);
        $this->assertSame(0, $status, implode("\n", $out));
        $this->assertMatchesRegularExpression('/^INV-\d{6} 2500\.00$/', implode("\n", $out));
    }
}
