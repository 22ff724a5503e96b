// CI must prove the README: .ci/run runs the README's test command, word for word.

import assert from "node:assert/strict";

const read = (path: string) => Deno.readTextFile(new URL(`../${path}`, import.meta.url));

Deno.test("CI runs exactly the README's test command", async () => {
  const readme = await read("README.md");
  const commands = [...readme.matchAll(/```sh\n(.*)\n```/g)].map((match) => match[1]);
  const test = commands.find((command) => command.endsWith("deno task test"));
  assert.ok(test, "the README has no command ending in `deno task test`");
  const ci = (await read(".ci/run")).split("\n");
  assert.ok(ci.includes(test), `.ci/run does not run: ${test}`);
});

Deno.test("the README starts with the learner's way in, then the command that runs the course", async () => {
  const readme = await read("README.md");
  const commands = [...readme.matchAll(/```sh\n(.*)\n```/g)].map((match) => match[1]);
  assert.equal(commands[0], "sh tools/setup.sh && deno task lab");
  assert.ok(commands.includes("sh tools/setup.sh && deno task course"));
  assert.match(readme, /### When you are stuck/);
});
