import assert from "node:assert/strict";
import { NO_PREDICTION, Predictions, predictionsFor } from "./predictions.ts";

const questions = {
  calls: { ask: "How many calls?" },
  tools: { ask: "Which tools?", compare: "unordered" as const },
  reply: { ask: "Which reply?", compare: "json" as const },
  outcome: { ask: "How does it end?" },
};

Deno.test("each prediction is checked against what happened, and kept for the evidence", async () => {
  const predictions = new Predictions(questions);
  await predictions.record({
    calls: 0,
    tools: ["word_count", "place_purchase"],
    reply: '{ "id": "7", "jsonrpc": "2.0", "result": {} }',
    outcome: " protocolerror ",
  });
  await predictions.reveal("calls", 1);
  await predictions.reveal("tools", ["place_purchase", "word_count"]);
  await predictions.reveal("reply", '{"jsonrpc":"2.0","id":"7","result":{}}');
  await predictions.reveal("outcome", "ProtocolError");
  assert.deepEqual(predictions.list().map(({ name, matched }) => [name, matched]), [
    ["calls", false],
    ["tools", true],
    ["reply", true],
    ["outcome", true],
  ]);
});

Deno.test("a prediction declined, or a step not run, is null, never a match", async () => {
  const predictions = new Predictions(questions);
  await predictions.record({ calls: " No Prediction ", tools: ["a"] });
  assert.equal(await predictions.shown(["calls"], "the cell"), true);
  await predictions.reveal("calls", 0);
  assert.deepEqual(predictions.list().slice(0, 2), [
    { name: "calls", predicted: null, observed: 0, matched: null },
    { name: "tools", predicted: ["a"], observed: null, matched: null },
  ]);
});

Deno.test("a step waits for a prediction left as the starter has it, and may not reveal it", async () => {
  const predictions = new Predictions(questions);
  await predictions.record({ calls: undefined, tools: undefined });
  assert.equal(await predictions.shown(["calls", "tools"], "the cell"), false);
  await assert.rejects(predictions.reveal("calls", 0), /revealed "calls" before its prediction/);
  await predictions.record({ calls: 1, tools: NO_PREDICTION });
  assert.equal(await predictions.shown(["calls", "tools"], "the cell"), true);
});

Deno.test("an answer, once shown, stays shown, and the choice made before it stands", async () => {
  const predictions = new Predictions(questions);
  await predictions.record({ calls: NO_PREDICTION });
  await predictions.reveal("calls", 2);
  await predictions.record({ calls: undefined });
  assert.equal(await predictions.shown(["calls"], "the cell"), true);
  await predictions.record({ calls: 2 });
  assert.equal(predictions.list()[0].predicted, null);
});

Deno.test("a prediction written after its reveal does not replace the one made before", async () => {
  const predictions = new Predictions(questions);
  await predictions.record({ calls: 3 });
  await predictions.reveal("calls", 0);
  await predictions.record({ calls: 0 });
  assert.deepEqual(predictions.list()[0], {
    name: "calls",
    predicted: 3,
    observed: 0,
    matched: false,
  });
});

Deno.test("the same unit's predictions survive the cell that asks them being run again", async () => {
  const first = predictionsFor("unit-test", questions);
  await first.record({ calls: 2 });
  assert.equal(predictionsFor("unit-test", questions).list()[0].predicted, 2);
});

Deno.test("a name that is not a question is refused", async () => {
  const predictions = new Predictions(questions);
  await assert.rejects(predictions.record({ call: 1 }), /No question named call/);
  await assert.rejects(predictions.reveal("call", 1), TypeError);
});
