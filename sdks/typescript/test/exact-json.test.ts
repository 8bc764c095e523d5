// Decimal strings cross the wire as exact JSON numbers, and come back as the same strings.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parse, stringify } from "../src/exact-json.js";

test("a decimal string in a number field is written as that number, digit for digit", () => {
  const body = { assetAmount: "922337203685.47", memo: "12.50", lineItems: [{ quantity: "0.0001", unitPrice: "0.10" }] };
  assert.equal(stringify(body), '{"assetAmount":922337203685.47,"memo":"12.50","lineItems":[{"quantity":0.0001,"unitPrice":0.10}]}');
  assert.equal(stringify({ amount: "1e2" }), '{"amount":"1e2"}', "not a plain decimal: left a string, for the server to refuse");
  assert.equal(stringify({ amount: undefined, memo: null }), '{"memo":null}');
});

test("numbers of number fields are read as their exact text, and text that looks like them is left alone", () => {
  const parsed = parse('{"quantity":0.30000000000000004,"taxRate":10,"note":"\\"quantity\\":1","total":"2.00","count":3}');
  assert.deepEqual(parsed, { quantity: "0.30000000000000004", taxRate: "10", note: '"quantity":1', total: "2.00", count: 3 });
});
