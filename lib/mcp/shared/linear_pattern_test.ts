import assert from "node:assert/strict";
import { linearPattern } from "./linear_pattern.ts";

Deno.test("linearPattern tests a pattern anywhere in the text, as RegExp.test does", () => {
  assert.equal(linearPattern("b+").test("abbc"), true);
  assert.equal(linearPattern("^b+").test("abbc"), false);
  assert.equal(linearPattern("^[a-z]+-\\d{3}$").test("order-123"), true);
});

Deno.test("linearPattern reads JavaScript's escapes and named groups", () => {
  assert.equal(linearPattern("^\\u0041\\u{1F600}$").test("A😀"), true);
  assert.equal(linearPattern("^(?<word>\\w+)$").test("vanilla"), true);
});

Deno.test("linearPattern runs patterns that backtrack exponentially in linear time", () => {
  const started = performance.now();
  assert.equal(linearPattern("^(a+)+$").test("a".repeat(10_000) + "!"), false);
  assert.equal(linearPattern("^([a-zA-Z]+ ?)*$").test("vanilla stock ".repeat(1000) + "!"), false);
  assert.ok(performance.now() - started < 5000);
});

Deno.test("linearPattern refuses what only a backtracking engine can run, naming the pattern", () => {
  for (const pattern of ["^(a)\\1$", "a(?=b)", "a(?!b)", "(?<=a)b", "(?<!a)b", "[a-"]) {
    assert.throws(() => linearPattern(pattern), (error: Error) => {
      assert.ok(error instanceof SyntaxError);
      assert.ok(error.message.includes(JSON.stringify(pattern)), error.message);
      return true;
    });
  }
});

Deno.test("linearPattern's patterns are told apart by their text", () => {
  assert.equal(String(linearPattern("^a$")), "/^a$/");
  assert.notEqual(String(linearPattern("^a$")), String(linearPattern("^b$")));
});

Deno.test("linearPattern reads \\s, \\S and . as JavaScript does, in a class and out", () => {
  const patterns = [
    "^\\s$",
    "^\\S$",
    "^.$",
    "^[^\\s]$",
    "^[\\S\\s]$",
    "^[.\\s]$",
    "^\\.$",
    "^[\\]\\S]$",
  ];
  const texts = ["a", ".", "]", " ", "\t", "\v", "\n", "\r", "\u00a0", "\u1680", "\u2005", "\u200b"]
    .concat(["\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff", "\uff01", "😀", "\u0085"]);
  for (const pattern of patterns) {
    const expected = new RegExp(pattern, "u");
    for (const text of texts) {
      assert.equal(
        linearPattern(pattern).test(text),
        expected.test(text),
        `${pattern} on ${JSON.stringify(text)}`,
      );
    }
  }
});
