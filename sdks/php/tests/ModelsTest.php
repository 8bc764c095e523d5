<?php

declare(strict_types=1);

namespace Lajan\Tests;

use Lajan\ExactJson;
use PHPUnit\Framework\TestCase;

/**
 * The generated models read every real answer: each 2xx example of the OpenAPI document (real
 * answers, recorded by the API's tests) becomes its model with every property typed as declared
 * (strict types: a wrong type is a TypeError), and its top-level values unchanged.
 */
final class ModelsTest extends TestCase
{
    public function testEveryExampleAnswerReadsIntoItsModel(): void
    {
        $document = json_decode((string) file_get_contents(__DIR__ . '/../../../crates/lajan-api/tests/snapshots/openapi.json'), true);
        $read = 0;
        foreach ($document['paths'] as $path => $item) {
            foreach ($item as $verb => $operation) {
                foreach ($operation['responses'] ?? [] as $status => $response) {
                    $content = $response['content']['application/json'] ?? null;
                    if (!str_starts_with((string) $status, '2') || !isset($content['example'], $content['schema']['$ref'])) {
                        continue;
                    }
                    $name = substr($content['schema']['$ref'], strrpos($content['schema']['$ref'], '/') + 1);
                    $class = 'Lajan\\Models\\' . ($name === 'EventView' ? 'Event' : $name);
                    $answer = ExactJson::decode((string) json_encode($content['example']));
                    $model = $class::fromArray($answer);
                    foreach ($answer as $field => $value) {
                        if (is_scalar($value)) {
                            $this->assertSame($value, $model->{$field}, "$verb $path: $field");
                        }
                    }
                    $read++;
                }
            }
        }
        $this->assertGreaterThan(40, $read);
    }

    public function testDecimalStringsCrossTheWireAsExactNumbersAndComeBackAsStrings(): void
    {
        $this->assertSame(
            '{"assetAmount":922337203685.47,"memo":"12.50","lineItems":[{"quantity":0.0001}]}',
            ExactJson::encode(['assetAmount' => '922337203685.47', 'memo' => '12.50', 'lineItems' => [['quantity' => '0.0001']]]),
        );
        $this->assertSame('{"channels":[],"memo":null}', ExactJson::encode(['channels' => [], 'memo' => null]));
        $this->assertSame(
            ['quantity' => '0.30000000000000004', 'note' => '"quantity":1', 'count' => 3],
            ExactJson::decode('{"quantity":0.30000000000000004,"note":"\"quantity\":1","count":3}'),
        );
        $this->expectException(\InvalidArgumentException::class);
        ExactJson::encode(['assetAmount' => 0.1]);
    }
}
