// The conformance server's tools and prompt for what 2026-07-28 added, as the
// suite's scenarios name them: tools that ask the client in multi round-trip
// requests (elicitation, sampling, roots, several at once, round after round, a
// prompt that asks too), one that needs a capability the client may not have
// declared (-32021), one that streams, one that logs, two that change the lists
// a subscription hears of, and one whose argument is mirrored into a header
// (x-mcp-header). Their questions go through `context.request`, which a modern
// request answers from the client's retry.

import type { JsonObject } from "../lib/mcp/shared/jsonrpc.ts";
import type { ChangeFeed } from "../lib/mcp/server/change_feed.ts";
import { promptReply, type ServerPrompt } from "../lib/mcp/server/prompt.ts";
import {
  type Handler,
  type RequestContext,
  RpcError,
  type SessionTool,
} from "../lib/mcp/server/session_spec.ts";

const NO_ARGUMENTS = { type: "object", properties: {} };
const text = (value: string) => ({ type: "text", text: value });
const said = (value: string) => ({ content: [text(value)], isError: false });

/** A form asking for one field, `field`, of `type` (a string unless said), with `message`. */
const form = (message: string, field: string, type = "string") => ({
  message,
  requestedSchema: {
    type: "object",
    properties: { [field]: { type } },
    required: [field],
  },
});

const SAMPLE = {
  messages: [{ role: "user", content: text("What is the capital of France?") }],
  maxTokens: 100,
};

/** What the client's answer to a form said, for a tool's text. */
const answered = (answer: JsonObject) => JSON.stringify(answer.content ?? answer.action);

/** A tool that takes no arguments and runs `run`. */
function tool(name: string, description: string, run: SessionTool["run"]): SessionTool {
  return { name, description, inputSchema: NO_ARGUMENTS, run };
}

/** A question to the client: its method, params, and the server's key for it. */
type Question = [method: string, params: JsonObject, key: string];

const NAME: Question = ["elicitation/create", form("What is your name?", "name"), "user_name"];
const CAPITAL: Question = ["sampling/createMessage", SAMPLE, "capital_of_france"];
const ROOTS: Question = ["roots/list", {}, "client_roots"];
// The suite answers it { ok: true }: a yes or no, which the server checks against the form.
const CONFIRM: Question = ["elicitation/create", form("Confirm?", "ok", "boolean"), "confirm"];

/** A tool that asks `question` (after `first`, if given), and says `reply` of the answer. */
function asking(
  name: string,
  description: string,
  question: Question,
  reply: (answer: JsonObject) => string,
  first?: (context: RequestContext) => void,
): SessionTool {
  return tool(name, description, async (_args, context) => {
    first?.(context);
    return said(reply(await context.request(...question)));
  });
}

/** The 2026-07-28 tools; `changes` is told when a tool says a list changed. */
export function tools20260728(changes: ChangeFeed): SessionTool[] {
  const model = (answer: JsonObject) => `The model said: ${JSON.stringify(answer.content)}`;
  return [
    asking(
      "test_input_required_result_elicitation",
      "Asks the user's name.",
      NAME,
      (answer) => `Hello, ${(answer.content as JsonObject | undefined)?.name ?? "stranger"}!`,
    ),
    asking("test_input_required_result_sampling", "Asks the client's model.", CAPITAL, model),
    asking(
      "test_input_required_result_list_roots",
      "Asks the client's roots.",
      ROOTS,
      (answer) => `Roots: ${JSON.stringify(answer.roots)}`,
    ),
    asking(
      "test_input_required_result_request_state",
      "Asks, and keeps state between rounds.",
      CONFIRM,
      (answer) => `state-ok: ${answered(answer)}`,
    ),
    asking(
      "test_input_required_result_tampered_state",
      "Asks, and keeps its state sealed.",
      CONFIRM,
      (answer) => `Sealed state verified: ${answered(answer)}`,
    ),
    asking(
      "test_missing_capability",
      "Needs the client's model, whether it declared sampling or not.",
      ["sampling/createMessage", SAMPLE, "model"],
      model,
    ),
    asking(
      "test_streaming_elicitation",
      "Reports progress, then asks the user.",
      NAME,
      (answer) => `Streamed, then answered: ${answered(answer)}`,
      (context) => context.progress(1, 2, "about to ask"),
    ),
    tool(
      "test_input_required_result_multiple_inputs",
      "Asks three things at once.",
      async (_args, context) => {
        const [name, capital, roots] = await Promise.all(
          [NAME, CAPITAL, ROOTS].map((question) => context.request(...question)),
        );
        return said(
          `All three: ${answered(name)}, ${JSON.stringify(capital.content)}, ${
            JSON.stringify(roots.roots)
          }`,
        );
      },
    ),
    tool(
      "test_input_required_result_multi_round",
      "Asks once, then asks again.",
      async (_args, context) => {
        const name = await context.request(
          "elicitation/create",
          form("What is your name?", "name"),
          "step1",
        );
        const color = await context.request(
          "elicitation/create",
          form("Your favourite color?", "color"),
          "step2",
        );
        return said(`Two rounds: ${answered(name)}, ${answered(color)}`);
      },
    ),
    tool(
      "test_input_required_result_capabilities",
      "Asks only what the client declared it can answer.",
      async (_args, context) => {
        const declared = (capability: string) => capability in context.clientCapabilities;
        const questions = [
          ...declared("sampling") ? [CAPITAL] : [],
          ...declared("elicitation") ? [NAME] : [],
        ];
        const answers = await Promise.all(
          questions.map((question) => context.request(...question)),
        );
        return said(`Asked ${answers.length} question(s)`);
      },
    ),
    tool(
      "test_logging_tool",
      "Logs while it runs, at the level the request asked for, if any.",
      (_args, context) => {
        context.log("info", "test_logging_tool ran", "conformance");
        return said("Logged (where the request asked for logs)");
      },
    ),
    tool("test_trigger_tool_change", "Tells subscribers the tool list changed.", () => {
      changes.toolsChanged();
      return said("Tool list changed");
    }),
    tool("test_trigger_prompt_change", "Tells subscribers the prompt list changed.", () => {
      changes.promptsChanged();
      return said("Prompt list changed");
    }),
    {
      name: "test_custom_header",
      description: "Echoes its region, which is mirrored into the Mcp-Param-Region header.",
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" } },
        required: ["region"],
      },
      run: ({ region }) => said(`Region: ${region}`),
    },
  ];
}

/**
 * `prompts/get`, as the library serves `prompts`, except for the prompt
 * `test_input_required_result_prompt`, which asks the client for context first.
 */
export function promptsWithQuestion(prompts: readonly ServerPrompt[]): Handler {
  return async (params: JsonObject, context: RequestContext) => {
    if (params.name === "test_input_required_result_prompt") {
      const answer = await context.request(
        "elicitation/create",
        form("What context should the prompt use?", "context"),
        "user_context",
      );
      return {
        messages: [{ role: "user", content: text(`Use this context: ${answered(answer)}`) }],
      };
    }
    const reply = promptReply(0, params, prompts);
    if (reply.error !== undefined) {
      const { code, message, data } = reply.error as {
        code: number;
        message: string;
        data?: unknown;
      };
      throw new RpcError(code, message, data);
    }
    return reply.result as JsonObject;
  };
}
