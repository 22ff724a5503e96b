import assert from "node:assert/strict";
import { checkPromptArguments, checkPromptResult, promptProblem } from "./prompts.ts";

const text = (text: unknown) => ({ type: "text", text });

Deno.test("promptProblem holds a prompt and its arguments to the specification's Prompt", () => {
  assert.equal(
    promptProblem({
      name: "p",
      title: "P",
      arguments: [{ name: "a", required: false, description: "d" }],
    }),
    undefined,
  );
  const cases: [unknown, RegExp][] = [
    ["p", /not an object/],
    [{}, /with a "name" that is not a string/],
    [{ name: "p", description: 1 }, /with a "description" that is not a string/],
    [{ name: "p", _meta: 1 }, /"_meta" is not an object/],
    [{ name: "p", arguments: {} }, /arguments are not a list/],
    [{ name: "p", arguments: [1] }, /arguments\[0\] is not an object/],
    [
      { name: "p", arguments: [{ title: "a" }] },
      /arguments\[0\] has a "name" that is not a string/,
    ],
  ];
  for (const [prompt, expected] of cases) {
    assert.match(promptProblem(prompt) ?? "(well formed)", expected, JSON.stringify(prompt));
  }
});
Deno.test("checkPromptResult gives the messages back, each role and item checked", () => {
  const messages = [
    { role: "user", content: text("What is the weather in Austin?") },
    { role: "assistant", content: { type: "resource", resource: { uri: "a://1", text: "sunny" } } },
  ];
  assert.deepEqual(checkPromptResult("weather", { description: "d", messages }), {
    description: "d",
    messages,
  });
  assert.deepEqual(checkPromptResult("weather", { messages: [] }), { messages: [] });
  const cases: [object, RegExp][] = [
    [{}, /for weather is malformed: it has no messages list/],
    [{ messages, description: 4 }, /"description" is not a string/],
    [
      { messages: [{ content: text("x") }] },
      /messages\[0\] has the role nothing, not "user" or "assistant"/,
    ],
    [
      { messages: [{ role: "user", content: text(4) }] },
      /messages\[0\].content is a text item whose "text" is not a string/,
    ],
    [{ messages: [{ role: "user", content: { type: "video" } }] }, /the type "video"/],
    [{ messages: [{ role: "user" }] }, /messages\[0\].content is not an object/],
  ];
  for (const [result, expected] of cases) {
    assert.throws(() => checkPromptResult("weather", result as never), expected);
  }
});

Deno.test("checkPromptArguments refuses before asking: an unlisted prompt, or arguments that do not fit", () => {
  const prompts = {
    weather: { name: "weather", arguments: [{ name: "city", required: true }, { name: "state" }] },
    simple: { name: "simple" },
  };
  checkPromptArguments(prompts, "weather", { city: "Austin", state: "Texas" });
  checkPromptArguments(prompts, "simple", {});
  // An argument the prompt does not declare is the server's to judge: the specification is silent.
  checkPromptArguments(prompts, "simple", { extra: "x" });
  assert.throws(() => checkPromptArguments(prompts, "weather", { state: "Texas" }), /missing city/);
  assert.throws(
    () => checkPromptArguments(prompts, "weather", { city: 5 }),
    /city must be a string/,
  );
  assert.throws(
    () => checkPromptArguments(prompts, "weather", null),
    /must be an object of strings/,
  );
  assert.throws(
    () => checkPromptArguments(prompts, "forecast", {}),
    /has not listed a prompt named "forecast"$/,
  );
});
