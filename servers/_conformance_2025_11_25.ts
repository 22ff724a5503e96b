// The conformance server's tools for what 2025-11-25 added: a tool whose input
// schema is JSON Schema 2020-12 ($schema, $defs, $ref: SEP-1613; and since
// 2026-07-28 allOf, anyOf, if/then/else and $anchor: SEP-2106), and two
// that ask the client (elicitation) with defaults for every primitive type
// (SEP-1034) and with the five kinds of enum (SEP-1330), each answering with
// what the client said.

import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import type { SessionTool } from "../lib/mcp/server/session_spec.ts";

/** A tool that asks the client (`elicitation/create`) with `properties`, and reports its answer. */
function asking(name: string, description: string, properties: JsonObject): SessionTool {
  return {
    name,
    description,
    inputSchema: { type: "object", properties: {} },
    run: async (_args, context) => {
      if (!("elicitation" in context.clientCapabilities)) {
        const said = "The client did not declare the elicitation capability";
        return { content: [{ type: "text", text: said }], isError: true };
      }
      const answer = await context.request("elicitation/create", {
        message: `Please answer (${name})`,
        requestedSchema: { type: "object", properties },
      });
      const said = `Elicitation completed: action=${answer.action}, content=${
        JSON.stringify(answer.content ?? {})
      }`;
      return { content: [{ type: "text", text: said }], isError: false };
    },
  };
}

const OPTIONS = ["option1", "option2", "option3"];

/** The three tools, as the suite's scenarios name them. */
export const TOOLS_2025_11_25: SessionTool[] = [
  {
    name: "json_schema_2020_12_tool",
    description: "Tool with JSON Schema 2020-12 features",
    // 2026-07-28 (SEP-2106) allows every 2020-12 keyword: composition, conditions, $anchor.
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: {
        address: {
          $anchor: "addressDef",
          type: "object",
          properties: { street: { type: "string" }, city: { type: "string" } },
        },
      },
      properties: {
        name: { type: "string" },
        address: { $ref: "#/$defs/address" },
        contactMethod: { type: "string", enum: ["phone", "email"] },
        phone: { type: "string" },
        email: { type: "string" },
      },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
      then: { required: ["phone"] },
      else: { required: ["email"] },
      additionalProperties: false,
    },
    run: (args) =>
      Promise.resolve({ content: [{ type: "text", text: JSON.stringify(args) }], isError: false }),
  },
  asking("test_elicitation_sep1034_defaults", "Asks with a default for every primitive type.", {
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
  }),
  asking("test_elicitation_sep1330_enums", "Asks with each kind of enum.", {
    untitledSingle: { type: "string", enum: OPTIONS },
    titledSingle: {
      type: "string",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
        { const: "value3", title: "Third Option" },
      ],
    },
    legacyEnum: {
      type: "string",
      enum: ["opt1", "opt2", "opt3"],
      enumNames: ["Option One", "Option Two", "Option Three"],
    },
    untitledMulti: { type: "array", items: { type: "string", enum: OPTIONS } },
    titledMulti: {
      type: "array",
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
          { const: "value3", title: "Third Choice" },
        ],
      },
    },
  }),
];
