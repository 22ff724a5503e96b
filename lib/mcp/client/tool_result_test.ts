import assert from "node:assert/strict";
import { ProtocolError, ToolError } from "../shared/errors.ts";
import type { JsonObject } from "../shared/jsonrpc.ts";
import { checkToolResult, wholeToolResult } from "./tool_result.ts";
import { toolText } from "./tool_text.ts";

const text = (text: unknown) => ({ type: "text", text });
const ECHOED = {
  type: "object",
  properties: { echoed: { type: "string" } },
  required: ["echoed"],
};

/** The text the client would return for `result`, checked first, or the error it throws. */
function answer(result: JsonObject, outputSchema?: JsonObject): string {
  checkToolResult("echo", result, { outputSchema });
  return toolText("echo", result);
}

Deno.test("a well-formed text result gives its text", () => {
  assert.equal(answer({ content: [text("4")] }), "4");
  assert.equal(answer({ content: [text("4"), text("5")], isError: false }), "4\n5");
});

Deno.test("isError must be a boolean: a string is malformed, not a success", () => {
  const result = { content: [text("no such order")], isError: "true" };
  assert.throws(() => answer(result), /"isError" must be a boolean, not "true"/);
  assert.throws(() => answer({ content: [text("no such order")], isError: true }), ToolError);
});

Deno.test("a malformed item is refused, not skipped", () => {
  assert.throws(() => answer({ content: [text("4"), text(42)] }), /content\[1\] is a text item/);
  assert.throws(() => answer({ content: "4" }), /no content list/);
});

Deno.test("an answer that is more than text is refused, naming what it held", () => {
  const resource = { type: "resource", resource: { uri: "file:///answer.txt", text: "4" } };
  assert.throws(
    () => answer({ content: [text("the answer is attached"), resource] }),
    (error: Error) =>
      error instanceof ProtocolError &&
      /content\[1\] is a resource \(file:\/\/\/answer.txt\)/.test(error.message) &&
      /callToolResult\(\) gives the whole result/.test(error.message),
  );
});

Deno.test("the whole result keeps every item, isError as a boolean, and notes", () => {
  const resource = { type: "resource", resource: { uri: "file:///answer.txt", text: "4" } };
  const result = { content: [text("the answer is attached"), resource], _meta: { id: 1 } };
  checkToolResult("echo", result);
  assert.deepEqual(wholeToolResult(result), {
    content: result.content,
    isError: false,
    _meta: { id: 1 },
    notes: [],
  });
  const disagreeing = {
    content: [text("bye")],
    structuredContent: { echoed: "hi" },
    isError: true,
  };
  checkToolResult("echo", disagreeing, { outputSchema: ECHOED });
  const whole = wholeToolResult(disagreeing);
  assert.equal(whole.isError, true);
  assert.deepEqual(whole.structuredContent, { echoed: "hi" });
  assert.deepEqual(whole.notes, [
    `content[0]'s text does not agree with structuredContent: the text is "bye", the ` +
    `structuredContent "{\\"echoed\\":\\"hi\\"}"`,
  ]);
  assert.throws(
    () => checkToolResult("echo", { content: [], _meta: [] }),
    /"_meta" is not an object/,
  );
});

Deno.test("structuredContent must match the outputSchema, and be there", () => {
  const good = { content: [text('{"echoed":"hi"}')], structuredContent: { echoed: "hi" } };
  assert.equal(answer(good, ECHOED), '{"echoed":"hi"}');
  const bad = { content: [text('{"echoed":4}')], structuredContent: { echoed: 4 } };
  assert.throws(() => answer(bad, ECHOED), /\/echoed must be string/);
  assert.throws(() => answer({ content: [text("hi")] }, ECHOED), /no structuredContent/);
  const failed = { content: [text("it broke")], isError: true };
  assert.throws(() => answer(failed, ECHOED), ToolError);
  const notObject = { content: [text("[1]")], structuredContent: [1] };
  assert.throws(() => answer(notObject), /structuredContent is not an object/);
});

Deno.test("the text must agree with structuredContent, whatever its spacing", () => {
  const spaced = { content: [text('{ "echoed": "hi" }')], structuredContent: { echoed: "hi" } };
  assert.equal(answer(spaced, ECHOED), '{ "echoed": "hi" }');
  const other = { content: [text('{"echoed":"bye"}')], structuredContent: { echoed: "hi" } };
  assert.throws(
    () => answer(other, ECHOED),
    /does not agree with its structuredContent: content\[0\]'s text does not agree.*callToolResult\(\) gives the whole result/,
  );
  const number = { content: [text("4")], structuredContent: { echoed: "5" } };
  assert.throws(() => answer(number, ECHOED), /does not agree/);
  // One text of two that disagrees is enough.
  const second = { content: [text("hi"), text("bye")], structuredContent: { echoed: "hi" } };
  assert.throws(() => answer(second, ECHOED), /content\[1\]'s text does not agree/);
});

Deno.test("a text that is the JSON of a part of structuredContent agrees", () => {
  // server-memory's create_entities: the text is the JSON of structuredContent.entities.
  const entities = [{ name: "Ada", entityType: "person", observations: [] }];
  const created = {
    content: [text(JSON.stringify(entities, null, 2))],
    structuredContent: { entities },
  };
  assert.equal(answer(created), JSON.stringify(entities, null, 2));
  // server-filesystem's directory_tree: the text is JSON, and exactly structuredContent.content.
  const tree = JSON.stringify([{ name: "a.txt", type: "file" }], null, 2);
  assert.equal(answer({ content: [text(tree)], structuredContent: { content: tree } }), tree);
  // A string inside it, whole, is its text for people.
  assert.equal(answer({ content: [text("4")], structuredContent: { echoed: "4" } }), "4");
});

Deno.test("a text for people agrees only when structuredContent holds it whole", () => {
  // The published filesystem server answers list_directory with the listing as text and as
  // { content: listing }: the same answer, for people and for programs.
  const listing = { content: [text("[DIR] bin")], structuredContent: { echoed: "[DIR] bin" } };
  assert.equal(answer(listing, ECHOED), "[DIR] bin");
  const prose = { content: [text("bye")], structuredContent: { echoed: "hi" } };
  assert.throws(() => answer(prose, ECHOED), /does not agree/);
  const part = { content: [text("h")], structuredContent: { echoed: "hi" } };
  assert.throws(() => answer(part, ECHOED), /does not agree/);
});

Deno.test("structuredContent without text is given as its JSON", () => {
  assert.equal(answer({ content: [], structuredContent: { echoed: "hi" } }), '{"echoed":"hi"}');
  assert.throws(() => answer({ content: [] }), /has no text content/);
});
