// denoGrants against the real thing: for each list of flags, a probe run with
// those flags asks Deno's own permission checks about files, links,
// variables, hosts and programs, and every answer must be what the grants
// denoGrants computed say. This is what lets the autograder judge a
// learner's flags without running them.

import assert from "node:assert/strict";
import { type DenoGrants, denoGrants } from "./deno_grants.ts";

const root = await Deno.makeTempDir({ prefix: "deno-grants-" });
const DATA = `${root}/data`;
const HOME = `${root}/home`;
await Deno.mkdir(`${DATA}/deep`, { recursive: true });
await Deno.mkdir(HOME);
await Deno.writeTextFile(`${HOME}/secret`, "s");
await Deno.writeTextFile(`${DATA}/note.txt`, "n");
await Deno.symlink(`${HOME}/secret`, `${DATA}/link`);
globalThis.addEventListener("unload", () => Deno.removeSync(root, { recursive: true }));

/** What the probe asks about: a kind of permission and an entry of it. */
const PROBES: [keyof DenoGrants, string][] = [
  ["read", `${DATA}/note.txt`],
  ["read", `${DATA}/link`],
  ["read", `${DATA}/deep`],
  ["read", `${HOME}/secret`],
  ["read", "/etc/hostname"],
  ["write", `${DATA}/note.txt`],
  ["write", `${DATA}/link`],
  ["write", `${HOME}/secret`],
  ["env", "TZ"],
  ["env", "HOME"],
  ["net", "127.0.0.1:8080"],
  ["net", "127.0.0.1:22"],
  ["net", "example.com:443"],
  ["run", "/usr/bin/git"],
  ["run", "sh"],
  ["sys", "hostname"],
  ["ffi", `${DATA}/lib.so`],
];

// A host is asked of a real connection: Deno's permission query says yes to
// 127.0.0.1:8080 under --deny-net --allow-net=127.0.0.1:8080, where a
// connection is stopped.
const PROBE = `
const probes = JSON.parse(Deno.args[0]);
const descriptor = ([name, entry]) =>
  name === "env" ? { name, variable: entry }
  : name === "run" ? { name, command: entry }
  : name === "sys" ? { name, kind: entry }
  : { name, path: entry };
async function connects(host) {
  const [, hostname, port] = host.match(/^(.*):(\\d+)$/);
  try {
    const connected = Deno.connect({ hostname, port: Number(port) }).then((c) => c.close());
    await Promise.race([connected, new Promise((done) => setTimeout(done, 2000))]);
    return true;
  } catch (error) {
    return !(error instanceof Deno.errors.NotCapable);
  }
}
const answers = [];
for (const probe of probes) {
  answers.push(probe[0] === "net" ? await connects(probe[1])
    : Deno.permissions.querySync(descriptor(probe)).state === "granted");
}
console.log(JSON.stringify(answers));
Deno.exit(0);
`;

/** What Deno itself says `flags` allow, probe by probe. */
async function actual(flags: string[]): Promise<boolean[]> {
  const script = `${root}/probe.js`;
  await Deno.writeTextFile(script, PROBE);
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-config",
      "--quiet",
      "--no-prompt",
      ...flags,
      script,
      JSON.stringify(PROBES),
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(success, new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout));
}

/** What `grants` say about one entry: the most specific entry that covers it decides. */
function permits(grants: DenoGrants, kind: keyof DenoGrants, entry: string): boolean {
  let best: { depth: number; allows: boolean } | undefined;
  for (const granted of grants[kind]) {
    const allows = !granted.startsWith("except ");
    const name = granted.replace(/^except /, "");
    const depth = name === "everything" ? -1 : name === "/" ? 0 : name.split(/[/:]/).length;
    const covers = name === "everything" || name === "/" || name === entry ||
      entry.startsWith(`${name}/`) ||
      (kind === "net" && entry.startsWith(`${name}:`));
    if (covers && (best === undefined || depth > best.depth)) best = { depth, allows };
  }
  return best?.allows ?? false;
}

const FLAG_SETS: string[][] = [
  [],
  [`--allow-read=${DATA}`],
  [`--allow-read=${DATA}`, `--deny-read=${DATA}/link`, `--deny-write=${DATA}/link`],
  ["--deny-read", `--allow-read=${DATA}`],
  ["--allow-read", `--deny-read=${DATA}`],
  [`--allow-read=${root}`, `--deny-read=${HOME}`],
  [`--allow-read=${DATA}/deep`, `--deny-read=${DATA}`],
  [`--allow-read=${DATA}`, `--deny-read=${DATA}`],
  ["-A", `--deny-read=${HOME}`, "--deny-net"],
  [`-R=${DATA}`, `-W=${DATA}`, "--deny-write", `--deny-write=${DATA}/link`],
  [`--allow-read=${DATA}`, `--allow-read=${HOME}`, `--deny-read=${HOME}/secret`],
  ["--allow-env=TZ", "--deny-net", "--allow-net=127.0.0.1:8080", "--deny-run"],
  ["--allow-net=127.0.0.1", "--deny-net=127.0.0.1:22", "-E", "--deny-env=HOME"],
  ["--allow-run=/usr/bin/git", "--allow-sys", "--deny-sys=hostname", `--allow-ffi=${DATA}`],
  ["--allow-net", "--deny-net=example.com", "--allow-env", "--deny-env"],
  // The root is less specific than a folder one part below it (they were weighed as equals).
  ["--allow-read=/", `--deny-read=/${root.split("/")[1]}`, `--allow-read=${DATA}`],
];

for (const flags of FLAG_SETS) {
  Deno.test(`denoGrants says what Deno allows: ${flags.join(" ") || "(no flags)"}`, async () => {
    const grants = denoGrants(flags);
    const predicted = PROBES.map(([kind, entry]) => permits(grants, kind, entry));
    const seen = await actual(flags);
    const wrong = PROBES.map(([kind, entry], i) =>
      `${kind} ${entry}: Deno says ${seen[i] ? "yes" : "no"}`
    )
      .filter((_, i) => predicted[i] !== seen[i]);
    assert.deepEqual(wrong, [], JSON.stringify(grants));
  });
}

Deno.test("denoGrants refuses what Deno refuses, or what it cannot judge", () => {
  for (
    const flags of [
      ["--allow-read=/a,,b"],
      ["--allow-read="],
      ["--allow-read=relative/path"],
      ["-A", "--allow-read=/x"],
      ["--allow-read=/x", "server.ts"],
      ["--config=deno.json"],
      ["-A=1"],
      [1],
    ]
  ) {
    assert.throws(() => denoGrants(flags), TypeError, JSON.stringify(flags));
  }
  assert.throws(() => denoGrants("--allow-read"), TypeError);
  // One problem, in one sentence: the entry Deno refuses.
  assert.throws(
    () => denoGrants(["--allow-write="]),
    TypeError,
    "--allow-write= has an empty entry, which Deno refuses",
  );
});

Deno.test("a path named twice, or with a trailing slash, is the same grant", () => {
  assert.deepEqual(
    denoGrants([`--allow-read=${DATA}/`, `--allow-read=${DATA}`, "--no-remote"]),
    denoGrants([`--allow-read=${DATA}`, "--no-remote"]),
  );
  assert.deepEqual(denoGrants(["--allow-import=jsr.io", "-I=jsr.io"]).import, ["jsr.io"]);
  assert.deepEqual(denoGrants(["-A", "--no-remote"]).import, []);
  // Measured: Deno takes --allow-all with any value as --allow-all.
  assert.deepEqual(denoGrants(["--allow-all=false"]), denoGrants(["-A"]));
});

Deno.test("denoGrants reads spellings as Deno 2.9.6 does (tests/deno_grants_differential_test.ts measured each)", () => {
  // A flag given with and without a value: only the values count.
  assert.deepEqual(denoGrants(["--allow-read", "-R=/data"]).read, ["/data"]);
  assert.deepEqual(denoGrants(["--deny-read", "--deny-read=/a", "--allow-read"]).read, [
    "everything",
    "except /a",
  ]);
  // A variable name's prefix, and the longer prefix, then the name, the more specific.
  assert.deepEqual(
    denoGrants(["--allow-env=A*", "--deny-env=AB*", "--allow-env=ABC"]).env,
    [
      "A*",
      "except AB*",
      "ABC",
    ].sort(),
  );
  assert.deepEqual(denoGrants(["--allow-env=*", "--deny-env"]).env, ["everything"]);
  // Hosts in one spelling; a denied address wins, and --deny-net stops every connection.
  assert.deepEqual(denoGrants(["--allow-net=LOCALHOST:0080,[0:0::1]:80"]).net, [
    "[::1]:80",
    "localhost:80",
  ]);
  assert.deepEqual(denoGrants(["--allow-net=127.0.0.1:80", "--deny-net=127.0.0.1"]).net, []);
  assert.deepEqual(denoGrants(["--deny-net", "--allow-net=127.0.0.1:80"]).net, []);
  assert.deepEqual(denoGrants(["--allow-net=localhost", "--deny-net=127.0.0.1"]).net, [
    "except 127.0.0.1",
    "localhost",
  ]);
  // A program's folder denied denies what is in it; an empty --deny-run entry is skipped.
  assert.deepEqual(denoGrants(["--allow-run=/usr/bin/git", "--deny-run=/usr/bin"]).run, []);
  assert.deepEqual(denoGrants(["--allow-run=/usr/bin/../bin/git/", "--deny-run="]).run, [
    "/usr/bin/git",
  ]);
  assert.deepEqual(denoGrants(["--allow-sys=username"]).sys, ["userInfo"]);
  assert.deepEqual(
    denoGrants(["--allow-import=127.0.0.1:8000", "--deny-import=127.0.0.1"]).import,
    [],
  );
  for (
    const flags of [
      ["-A", "-I"],
      ["--allow-sys=foo"],
      ["--allow-env=A=B"],
      ["--allow-run=git"],
      ["--allow-net=*.example.com"],
      ["--allow-net=::1"],
      ["-RW"],
      ["-q=1"],
      ["--v8-flags=--help"],
      ["--deny-import=deno.land", "--frozen=x"],
    ]
  ) {
    assert.throws(() => denoGrants(flags), TypeError, JSON.stringify(flags));
  }
});
