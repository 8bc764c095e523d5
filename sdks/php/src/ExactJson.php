<?php

declare(strict_types=1);

namespace Lajan;

/**
 * Exact JSON for money: decimal strings in number fields are written as JSON numbers digit for
 * digit, and those numbers in answers are read back as strings, so no amount passes through a
 * PHP float.
 */
final class ExactJson
{
    private const DECIMAL = '/^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/';

    /** A PHP array is a JSON array when it is a list (an empty one too); a body's top level is
     * always an object (Lajan::request passes an empty body as an object). */
    public static function encode(mixed $value, ?string $key = null): string
    {
        if (is_string($value) && $key !== null && in_array($key, DecimalFields::NAMES, true) && preg_match(self::DECIMAL, $value)) {
            return $value;
        }
        if (is_float($value)) {
            throw new \InvalidArgumentException("$value is a float, which cannot hold an amount exactly: pass a decimal string");
        }
        if (is_array($value)) {
            if (array_is_list($value)) {
                return '[' . implode(',', array_map(fn ($item) => self::encode($item, $key), $value)) . ']';
            }
            $members = [];
            foreach ($value as $name => $member) {
                $members[] = json_encode((string) $name, JSON_THROW_ON_ERROR) . ':' . self::encode($member, (string) $name);
            }
            return '{' . implode(',', $members) . '}';
        }
        return json_encode($value, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
    }

    /** @return array<mixed> */
    public static function decode(string $text): array
    {
        if ($text === '') {
            return [];
        }
        // A key is a JSON string, so `"name":` is only ever a key: a quote inside a string is escaped.
        $names = implode('|', DecimalFields::NAMES);
        $exact = preg_replace('/"(' . $names . ')":(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)/', '"$1":"$2"', $text);
        $value = json_decode($exact ?? $text, true, 512, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
        return is_array($value) ? $value : [];
    }
}
