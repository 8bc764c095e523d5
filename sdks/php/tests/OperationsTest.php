<?php

declare(strict_types=1);

namespace Lajan\Tests;

use Lajan\Lajan;
use PHPUnit\Framework\TestCase;

/** The client's operations are the document's, one for one (sdks/generate writes them). */
final class OperationsTest extends TestCase
{
    public function testEveryOperationOfTheDocumentHasAMethodAndNoOther(): void
    {
        $document = json_decode((string) file_get_contents(__DIR__ . '/../../../crates/lajan-api/tests/snapshots/openapi.json'), true);
        $documented = [];
        foreach ($document['paths'] as $item) {
            foreach (['get', 'post', 'put', 'delete'] as $verb) {
                if (isset($item[$verb])) {
                    $documented[] = $item[$verb]['operationId'];
                }
            }
        }
        sort($documented);
        $methods = Lajan::operationIds();
        sort($methods);
        $this->assertSame($documented, $methods);
        foreach ($methods as $method) {
            $this->assertTrue(method_exists(Lajan::class, $method), $method);
        }
    }

    public function testDecimalStringsCrossTheWireAsExactNumbersAndComeBackAsStrings(): void
    {
        $this->assertSame(
            '{"assetAmount":922337203685.47,"memo":"12.50","lineItems":[{"quantity":0.0001}]}',
            \Lajan\ExactJson::encode(['assetAmount' => '922337203685.47', 'memo' => '12.50', 'lineItems' => [['quantity' => '0.0001']]]),
        );
        $this->assertSame('{"channels":[],"memo":null}', \Lajan\ExactJson::encode(['channels' => [], 'memo' => null]));
        $this->assertSame(
            ['quantity' => '0.30000000000000004', 'note' => '"quantity":1', 'count' => 3],
            \Lajan\ExactJson::decode('{"quantity":0.30000000000000004,"note":"\"quantity\":1","count":3}'),
        );
        $this->expectException(\InvalidArgumentException::class);
        \Lajan\ExactJson::encode(['assetAmount' => 0.1]);
    }
}
