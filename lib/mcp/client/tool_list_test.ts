import assert from "node:assert/strict";
import { toolProblem } from "./tool_list.ts";

Deno.test("toolProblem holds a tool to the specification's Tool", () => {
  const schema = { type: "object" };
  assert.equal(
    toolProblem({
      name: "t",
      inputSchema: schema,
      outputSchema: schema,
      title: "T",
      annotations: { readOnlyHint: true },
    }),
    undefined,
  );
  const cases: [unknown, RegExp][] = [
    [[], /not an object/],
    [{ inputSchema: schema }, /"name" is not a string/],
    [{ name: "t" }, /inputSchema is not an object schema/],
    [{ name: "t", inputSchema: { type: "object", properties: { a: true } } }, /inputSchema is not/],
    [{ name: "t", inputSchema: { type: "object", required: "a" } }, /inputSchema is not/],
    [
      { name: "t", inputSchema: schema, outputSchema: { type: "array" } },
      /outputSchema is not an object schema/,
    ],
    [{ name: "t", inputSchema: schema, description: 3 }, /"description" is not a string/],
    [
      { name: "t", inputSchema: schema, annotations: { readOnlyHint: "yes" } },
      /annotations are not/,
    ],
    [{ name: "t", inputSchema: schema, annotations: [] }, /annotations are not/],
  ];
  for (const [tool, expected] of cases) {
    assert.match(toolProblem(tool) ?? "(well formed)", expected, JSON.stringify(tool));
  }
});
