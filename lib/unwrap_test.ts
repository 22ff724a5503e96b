import assert from "node:assert/strict";
import { unwrap } from "./unwrap.ts";

const CASES: [string, string, unknown][] = [
  ["a plain word stays a string", "ate", "ate"],
  ["a word with an accent stays a string", "comió", "comió"],
  ["two words stay a string", "has eaten", "has eaten"],
  ["a JSON object becomes an object", '{"verb":"go","irregular":true}', {
    verb: "go",
    irregular: true,
  }],
  ["a JSON array becomes an array", "[1,2]", [1, 2]],
  ["a JSON number becomes a number", "42", 42],
  ["JSON true becomes a boolean", "true", true],
  ["JSON null becomes null", "null", null],
  ["a quoted JSON string loses its quotes", '"went"', "went"],
  ["JSON with spaces around it is still JSON", " 7 ", 7],
  ["text that only starts like JSON stays text", '{"verb": go', '{"verb": go'],
  ["an empty text stays empty", "", ""],
  ["NaN is not JSON", "NaN", "NaN"],
];

for (const [name, text, expected] of CASES) {
  Deno.test(`unwrap: ${name}`, () => {
    assert.deepEqual(unwrap(text), expected);
  });
}
