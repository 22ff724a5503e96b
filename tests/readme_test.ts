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

/** Each command the hub and Gradescope sections give, and what the test that runs it holds. */
const RUN_BY_TESTS: [RegExp, string, string][] = [
  [/^sh tools\/setup\.sh hub$/, "tests/hub_test.ts", `args: ["tools/setup.sh", "hub"]`],
  [
    /^deno task hub --port \d+ --learners [a-z,]+$/,
    "tests/hub_test.ts",
    `"task", "-q", "hub", "--port", String(port), "--learners", learners.join(",")`,
  ],
  [
    /^deno task autograder --unit ch14-b --points 50 autograder\.zip$/,
    "tests/autograder_test.ts",
    `image("ch14-b", "--unit", "ch14-b", "--points", "50")`,
  ],
  [
    /^deno task similarity CLASS-FOLDER \[--json FILE\] \[--threshold 0\.65\]$/,
    "tests/similarity_test.ts",
    `"task", "-q", "similarity", folder, "--json", json`,
  ],
];

Deno.test("the README's hub, Gradescope and similarity sections give only commands that a test runs", async () => {
  const readme = await read("README.md");
  const hub = readme.slice(
    readme.indexOf("### Teaching a class on JupyterHub"),
    readme.indexOf("### One source, two editions"),
  );
  const gradescope = readme.slice(
    readme.indexOf("**The autograder package.**"),
    readme.indexOf("### How far the cases can be trusted"),
  );
  const commands = [...(hub + gradescope).matchAll(/```sh\n([^]*?)\n```/g)]
    .flatMap((match) => match[1].split("\n"));
  assert.equal(commands.length, 4, commands.join("\n"));
  for (const command of commands) {
    const known = RUN_BY_TESTS.find(([pattern]) => pattern.test(command));
    assert.ok(known, `no test runs: ${command}`);
    assert.ok((await read(known[1])).includes(known[2]), `${known[1]} no longer runs: ${command}`);
  }
});
