// denoGrants against the real `deno run`, on flag lists a seeded generator
// makes: every kind's long and short flags, values and lists of them, empty
// values, flags repeated with and without values, allows and denies of the
// same entry, paths with `..`, `.`, trailing slashes, links, `~` and
// relative ones, prefixes of variable names (`A*`), hosts with and without
// ports, IPv6, wildcards and ranges, programs by name and by path, system
// names real and not, `--allow-all` in its spellings beside denies, imports,
// and flags that change nothing. Each line runs a probe under those flags
// that asks Deno's own permission checks about a fixed set of entries and
// imports a module from a server here; what denoGrants says must be what
// Deno does. A line Deno refuses to start must be refused by denoGrants, and
// a refusal that says Deno refuses the line is run to see that it does;
// other refusals ("cannot judge") are answers and not run. The numbers are
// printed.

import assert from "node:assert/strict";
import fc from "fast-check";
import { THIS_MACHINE } from "../lib/containment/command_grants.ts";
import { type DenoGrants, denoGrants } from "../lib/containment/deno_grants.ts";
import { SYS_NAMES } from "../lib/containment/_deno_entries.ts";

const LINES = 1500;
const SEED = 20261205;

const R = await Deno.makeTempDir({ dir: "/tmp", prefix: "deno-grants-differential-" });
await Deno.mkdir(`${R}/data/deep`, { recursive: true });
await Deno.mkdir(`${R}/home`);
await Deno.mkdir(`${R}/cache`);
await Deno.writeTextFile(`${R}/home/secret`, "s");
await Deno.writeTextFile(`${R}/data/note.txt`, "n");
await Deno.symlink(`${R}/home/secret`, `${R}/data/link`);
await Deno.symlink(`${R}/home`, `${R}/data/homelink`);

/** A module to import, served here: the import probe. */
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: () => {} },
  () => new Response("export default 1;", { headers: { "content-type": "text/javascript" } }),
);
const MODULE_HOST = `127.0.0.1:${server.addr.port}`;
globalThis.addEventListener("unload", () => Deno.removeSync(R, { recursive: true }));

/** The PATH the probes run with, through which Deno finds a program named without a path. */
const PATH = ["/usr/bin", "/bin"];

const PATHS = [
  R,
  `${R}/data`,
  `${R}/data/`,
  `${R}/data/deep`,
  `${R}/data/link`,
  `${R}/data/note.txt`,
  `${R}/home`,
  `${R}/home/secret`,
  `${R}/data/../home`,
  `${R}/data/./deep`,
  `${R}//data`,
  `${R}/data/homelink/..`,
  `${R}/d*`,
  "/",
  "data",
  "./data",
  "~/x",
];
const VALUES: Record<keyof DenoGrants, string[]> = {
  read: PATHS,
  write: PATHS,
  ffi: PATHS,
  env: ["TZ", "HOME", "A", "AB", "ABC", "A*", "AB*", "*", "A**", "a", "A=B"],
  net: [
    "127.0.0.1",
    "127.0.0.1:8080",
    "127.0.0.1:22",
    "localhost",
    "LOCALHOST",
    "localhost:80",
    "localhost:0080",
    "vm",
    "example.com",
    "[::1]",
    "[::1]:80",
    "[0:0::1]:80",
    "::1",
    "localhost:99999",
    "*.localhost",
    "127.0.0.1/8",
    ":80",
    "localhost:",
    "localhost.",
  ],
  run: ["/usr/bin/git", "/usr/bin/../bin/git", "/usr/bin/git/", "git", "sh", "/bin/sh", "/usr/bin"],
  sys: ["hostname", "uid", "userInfo", "username", "getegid", "osRelease", "foo"],
  import: [MODULE_HOST, "127.0.0.1", "127.0.0.1:1", "localhost", "[::1]"],
};
const SHORT: Partial<Record<keyof DenoGrants, string>> = {
  read: "-R",
  write: "-W",
  net: "-N",
  env: "-E",
  sys: "-S",
  import: "-I",
};

/**
 * What the probe asks Deno about, kind by kind. Hosts are addresses and names
 * /etc/hosts resolves: Deno checks a name's addresses too, after resolving it,
 * which a name this machine cannot resolve never reaches.
 */
const QUERIES: [keyof DenoGrants, string][] = [
  ...[
    `${R}/data/note.txt`,
    `${R}/data/link`,
    `${R}/data/deep`,
    `${R}/data`,
    `${R}/home/secret`,
    `${R}/home`,
    R,
    "/etc/hostname",
  ].flatMap((path): [keyof DenoGrants, string][] => [["read", path], ["write", path]]),
  ["ffi", `${R}/data/lib.so`],
  ["ffi", `${R}/home/lib.so`],
  ...["TZ", "HOME", "A", "AB", "ABC", "B", "a"].map((name) =>
    ["env", name] as [keyof DenoGrants, string]
  ),
  ...[
    "127.0.0.1:8080",
    "127.0.0.1:22",
    "[::1]:80",
    "[::1]:443",
    "localhost:80",
    "localhost:443",
    "vm:80",
  ].map((host) => ["net", host] as [keyof DenoGrants, string]),
  ...["/usr/bin/git", "/bin/sh", "/usr/bin/sh", "git", "sh"].map((p) =>
    ["run", p] as [keyof DenoGrants, string]
  ),
  ...[...SYS_NAMES, "username"].map((name) => ["sys", name] as [keyof DenoGrants, string]),
];

// Each answer is what an operation did: stopped by Deno's permissions or not. The four system
// names whose calls need more than --allow-sys are asked of Deno's permission check instead.
const PROBE = `
import os from "node:os";
import process from "node:process";
const [queries, module] = JSON.parse(Deno.args[0]);
const SYS = {
  hostname: () => Deno.hostname(), osRelease: () => Deno.osRelease(),
  osUptime: () => Deno.osUptime(), loadavg: () => Deno.loadavg(),
  networkInterfaces: () => Deno.networkInterfaces(), systemMemoryInfo: () => Deno.systemMemoryInfo(),
  uid: () => Deno.uid(), gid: () => Deno.gid(), cpus: () => os.cpus(), homedir: () => os.homedir(),
  getegid: () => process.getegid(), getPriority: () => os.getPriority(),
};
const stopped = (error) => error instanceof Deno.errors.NotCapable;
async function may([kind, entry]) {
  try {
    if (kind === "read") Deno.openSync(entry, { read: true }).close();
    else if (kind === "write") Deno.openSync(entry, { write: true }).close();
    else if (kind === "env") Deno.env.get(entry);
    else if (kind === "sys" && SYS[entry]) SYS[entry]();
    else if (kind === "sys") return Deno.permissions.querySync({ name: "sys", kind: entry }).state === "granted";
    else if (kind === "ffi") Deno.dlopen(entry, {});
    else if (kind === "run") {
      new Deno.Command(entry, { args: ["--version"], stdout: "null", stderr: "null" }).outputSync();
    } else if (kind === "net") {
      const [, hostname, port] = entry.match(/^\\[?(.*?)\\]?:(\\d+)$/);
      const connected = Deno.connect({ hostname, port: Number(port) }).then((c) => c.close());
      // Stopped or not is known at once; a connection still trying got past the check.
      await Promise.race([connected, new Promise((done) => setTimeout(done, 2000))]);
    }
    return true;
  } catch (error) {
    return !stopped(error);
  }
}
const answers = [];
for (const query of queries) answers.push(await may(query));
try { await import(module); answers.push(true); } catch { answers.push(false); }
console.log("PROBED " + JSON.stringify(answers));
Deno.exit(0);
`;
await Deno.writeTextFile(`${R}/probe.js`, PROBE);

const kind = fc.constantFrom(...(Object.keys(VALUES) as (keyof DenoGrants)[]));
const permissionFlag = fc.tuple(
  kind,
  fc.constantFrom("allow", "short", "deny"),
  fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 2 },
    { arbitrary: fc.constant([] as number[]), weight: 1 },
    {
      arbitrary: fc.array(fc.nat({ max: 99 }), { minLength: 1, maxLength: 3 }),
      weight: 6,
    },
  ),
).map(([kind, style, picks]) => {
  const name = style === "deny"
    ? `--deny-${kind}`
    : style === "short" && SHORT[kind] !== undefined
    ? SHORT[kind]
    : `--allow-${kind}`;
  const pool = VALUES[kind];
  return picks === undefined
    ? name
    : `${name}=${picks.map((pick) => pool[pick % pool.length]).join(",")}`;
});
const otherFlag = fc.constantFrom(
  "-A",
  "--allow-all",
  "--allow-all=yes",
  "-A=1",
  "--no-remote",
  "--no-prompt",
  "--quiet",
  "-q",
  "-q=1",
  "--no-lock",
  "--no-npm",
  "--no-check",
  "--frozen",
  "--quiet=1",
  "-RW",
  "-NE",
);
const line = fc.array(
  fc.oneof({ arbitrary: permissionFlag, weight: 6 }, { arbitrary: otherFlag, weight: 1 }),
  { maxLength: 6 },
);

/** What Deno does with `flags`: each query's answer and the import's, or why it did not start. */
async function actual(flags: string[], n: number): Promise<boolean[] | string> {
  const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-config",
      "--no-prompt",
      ...flags,
      `${R}/probe.js`,
      JSON.stringify([QUERIES, `http://${MODULE_HOST}/m.js?line=${n}`]),
    ],
    cwd: R,
    env: { PATH: PATH.join(":"), DENO_DIR: `${R}/cache`, NO_COLOR: "1", HOME: `${R}/home` },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(stdout).match(/^PROBED (.*)$/m);
  return out === null
    ? new TextDecoder().decode(stderr).trim().split("\n")[0] || "(no output)"
    : JSON.parse(out[1]);
}

/** The addresses this machine's names resolve to (no network here): /etc/hosts's. */
const RESOLVES = new Map<string, string[]>();
for (const line of Deno.readTextFileSync("/etc/hosts").split("\n")) {
  const [address, ...names] = line.replace(/#.*/, "").trim().split(/\s+/);
  for (const name of address ? names : []) {
    RESOLVES.set(name, [
      ...RESOLVES.get(name) ?? [],
      address.includes(":") ? `[${address}]` : address,
    ]);
  }
}

/**
 * What `grants` say of one entry, read as denoGrants documents them: the most
 * specific entry that covers it decides; a program excepted is excepted with
 * every program in it; an address excepted is excepted under every name
 * that resolves to it.
 */
function permits(grants: DenoGrants, kind: keyof DenoGrants, queried: string): boolean {
  const entry = kind === "sys" && queried === "username"
    ? "userInfo"
    : kind === "run" && !queried.includes("/")
    ? PATH.map((dir) => `${dir}/${queried}`).find((p) => THIS_MACHINE.exists(p)) ?? queried
    : queried;
  const rules = grants[kind].map((granted) => ({
    allows: !granted.startsWith("except "),
    name: granted.replace(/^except /, ""),
  }));
  if (kind === "run") {
    return rules.some((r) => r.allows && (r.name === "everything" || r.name === entry)) &&
      !rules.some((r) =>
        !r.allows && (r.name === entry || r.name === "/" || entry.startsWith(`${r.name}/`))
      );
  }
  if (kind === "net" || kind === "import") {
    const [host, port] = [entry.replace(/:\d+$/, ""), entry.match(/:(\d+)$/)![1]];
    const addresses = (RESOLVES.get(host) ?? []).flatMap((a) => [a, `${a}:${port}`]);
    if (rules.some((r) => !r.allows && addresses.includes(r.name))) return false;
  }
  let best: { depth: number; allows: boolean } | undefined;
  for (const { allows, name } of rules) {
    const prefix = kind === "env" && name.endsWith("*");
    const covers = name === "everything" || name === entry ||
      (["read", "write", "ffi"].includes(kind) &&
        (name === "/" || entry.startsWith(`${name}/`))) ||
      (["net", "import"].includes(kind) && entry.startsWith(`${name}:`)) ||
      (prefix && entry.startsWith(name.slice(0, -1)));
    const depth = name === "everything"
      ? -1
      : kind === "env"
      ? 2 * name.length + (prefix ? -2 : 1)
      : name === "/"
      ? 0
      : name.split(/[/]|:(?=\d+$)/).length;
    if (covers && (best === undefined || depth > best.depth)) best = { depth, allows };
  }
  return best?.allows ?? false;
}

/** A refusal that says Deno itself would refuse the line, rather than that this cannot judge it. */
const SAYS_DENO_REFUSES = /which Deno refuses|Deno refuses|would not start/;

Deno.test(`denoGrants says what Deno 2.9 allows, on ${LINES} generated flag lists`, async () => {
  const started = performance.now();
  const lines = fc.sample(line, { seed: SEED, numRuns: LINES });
  const refusals = new Map<string, number>();
  const toRun: { n: number; flags: string[]; grants?: DenoGrants; refusal?: string }[] = [];
  for (const [n, flags] of lines.entries()) {
    try {
      toRun.push({ n, flags, grants: denoGrants(flags) });
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      const why = error.message.replaceAll(R, "R").replace(/^(\S+?)(=\S*)?: /, "");
      refusals.set(why.slice(0, 60), (refusals.get(why.slice(0, 60)) ?? 0) + 1);
      if (SAYS_DENO_REFUSES.test(error.message)) toRun.push({ n, flags, refusal: error.message });
    }
  }
  const disagreements: string[] = [];
  let agreements = 0;
  let confirmed = 0;
  const queue = [...toRun];
  await Promise.all([0, 1, 2].map(async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const { n, flags, grants, refusal } = next;
      const seen = await actual(flags, n);
      const shown = JSON.stringify(flags).replaceAll(R, "R");
      if (refusal !== undefined) {
        if (typeof seen === "string") confirmed++;
        else disagreements.push(`${shown}\n  refused (${refusal}), but Deno ran it`);
      } else if (typeof seen === "string") {
        disagreements.push(`${shown}\n  judged, but Deno refused it: ${seen}`);
      } else {
        const predicted = [
          ...QUERIES.map(([kind, entry]) => permits(grants!, kind, entry)),
          permits(grants!, "import", MODULE_HOST),
        ];
        const wrong = [...QUERIES, ["import", MODULE_HOST]].flatMap(([kind, entry], i) =>
          predicted[i] === seen[i] ? [] : [`${kind} ${entry}: Deno says ${seen[i] ? "yes" : "no"}`]
        );
        if (wrong.length === 0) agreements++;
        else {
          disagreements.push(
            `${shown}\n  ${wrong.join("; ").replaceAll(R, "R")}\n  grants ${
              JSON.stringify(grants).replaceAll(R, "R")
            }`,
          );
        }
      }
    }
  }));
  await server.shutdown();
  const refused = [...refusals.values()].reduce((a, b) => a + b, 0);
  console.log(
    `${lines.length} flag lists: ${agreements} agreed with deno run, ${refused} refused ` +
      `(${
        toRun.filter((r) => r.refusal).length
      } saying Deno refuses them, ${confirmed} confirmed), ` +
      `${disagreements.length} disagreed, in ${
        ((performance.now() - started) / 1000).toFixed(1)
      } s`,
  );
  console.log(
    "refused: " +
      [...refusals].sort((a, b) => b[1] - a[1]).map(([w, n]) => `${w} ×${n}`).join(", "),
  );
  if (disagreements.length > 0) console.log(disagreements.join("\n"));
  assert.deepEqual(disagreements.length, 0);
  assert.ok(agreements >= 100, `only ${agreements} lines were judged and run`);
});
