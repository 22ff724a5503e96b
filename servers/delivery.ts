/**
 * The operator's second server: one tool, `record_delivery`, which takes an
 * order id and a whole number of tubs, and nothing else. Each call it
 * receives is appended to its log, one JSON line each.
 *
 *     deno run --allow-write=LOG servers/delivery.ts --log LOG
 *
 * @module
 */

import { parseArgs } from "node:util";
import { serve, writeStderr } from "./_mcp_server.ts";

/** The schema `record_delivery` advertises. */
export const DELIVERY_SCHEMA = {
  type: "object",
  properties: {
    order_id: { type: "string", description: "The order being delivered, such as A-1043." },
    tubs: { type: "integer", minimum: 1, description: "How many tubs arrived." },
  },
  required: ["order_id", "tubs"],
  additionalProperties: false,
};

if (import.meta.main) {
  const { values } = parseArgs({ options: { log: { type: "string" } } });
  if (values.log === undefined) {
    writeStderr("delivery server: --log PATH is required\n");
    Deno.exit(2);
  }
  const log = Deno.openSync(values.log, { append: true, create: true });
  const encoder = new TextEncoder();
  serve({
    name: "delivery",
    version: "1.0.0",
    tools: [{
      name: "record_delivery",
      description: "Record that the tubs of an order have arrived.",
      inputSchema: DELIVERY_SCHEMA,
      call: ({ order_id, tubs }) =>
        typeof order_id === "string" && Number.isInteger(tubs) && Number(tubs) >= 1
          ? { text: `recorded ${tubs} tubs for order ${order_id}` }
          : {
            text: "order_id must be a string and tubs a whole number of at least 1",
            isError: true,
          },
    }],
    onCall: (name, args) =>
      log.writeSync(encoder.encode(JSON.stringify({ name, arguments: args }) + "\n")),
  });
}
