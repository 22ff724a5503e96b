// Round 20 of the red team, as a learner who holds the learners' release:
// Lab 04's SSE reader is withheld there, but the npm packages set-up installs
// are not, and the grading sandbox gave graded code every package of the
// course's import map (and any `npm:` specifier its lock file named). The MCP
// SDKs read a response's event stream with eventsource-parser's
// EventSourceParserStream, which neither exports; but the v2 client's
// transport builds one as soon as it is handed a stream, so a stand-in
// stream's `pipeThrough` is given the parser itself. An `sseData` that runs
// each text through it earned 28 of Lab 04's 29 sseData marks, hidden cases
// included, unflagged, whether it named the package by the import map's name
// or by an `npm:` specifier.
// Now the sandbox gives graded code no MCP SDK (the course's other packages,
// which honest code may use, stay: round 18's honest-imports): its import map
// does not name them, and its frozen lock file names no `npm:` specifier of
// them, so neither way loads; the learner is told, in one line, that an MCP
// SDK is not what graded code may import.
// Deno itself reads event streams: its EventSource, given a `data:` URL of
// the text, needs no permission, and an instance's own `dispatchEvent`, put
// in place before the stream opens, is handed every event whatever its type.
// An `sseData` of ten lines over it earned 28 of 29 sseData marks, hidden
// cases included, unflagged. Now a learner's realm has no EventSource, as it
// has no Worker (sandbox_worker.ts). Round 20b: playwright-core, which the
// sandbox still gave, bundles the v1 SDK, and its bundle loaded once what it
// reads (environment, OS release, files) was put in place: 28 of 29 again.
// Now the sandbox gives no playwright-core either. An honest classmate in
// the same class keeps every mark.

import assert from "node:assert/strict";
import { ROOT } from "../_grading.ts";
import { gradeClass, gradedMarks, LAB_04_OTHERS, report } from "../_seals.ts";

/** Lab 04 whose sseData runs each text through the SDK's parser, imported from `specifier`. */
const throughSdkParser = (specifier: string) =>
  `const { StreamableHTTPClientTransport } = await import(${JSON.stringify(specifier)});
let Parser;
const waiting = { getReader: () => ({ read: () => new Promise(() => {}) }) };
// Handed a stream, the transport pipes it through a new EventSourceParserStream at once.
new StreamableHTTPClientTransport(new URL("http://127.0.0.1:9/"))._handleSseStream(
  { pipeThrough: () => ({ pipeThrough: (parser) => { Parser = parser.constructor; return waiting; } }) },
  {},
  false,
);
export async function sseData(text) {
  const data = [];
  for await (const event of ReadableStream.from([text]).pipeThrough(new Parser())) {
    data.push(event.data);
  }
  return data;
}
${LAB_04_OTHERS}`;

/** The same, with the SDK that playwright-core (a package of the instructors' tools) bundles, from `specifier`. */
const throughPlaywrightsSdk = (specifier: string) =>
  throughSdkParser(specifier).replace(
    /^const \{ StreamableHTTPClientTransport \} = await import\((.*)\);$/m,
    "const { StreamableHTTPClientTransport } = (await import($1)).default;",
  );

/** Lab 04 whose sseData is the runtime's EventSource reading the text as a `data:` URL. */
const RUNTIME_EVENT_SOURCE = `export async function sseData(text) {
  const source = new EventSource("data:text/event-stream;base64," + new TextEncoder().encode(text).toBase64());
  const data = [];
  await new Promise((resolve) => {
    source.dispatchEvent = (event) => {
      if (event instanceof MessageEvent) data.push(event.data);
      else if (event.type === "error") resolve(); // the stream has ended, and would be opened again
      return true;
    };
  });
  source.close();
  return data;
}
${LAB_04_OTHERS}`;

/** Each import of an MCP SDK, by the package the learner is told it imports. */
const SDKS = {
  "sdk-v2-by-name": "@modelcontextprotocol/client",
  "sdk-v1-by-npm-specifier": "npm:@modelcontextprotocol/sdk@1",
  "sdk-v1-by-exact-npm-specifier": "npm:@modelcontextprotocol/sdk@1.32.2",
};

/**
 * The same, with what playwright-core's bundle reads as it loads put in
 * place first: an environment of its own, an OS release, and no file.
 */
const throughPlaywrightsSdkPrepared = (specifier: string) =>
  `import process from "node:process";
import os from "node:os";
import fs from "node:fs";
process.env = {};
os.release = () => "6.0";
const exists = fs.existsSync;
fs.existsSync = (path) => { try { return exists(path); } catch { return false; } };
${throughPlaywrightsSdk(specifier)}`;

/**
 * The SDK that playwright-core bundles. Its bundle reads the environment,
 * the OS release and files as it loads, which a realm may not: but what it
 * reads can be put in place first (an environment of its own, a release, no
 * file), and then it loaded, and earned sseData 28 of 29. Now the sandbox
 * gives graded code no playwright-core, as it gives no MCP SDK.
 */
const PLAYWRIGHT = {
  "sdk-bundled-in-playwright": () => throughPlaywrightsSdk("playwright-core/lib/utilsBundle"),
  "sdk-bundled-in-playwright-prepared": () =>
    throughPlaywrightsSdkPrepared("playwright-core/lib/utilsBundle"),
  "sdk-bundled-in-playwright-prepared-by-npm-specifier": () =>
    throughPlaywrightsSdkPrepared("npm:playwright-core@1.65.1/lib/utilsBundle"),
};

/** Lab 04 whose sseData is eventsource-parser, loaded by `load` (an expression of its module). */
const parserLoadedBy = (load: string) =>
  `const { createParser } = ${load};
export function sseData(text) {
  const data = [];
  createParser({ onEvent: (event) => data.push(event.data) }).feed(text);
  return data;
}
${LAB_04_OTHERS}`;

/**
 * An `npm:` specifier the sandbox's lock named, of a package with no
 * "exports" (ajv, ajv-formats, javascript-obfuscator), took a path that
 * climbed out of the package in Deno's npm cache, which a realm reads with no
 * permission: the SDKs' own eventsource-parser loaded so, and earned sseData
 * 28 of 29. The sandbox's lock now names only packages with an exports map
 * (tools/grading/closed_packages.ts).
 */
const CLIMBING = parserLoadedBy(
  `await import("npm:ajv@8.20.0/../../eventsource-parser/3.1.1/dist/index.js")`,
);

/** Where zod's module is in Deno's npm cache, the SSE parser's is beside it. */
const PARSER_BESIDE_ZOD =
  `new URL("../../eventsource-parser/3.1.1/dist/index.js", import.meta.resolve("npm:zod@4.6.7"))`;

/**
 * Ways to eventsource-parser that held (round 20b): into Deno's npm cache,
 * naming no package (a `file:` URL of a module there, node:module's
 * `require` of its path), and a `data:` module that names the package.
 */
const WAYS_THAT_HELD = {
  "data-url-naming-the-parser": parserLoadedBy(
    `await import("data:text/javascript," + encodeURIComponent('export * from "npm:eventsource-parser@3.1.1";'))`,
  ),
  "file-url-of-the-cache": parserLoadedBy(`await import(${PARSER_BESIDE_ZOD})`),
  "require-of-the-cache": parserLoadedBy(
    `(await import("node:module")).createRequire(import.meta.url)(${PARSER_BESIDE_ZOD}.href.slice("file://".length).replace(/js$/, "cjs"))`,
  ),
};

/** A package the sandbox does not give, imported at run time and the failure caught, as careful code does. */
const CAUGHT_IMPORT = `export function sseData(text) {
  return [...text.matchAll(/^data: (.*)$/gm)].map((match) => match[1]);
}
try {
  await import(["ajv", "formats"].join("-"));
} catch {
  // Without it, the checks go on.
}
${LAB_04_OTHERS}`;

const list = await gradeClass({
  "climbing-out-of-ajv": { file: "lab-04.ts", module: () => CLIMBING },
  "caught-import": { file: "lab-04.ts", module: () => CAUGHT_IMPORT },
  ...Object.fromEntries(
    Object.entries(WAYS_THAT_HELD).map((
      [name, code],
    ) => [name, { file: "lab-04.ts", module: () => code }]),
  ),
  ...Object.fromEntries(
    Object.entries(SDKS).map(([name, from]) => [name, {
      file: "lab-04.ts",
      module: () =>
        throughSdkParser(from.startsWith("npm:") ? `${from}/client/streamableHttp.js` : from),
    }]),
  ),
  "runtime-event-source": { file: "lab-04.ts", module: () => RUNTIME_EVENT_SOURCE },
  ...Object.fromEntries(
    Object.entries(PLAYWRIGHT).map(([name, module]) => [name, { file: "lab-04.ts", module }]),
  ),
  "honest-classmate": {
    file: "lab-04.ipynb",
    module: () => Deno.readTextFile(`${ROOT}solutions/lab-04.ipynb`),
  },
});

Deno.test("the runtime's EventSource earns sseData nothing: a learner's realm has none", () => {
  const { results, marks } = gradedMarks(list, "runtime-event-source", "sseData");
  assert.ok(marks.every((t) => t.score === 0), report(results, "sseData"));
  assert.match(marks[0].output ?? "", /EventSource is not defined/);
});

for (const [name, from] of Object.entries(SDKS)) {
  Deno.test(`${name}: the MCP SDK's SSE parser earns sseData nothing, and the learner is told which package and why in one line`, () => {
    const { results, marks } = gradedMarks(list, name, "sseData");
    assert.ok(marks.every((t) => t.score === 0), report(results, "sseData"));
    const said = marks[0].output ?? "";
    assert.ok(
      said.endsWith(
        `it imports ${from}, an MCP SDK: graded code may import none, since their clients do what the units have you write`,
      ),
      said,
    );
    assert.doesNotMatch(said, /lockfile|\n\s+at /);
  });
}

for (const name of Object.keys(PLAYWRIGHT)) {
  Deno.test(`${name}: the SDK bundled in playwright-core does not load where work is graded, and earns sseData nothing`, () => {
    const { results, marks } = gradedMarks(list, name, "sseData");
    assert.ok(marks.every((t) => t.score === 0), report(results, "sseData"));
    assert.match(
      marks[0].output ?? "",
      /it imports (npm:)?playwright-core\S*, an npm package the course does not give/,
    );
  });
}

Deno.test("a path climbing out of an npm package earns sseData nothing: the sandbox names no package without an exports map", () => {
  const { results, marks } = gradedMarks(list, "climbing-out-of-ajv", "sseData");
  assert.ok(marks.every((t) => t.score === 0), report(results, "sseData"));
  assert.match(
    marks[0].output ?? "",
    /it imports npm:ajv@8\.20\.0, an npm package the course does not give/,
  );
});

for (const name of Object.keys(WAYS_THAT_HELD)) {
  Deno.test(`${name}: eventsource-parser, which the lock does not name, earns sseData nothing`, () => {
    const { results, marks } = gradedMarks(list, name, "sseData");
    assert.ok(marks.every((t) => t.score === 0), report(results, "sseData"));
  });
}

Deno.test("a package the sandbox does not give, imported at run time, is named in one line, with nothing of Deno's lock file", () => {
  const { marks } = gradedMarks(list, "caught-import", "sseData");
  const said = marks.find((t) => t.score === 0)?.output ?? "";
  assert.match(said, /it imports npm:ajv-formats@3\.0\.1, an npm package the course does not give/);
  assert.doesNotMatch(said, /lockfile|frozen/);
});

Deno.test("the honest classmate keeps every mark of Lab 04 beside them", () => {
  const { results } = gradedMarks(list, "honest-classmate", "sseData");
  const lost = results.tests.filter((t) => t.score !== t.max_score);
  assert.deepEqual(lost.map((t) => `${t.name}: ${t.output}`), []);
});
