import assert from "node:assert/strict";
import { ProtocolError } from "../shared/errors.ts";
import { checkReadResult } from "./resources.ts";

Deno.test("checkReadResult gives the contents back, each checked", () => {
  const contents = [
    { uri: "a://1", mimeType: "text/plain", text: "one" },
    { uri: "a://2", blob: "AAEC", _meta: { size: 3 } },
  ];
  assert.deepEqual(checkReadResult("a://1", { contents }), contents);
  assert.deepEqual(checkReadResult("a://none", { contents: [] }), []);
  const cases: [object, RegExp][] = [
    [{}, /for a:\/\/1 is malformed: it has no contents list/],
    [{ contents: ["one"] }, /contents\[0\] is not an object/],
    [
      { contents: [{ text: "one" }] },
      /contents\[0\] is resource contents whose "uri" is not a string/,
    ],
    [
      { contents: [contents[0], { uri: "a://2", blob: "AAE" }] },
      /contents\[1\] is resource contents with neither/,
    ],
    [{ contents, _meta: "x" }, /"_meta" is not an object/],
  ];
  for (const [result, expected] of cases) {
    assert.throws(
      () => checkReadResult("a://1", result as never),
      (error: Error) => error instanceof ProtocolError && expected.test(error.message),
    );
  }
});
