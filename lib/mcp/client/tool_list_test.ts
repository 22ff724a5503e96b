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

Deno.test("from 2026-07-28 a tool's outputSchema may be any JSON Schema object, as its structuredContent any value", () => {
  const tool = (outputSchema: unknown) => ({
    name: "t",
    inputSchema: { type: "object" },
    outputSchema,
  });
  assert.equal(
    toolProblem(tool({ type: "array", items: { type: "string" } }), "2026-07-28"),
    undefined,
  );
  assert.equal(toolProblem(tool({ type: "string" }), "2026-07-28"), undefined);
  assert.equal(toolProblem(tool({}), "2026-07-28"), undefined);
  assert.match(toolProblem(tool(true), "2026-07-28") ?? "", /outputSchema is not a JSON Schema/);
  assert.match(toolProblem(tool([]), "2026-07-28") ?? "", /outputSchema is not a JSON Schema/);
  for (const version of ["2025-06-18", "2025-11-25"] as const) {
    assert.match(
      toolProblem(tool({ type: "array" }), version) ?? "",
      /outputSchema is not an object/,
    );
  }
  // The input schema stays an object schema in every era.
  assert.match(
    toolProblem({ name: "t", inputSchema: { type: "array" } }, "2026-07-28") ?? "",
    /inputSchema is not an object schema/,
  );
});
