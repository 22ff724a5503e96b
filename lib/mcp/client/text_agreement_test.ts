import assert from "node:assert/strict";
import { textDisagreements } from "./text_agreement.ts";

const text = (text: string) => ({ type: "text", text });

Deno.test("a text agrees when it is the JSON of structuredContent, or of a part, or a string in it", () => {
  const structured = { entities: [{ name: "Ada", tags: ["a", "b"] }], count: 1, note: "two words" };
  for (
    const agreeing of [
      JSON.stringify(structured),
      JSON.stringify(structured, null, 2),
      '{"count":1,"note":"two words","entities":[{"tags":["a","b"],"name":"Ada"}]}',
      '[{"name":"Ada","tags":["a","b"]}]',
      '["a","b"]',
      "1",
      "two words",
      "Ada",
    ]
  ) assert.deepEqual(textDisagreements([text(agreeing)], structured), [], agreeing);
  for (const disagreeing of ["2", "two", '{"count":1}', '["b","a"]', "", "null"]) {
    assert.equal(textDisagreements([text(disagreeing)], structured).length, 1, disagreeing);
  }
});

Deno.test("only texts are compared, each on its own, and each disagreement is one note", () => {
  const content = [
    text("hi"),
    { type: "image", data: "", mimeType: "image/png" },
    text("bye"),
    text("ciao"),
  ];
  const notes = textDisagreements(content, { greeting: "hi" });
  assert.equal(notes.length, 2);
  assert.match(
    notes[0],
    /^content\[2\]'s text does not agree with structuredContent: the text is "bye"/,
  );
  assert.match(notes[1], /^content\[3\]'s text/);
});

Deno.test("a text is looked for at most 32 levels down, and a long one is shown in part", () => {
  let deep: unknown = "found";
  for (let level = 0; level < 40; level++) deep = { inner: deep };
  assert.equal(textDisagreements([text("found")], deep as Record<string, unknown>).length, 1);
  let shallow: unknown = "found";
  for (let level = 0; level < 30; level++) shallow = { inner: shallow };
  assert.deepEqual(textDisagreements([text("found")], shallow as Record<string, unknown>), []);
  const [note] = textDisagreements([text("x".repeat(200))], { y: 1 });
  assert.match(note, /the text is "x{80}…"/);
});
