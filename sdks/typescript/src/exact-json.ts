// Exact JSON for money: decimal strings in number fields are written as JSON numbers digit for
// digit, and those numbers in answers are read back as strings, so no amount passes through a
// JavaScript number.
import { DECIMAL_FIELDS } from "./decimal-fields.js";

const DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** JSON text of `value`, writing a decimal string in a number field as a JSON number. */
export function stringify(value: unknown, key?: string): string {
  if (typeof value === "string" && key !== undefined && DECIMAL_FIELDS.has(key) && DECIMAL.test(value)) return value;
  if (Array.isArray(value)) return `[${value.map((item: unknown) => stringify(item, key)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .map(([name, member]) => `${JSON.stringify(name)}:${stringify(member, name)}`);
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

// A key is a JSON string, so `"name":` is only ever a key: a quote inside a string is escaped.
const NUMBER_MEMBER = new RegExp(
  `"(${[...DECIMAL_FIELDS].join("|")})":(-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)`,
  "g",
);

/** `text` parsed, with the numbers of number fields kept as their exact text. */
export function parse(text: string): unknown {
  return JSON.parse(text.replace(NUMBER_MEMBER, '"$1":"$2"'));
}
