/**
 * `deno task conformance`: the official MCP conformance suite
 * (`@modelcontextprotocol/conformance`, on the Node 22 it needs, all pinned
 * in `tools/conformance/package-lock.json` and installed there with `npm ci`
 * when missing) as the judge of the course's library, natively over
 * Streamable HTTP, at each of {@linkcode SPEC_VERSIONS}, with the suite
 * {@linkcode SUITES} names for it (0.1.16, the suite's latest tag, for the
 * legacy versions; 0.2.0-alpha.12 for 2026-07-28): every server scenario of
 * that `--spec-version` against `servers/conformance.ts`, and every client
 * scenario against `tools/conformance_client.ts`. It prints each scenario's
 * verdict and exits 1 when any failed that {@linkcode EXPECTED_FAILURES}
 * does not name, or one it names passed (the list must shrink as the
 * library grows). A run of every version records its counts in
 * `lib/course/conformance_verdict.json`, the verdict Lab 04 shows and the
 * learners' release ships.
 *
 *     deno task conformance                # every version
 *     deno task conformance 2026-07-28     # one
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import {
  type ConformanceVerdict,
  VERDICT_FILE,
  type VersionVerdict,
} from "../lib/course/conformance_verdict.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SUITE_DIR = `${ROOT}tools/conformance/`;
/** The specification versions the suite judges the library at. */
export const SPEC_VERSIONS = ["2025-06-18", "2025-11-25", "2026-07-28"] as const;

/** The suite that judges each version: its npm alias in `tools/conformance/package.json`. */
export const SUITES: Readonly<Record<typeof SPEC_VERSIONS[number], string>> = {
  "2025-06-18": "conformance-0.1",
  "2025-11-25": "conformance-0.1",
  "2026-07-28": "conformance-0.2",
};

/** The suite `alias` names: its entry point. */
const suitePath = (alias: string) => `${SUITE_DIR}node_modules/${alias}/dist/index.js`;

/**
 * The scenarios known to fail, as `VERSION SIDE NAME`, with the reason. The
 * suite's own `--expected-failures` is not used: for a client it judges by
 * the checks alone, and takes a client that crashed after them for a pass.
 */
export const EXPECTED_FAILURES: Readonly<Record<string, string>> = {};

/** The pinned Node binary for this machine, from its npm platform package. */
function nodeBinary(): string {
  const arch = { x86_64: "x64", aarch64: "arm64" }[Deno.build.arch as string];
  if (Deno.build.os !== "linux" || arch === undefined) {
    throw new Error(`No pinned Node 22 for ${Deno.build.os} on ${Deno.build.arch}`);
  }
  return `${SUITE_DIR}node_modules/node-linux-${arch}/bin/node`;
}

/** Install the suites and Node with npm ci, exactly as locked, unless they are there. */
async function install(): Promise<void> {
  const wanted = [...new Set(Object.values(SUITES)).values().map(suitePath), nodeBinary()];
  const present = (await Promise.all(
    wanted.map((path) => Deno.stat(path).then(() => true, () => false)),
  )).every(Boolean);
  if (present) return;
  console.error("conformance: installing the pinned suite and Node 22 from the npm registry");
  const { success } = await new Deno.Command("npm", {
    args: [
      "ci",
      "--prefix",
      SUITE_DIR,
      "--ignore-scripts",
      "--no-fund",
      "--no-audit",
      "--loglevel=error",
    ],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!success) throw new Error("npm ci failed in tools/conformance/");
}

/** Run the suite `alias` with `args`, from `cwd`; its exit status and everything it printed. */
async function suite(
  alias: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await new Deno.Command(nodeBinary(), {
    args: [suitePath(alias), ...args],
    cwd,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code, output: decoder.decode(stdout) + decoder.decode(stderr) };
}

/** Each scenario's verdict from the suite's summary lines (`✓ name: …` or `✗ name: …`). */
export function verdicts(output: string): Map<string, boolean> {
  const found = new Map<string, boolean>();
  for (const match of output.matchAll(/^([✓✗]) ([^\s:]+): (.*)$/gmu)) {
    found.set(match[2], match[1] === "✓");
  }
  return found;
}

/** Start the fixture server on a free port; its URL, and how to stop it. */
async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", `${ROOT}servers/conformance.ts`, "--port", "0"],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/listening on (\S+)/.test(text)) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`The conformance server did not start: ${text}`);
    text += value;
  }
  void (async () => {
    while (!(await lines.read()).done) { /* keep its stderr drained */ }
  })();
  return {
    url: /listening on (\S+)/.exec(text)![1],
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** Run every scenario of `version`, both sides: whether any verdict was unexpected, and the counts. */
async function judge(
  version: typeof SPEC_VERSIONS[number],
): Promise<{ failed: boolean; verdict: VersionVerdict }> {
  const alias = SUITES[version];
  const server = await startServer();
  let served: { code: number; output: string };
  try {
    served = await suite(
      alias,
      ["server", "--url", server.url, "--spec-version", version, "--suite", "all"],
      ROOT,
    );
  } finally {
    await server.stop();
  }
  // One scenario at a time: only then does the suite count a client that failed or hung
  // (its summary of a suite counts checks alone). The suite splits the command at spaces and
  // runs it with a shell: the client's path is relative to the root, so no folder is split.
  const client = [
    Deno.execPath(),
    "run",
    "--allow-net=localhost,127.0.0.1",
    "--allow-env=MCP_CONFORMANCE_SCENARIO,MCP_CONFORMANCE_CONTEXT,MCP_CONFORMANCE_PROTOCOL_VERSION",
    "tools/conformance_client.ts",
  ].join(" ");
  const listed = await suite(alias, ["list", "--client", "--spec-version", version], ROOT);
  const names = [...listed.output.matchAll(/^\s+- (\S+) \[/gm)].map((match) => match[1]);
  const runs = [];
  for (const name of names) {
    const run = await suite(alias, [
      "client",
      "--command",
      client,
      "--scenario",
      name,
      "--spec-version",
      version,
    ], ROOT);
    // The suite judges a client by its checks alone; a client that failed its own work fails too.
    const ok = run.code === 0 && /OVERALL: PASSED/.test(run.output) &&
      !/Client exited with code [1-9]/.test(run.output);
    runs.push(`${ok ? "✓" : "✗"} ${name}: ${ok ? "passed" : "failed"}\n${run.output}`);
  }
  const called = { code: 0, output: runs.join("\n") };
  let failed = false;
  const verdict = { server: "", client: "" };
  for (const [side, run] of [["server", served], ["client", called]] as const) {
    const results = verdicts(run.output);
    const passed = [...results.values()].filter(Boolean).length;
    verdict[side] = `${passed} of ${results.size} passed`;
    console.log(`${side} scenarios (${version}): ${verdict[side]}`);
    let unexpected = results.size === 0;
    for (const [name, ok] of results) {
      const expected = EXPECTED_FAILURES[`${version} ${side} ${name}`];
      if (!ok && expected !== undefined) console.log(`  ✗ ${name} (expected: ${expected})`);
      else if (!ok) console.log(`  ✗ ${name}`);
      else if (expected !== undefined) {
        console.log(`  ✓ ${name} passes now: remove it from EXPECTED_FAILURES`);
      }
      if (ok === (expected !== undefined)) unexpected = true;
    }
    if (unexpected) {
      failed = true;
      console.log(run.output.split("\n").slice(-60).join("\n"));
    }
  }
  return { failed, verdict };
}

if (import.meta.main) {
  await install();
  const unknown = Deno.args.filter((version) =>
    !(SPEC_VERSIONS as readonly string[]).includes(version)
  );
  if (unknown.length > 0) {
    console.error(
      `conformance: no suite for ${unknown.join(", ")}; versions: ${SPEC_VERSIONS.join(", ")}`,
    );
    Deno.exit(2);
  }
  const asked =
    (Deno.args.length === 0 ? [...SPEC_VERSIONS] : Deno.args) as typeof SPEC_VERSIONS[number][];
  let failed = false;
  const versions: Record<string, VersionVerdict> = {};
  for (const version of asked) {
    const judged = await judge(version);
    failed ||= judged.failed;
    versions[version] = judged.verdict;
  }
  // A run of every version is the verdict Lab 04 shows, and the learners' release ships.
  if (Deno.args.length === 0) {
    const judged: string[] = [];
    for (const alias of new Set(Object.values(SUITES))) {
      const { version } = JSON.parse(
        await Deno.readTextFile(`${SUITE_DIR}node_modules/${alias}/package.json`),
      );
      const of = SPEC_VERSIONS.filter((spec) => SUITES[spec] === alias);
      judged.push(`${version} (${of.join(", ")})`);
    }
    const recorded: ConformanceVerdict = {
      suite: `@modelcontextprotocol/conformance ${judged.join(" and ")}`,
      versions,
    };
    await Deno.writeTextFile(VERDICT_FILE, JSON.stringify(recorded, null, 2) + "\n");
  }
  Deno.exit(failed ? 1 : 0);
}
