// The automata the mask is built from, each proved against the real thing
// on generated inputs: patterns against JavaScript's RegExp, formats against
// ajv-formats, numbers against arithmetic.

import assert from "node:assert/strict";
import fc from "fast-check";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { ByteDfa } from "../lib/mask/byte_dfa.ts";
import { ByteNfa } from "../lib/mask/byte_nfa.ts";
import { formatAutomaton } from "../lib/mask/formats.ts";
import { jsonEscape, utf8Sequences } from "../lib/mask/json_chars.ts";
import { numberDfa } from "../lib/mask/number_grammar.ts";
import { regexFragment } from "../lib/mask/regex_grammar.ts";
import { UnsupportedSchemaError } from "../lib/mask/mod.ts";

/** The JSON-encoded content of `text`, as JSON.stringify writes it. */
const content = (text: string) => new TextEncoder().encode(JSON.stringify(text).slice(1, -1));

function patternDfa(pattern: string): ByteDfa {
  const nfa = new ByteNfa();
  return ByteDfa.fromNfa(nfa, regexFragment(nfa, pattern));
}

Deno.test("utf8Sequences covers each code point of a range once, with its UTF-8 bytes", () => {
  for (
    const [low, high] of [[0, 0x7f], [0x80, 0x7ff], [0x7f0, 0x10ff], [0xe000, 0x10ffff], [
      0x20,
      0xd7ff,
    ]]
  ) {
    const sequences = utf8Sequences(low, high);
    for (const code of [low, high, Math.floor((low + high) / 2), low + 1, high - 1]) {
      const bytes = new TextEncoder().encode(String.fromCodePoint(code));
      const matching = sequences.filter((ranges) =>
        ranges.length === bytes.length &&
        ranges.every(([from, to], index) => bytes[index] >= from && bytes[index] <= to)
      );
      assert.equal(matching.length, 1, `U+${code.toString(16)}`);
    }
  }
});

Deno.test("jsonEscape writes characters as JSON.stringify does", () => {
  assert.equal(jsonEscape(0x0a), "\\n");
  assert.equal(jsonEscape(0x01), "\\u0001");
  assert.equal(jsonEscape(0x22), '\\"');
  assert.equal(jsonEscape(0xe9), "é");
});

Deno.test("a pattern's automaton agrees with RegExp (u flag, searching) on generated strings", () => {
  const patterns = [
    "^[a-z]+(_[a-z]+)*$",
    "^\\d{3}-\\d{4}$",
    "ab+c",
    "^(?:foo|bar)?baz$",
    "^[^\\s@]+@[^\\s@]+\\.[a-z]{2,}$",
    "^\\w{2,5}$",
    "x|^y$",
    "^.{0,3}$",
    "^[A-Z][a-z]*(?: [A-Z][a-z]*)*$",
    "^\\p?$".replace("\\p?", '[\\u00e9\\n"\\\\]+'),
  ];
  const alphabet = fc.constantFrom(...'abcxyz_-@. 019AZé\n"\\\t😀'.split(/(?:)/u));
  for (const pattern of patterns) {
    const dfa = patternDfa(pattern);
    const regex = new RegExp(pattern, "u");
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 12 }).map((chars) => chars.join("")), (text) => {
        assert.equal(
          dfa.accepts(content(text)),
          regex.test(text),
          `${pattern} on ${JSON.stringify(text)}`,
        );
      }),
      { numRuns: 400, seed: 31 },
    );
  }
});

Deno.test("a pattern that is not regular is refused, naming pattern", () => {
  for (const pattern of ["(a)\\1", "a(?=b)", "\\bword", "(?<!x)y", "a^b"]) {
    assert.throws(
      () => patternDfa(pattern),
      (error: unknown) => error instanceof UnsupportedSchemaError && error.keyword === "pattern",
    );
  }
});

Deno.test("the format automata agree with ajv-formats on generated strings", () => {
  const formats = fullFormats as Record<string, unknown>;
  const check = (name: string, text: string) => {
    const format = formats[name] as
      | RegExp
      | ((text: string) => boolean)
      | { validate: RegExp | ((text: string) => boolean) };
    const validate = format instanceof RegExp || typeof format === "function"
      ? format
      : format.validate;
    const expected = validate instanceof RegExp ? validate.test(text) : validate(text);
    // leap seconds are valid but never generated: the mask may refuse them
    if (expected && /:60/.test(text)) return;
    assert.equal(
      formatAutomaton(name)!.accepts(content(text)),
      expected,
      `${name} ${JSON.stringify(text)}`,
    );
  };
  const digits = (length: number) =>
    fc.array(fc.constantFrom(..."0123456789"), { minLength: length, maxLength: length }).map((d) =>
      d.join("")
    );
  const date = fc.tuple(digits(4), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
    .map(
      ([year, month, day]) =>
        `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`,
    );
  const time = fc.tuple(
    fc.integer({ min: 0, max: 25 }),
    fc.integer({ min: 0, max: 61 }),
    fc.integer({ min: 0, max: 61 }),
    fc.constantFrom("", ".5", ".123"),
    fc.constantFrom("Z", "z", "+01:00", "-0530", "+24:00", "", "+05"),
  )
    .map(([h, m, s, fraction, zone]) =>
      `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:${
        String(s).padStart(2, "0")
      }${fraction}${zone}`
    );
  fc.assert(fc.property(date, (text) => check("date", text)), { numRuns: 2000, seed: 1 });
  fc.assert(fc.property(time, (text) => check("time", text)), { numRuns: 2000, seed: 2 });
  fc.assert(
    fc.property(
      date,
      fc.constantFrom("T", "t", " ", "x"),
      time,
      (d, separator, t) => check("date-time", `${d}${separator}${t}`),
    ),
    { numRuns: 2000, seed: 3 },
  );
  const local = fc.constantFrom("a", "john.doe", "x_y", "a..b", ".a", "A+tag", "");
  const host = fc.constantFrom(
    "example.com",
    "b.co",
    "localhost",
    "-a.com",
    "a-.com",
    "x.y.z",
    "",
    "a_b.com",
  );
  fc.assert(fc.property(local, host, (l, h) => check("email", `${l}@${h}`)), {
    numRuns: 300,
    seed: 4,
  });
  const uris = [
    "https://example.com/a?b=c#d",
    "mailto:x@y.z",
    "example.com",
    "http://[::1]:80/",
    "urn:isbn:0451450523",
    "a:b c",
    "ftp://u:p@h:21/x%20y",
    "http://ex ample.com",
    "1http://x",
    "http://%zz",
    "HTTP://EXAMPLE.COM",
    "file:///etc/hosts",
    "x:",
    "http://192.168.0.1/",
    "http://[v1.x]/",
  ];
  for (const uri of uris) check("uri", uri);
});

Deno.test("integer and number automata accept exactly the values within their bounds", () => {
  const cases: [boolean, Record<string, number>][] = [
    [true, { minimum: -5, maximum: 17 }],
    [true, { exclusiveMinimum: 0 }],
    [true, { minimum: 1.5, exclusiveMaximum: 100 }],
    [false, { minimum: 0 }],
    [false, { exclusiveMinimum: 0, maximum: 100 }],
    [false, { minimum: -3, exclusiveMaximum: 2 }],
    [false, { maximum: -2 }],
    [false, { minimum: 0.25, maximum: 0.75 }],
    [false, { exclusiveMinimum: -1.5, exclusiveMaximum: 2.125 }],
    [false, { minimum: -0.5, exclusiveMaximum: -0.125 }],
  ];
  for (const [integer, bounds] of cases) {
    const dfa = numberDfa(integer, bounds);
    const within = (x: number) =>
      (bounds.minimum === undefined || x >= bounds.minimum) &&
      (bounds.maximum === undefined || x <= bounds.maximum) &&
      (bounds.exclusiveMinimum === undefined || x > bounds.exclusiveMinimum) &&
      (bounds.exclusiveMaximum === undefined || x < bounds.exclusiveMaximum) &&
      (!integer || Number.isInteger(x));
    fc.assert(
      fc.property(
        fc.integer({ min: -2000, max: 2000 }),
        fc.constantFrom(1, 2, 4, 8, 16, 1000),
        (n, d) => {
          const x = n / d;
          // JSON.stringify writes exponents only far outside these values
          assert.equal(
            dfa.accepts(new TextEncoder().encode(JSON.stringify(x))),
            within(x),
            `${JSON.stringify(bounds)} ${x}`,
          );
        },
      ),
      { numRuns: 1000, seed: 5 },
    );
  }
});

Deno.test("a bounded number has at most 15 digits, so that no digit string rounds across its bound", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const positive = numberDfa(false, { exclusiveMinimum: 0 });
  assert.ok(positive.accepts(bytes("0.00000000000001")));
  // 1e-400 as digits: JSON.parse reads 0, which is not above 0
  assert.ok(!positive.accepts(bytes(`0.${"0".repeat(400)}1`)));
  const below = numberDfa(true, { exclusiveMaximum: 9007199254740993 });
  assert.ok(!below.accepts(bytes("9007199254740993")));
  assert.ok(below.accepts(bytes("999999999999999")));
  assert.ok(numberDfa(true, {}).accepts(bytes("9".repeat(30))), "unbounded: any length");
});

Deno.test("formats ajv-formats checks with one expression are enforced from that expression", () => {
  const formats = fullFormats as Record<string, RegExp>;
  const samples: Record<string, string[]> = {
    uuid: [
      "123e4567-e89b-12d3-a456-426614174000",
      "urn:uuid:123E4567-E89B-12D3-A456-426614174000",
      "123e4567e89b12d3a456426614174000",
      "g23e4567-e89b-12d3-a456-426614174000",
    ],
    ipv4: ["192.168.0.1", "255.255.255.255", "256.1.1.1", "01.2.3.4", "1.2.3"],
    ipv6: [
      "::1",
      "2001:db8::8a2e:370:7334",
      "1:2:3:4:5:6:7:8",
      "1:2:3:4:5:6:7:8:9",
      "::ffff:192.168.0.1",
      "12345::",
    ],
    "json-pointer": ["", "/a/b", "/a~0b", "/a~2", "a"],
    "relative-json-pointer": ["0", "1/a", "2#", "01", "-1"],
    "uri-reference": ["../a?b#c", "http://x.y/z", "#frag", "a b", "%zz"],
    "uri-template": ["http://x/{id}", "/a{?x,y}", "{", "/a{b"],
  };
  for (const [name, texts] of Object.entries(samples)) {
    const dfa = formatAutomaton(name)!;
    for (const text of texts) {
      assert.equal(
        dfa.accepts(content(text)),
        formats[name].test(text),
        `${name} ${JSON.stringify(text)}`,
      );
    }
  }
  // byte is checked with the m flag: any one line that is base64 will do
  const byte = (fullFormats as Record<string, (text: string) => boolean>).byte;
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(..."AB+/=\n\r! "), { maxLength: 10 }).map((chars) => chars.join("")),
      (text) => {
        assert.equal(
          formatAutomaton("byte")!.accepts(content(text)),
          byte(text),
          JSON.stringify(text),
        );
      },
    ),
    { numRuns: 3000, seed: 6 },
  );
  for (const name of ["hostname", "duration", "url", "regex", "iso-time"]) {
    assert.throws(
      () => formatAutomaton(name),
      (error: unknown) => error instanceof UnsupportedSchemaError && error.keyword === "format",
      name,
    );
  }
  assert.equal(formatAutomaton("password"), undefined, "ajv-formats does not check it");
  assert.equal(formatAutomaton("color"), undefined, "ajv-formats does not know it");
});
