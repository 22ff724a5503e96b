// commandGrants against the real bubblewrap and prlimit, on command lines a
// seeded generator makes: every option the parser knows, in any order, binds
// over binds, files and folders bound over each other, `--remount-ro` over
// binds, `-try` binds of missing paths and of paths in a file, programs
// named by path (this machine's and impostors), namespaces made one by one,
// a bind's source through a link and `..`, mounts at and below links of the
// machine's, and devices: `--dev /dev` and what is made, bound, hidden and
// remounted over its devices, its `pts`, `ptmx` and `shm`, and
// `--dev-bind`s of the machine's. Each line the
// parser judges runs a shell in the sandbox that reports what it can do
// (write which folders and files, see which, reach a network, own its
// process table and which namespaces, its environment, its limits), and the grants must predict
// it exactly. A line the parser refuses ("cannot judge") is not run: refusing
// is its answer. The numbers (lines, agreements, refusals, time) are printed.

import assert from "node:assert/strict";
import fc from "fast-check";
import { posix } from "node:path";
import { bubblewrapStatus } from "../lib/containment/bubblewrap.ts";
import {
  CannotJudgeError,
  type CommandGrants,
  commandGrants,
  THIS_MACHINE,
} from "../lib/containment/command_grants.ts";

/**
 * How many lines to draw, and from which seed: 4000 from the fixed one, or
 * more, or others, for a longer look (`GRANTS_DIFFERENTIAL_LINES=12000
 * GRANTS_DIFFERENTIAL_SEED=7`).
 */
const LINES = Number(Deno.env.get("GRANTS_DIFFERENTIAL_LINES") ?? 4000);
const SEED = Number(Deno.env.get("GRANTS_DIFFERENTIAL_SEED") ?? 20261202);
// Run by anyone but root, bwrap makes a user namespace of its own, in which /proc may be
// mounted only in a PID namespace of its own: the lines here are judged as root runs them
// (as this project's CI does).
const available = (await bubblewrapStatus()).available && Deno.uid() === 0;

const R = await Deno.makeTempDir({ dir: "/tmp", prefix: "grants-differential-" });
globalThis.addEventListener("unload", () => Deno.removeSync(R, { recursive: true }));
for (const dir of ["a/b", "c", "e", "fake"]) await Deno.mkdir(`${R}/${dir}`, { recursive: true });
for (const file of ["a/f", "a/b/f", "c/f"]) await Deno.writeTextFile(`${R}/${file}`, "x\n");
// A link: bwrap reaches UP/.. as R/a (the link followed first), not as R/e.
await Deno.symlink(`${R}/a/b`, `${R}/e/up`);
const UP = `${R}/e/up/..`;
await Deno.symlink("../c", `${R}/e/rel`);
/**
 * Paths at and below links of the machine's, an absolute one and a relative
 * one, where a mount is made through the link (bwrap follows it) wherever a
 * bind shows them.
 */
const THROUGH_LINKS = [`${R}/e/up`, `${R}/e/up/x`, `${R}/e/rel`, `${R}/e/rel/f`];
/** The namespaces the shell compares with the machine's, by what `/proc/self/ns` links to. */
const NAMESPACES = ["cgroup", "ipc", "user", "uts"];
const HOST_NAMESPACES = NAMESPACES.map((kind) => Deno.readLinkSync(`/proc/self/ns/${kind}`));
for (const name of ["bwrap", "prlimit"]) {
  // An impostor: runs what follows its options, enforcing nothing.
  await Deno.writeTextFile(
    `${R}/fake/${name}`,
    '#!/bin/sh\nwhile [ "$1" != -- ]; do shift; done\nshift\nexec "$@"\n',
  );
  await Deno.chmod(`${R}/fake/${name}`, 0o755);
}

/** Folders the generator binds, mounts over and remounts; `missing` never exists. */
const TREE = [R, `${R}/a`, `${R}/a/b`, `${R}/c`, `${R}/e`, `${R}/missing`];
const FILES = [`${R}/a/f`, `${R}/a/b/f`, `${R}/c/f`];
/** A path in a file, which bwrap can never make. */
const IN_FILE = `${R}/c/f/x`;
const FOLDERS = ["/", "/tmp", ...TREE];
/**
 * What `--dev /dev` makes (devices, its own pseudo-terminals and their
 * device node, `shm`, links) and paths it does not make, each reported by
 * what is there: a link, a device a program may open or not, a folder, a
 * file, or nothing.
 */
const DEV = [
  "/dev",
  "/dev/null",
  "/dev/zero",
  "/dev/shm",
  "/dev/pts",
  "/dev/pts/ptmx",
  "/dev/ptmx",
  "/dev/stdin",
  "/dev/x",
  "/dev/pts/x",
];
/** Where this machine has pseudo-terminals (`devpts`), in which no file can be made. */
const TERMINALS = new Set(
  Deno.readTextFileSync("/proc/self/mountinfo").split("\n").map((line) => line.split(" "))
    .filter((fields) => fields[fields.indexOf("-") + 1] === "devpts").map((fields) => fields[4]),
);
const SYSTEMS = [
  ["--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib"]
    .concat(THIS_MACHINE.exists("/lib64") ? ["--symlink", "usr/lib64", "/lib64"] : []),
  ["--ro-bind", "/", "/"],
];

const path = fc.constantFrom(...TREE);
const option: fc.Arbitrary<string[]> = fc.oneof(
  fc.tuple(
    fc.constantFrom(
      "--bind",
      "--ro-bind",
      "--bind-try",
      "--ro-bind-try",
      "--dev-bind",
      "--dev-bind-try",
    ),
    // A path in a file is no source, -try or not: bwrap stops at it ("Not a directory").
    fc.oneof(
      { arbitrary: path, weight: 6 },
      { arbitrary: fc.constant(UP), weight: 1 },
      { arbitrary: fc.constant(IN_FILE), weight: 1 },
    ),
    fc.option(path, { freq: 3 }),
  ).map(([name, source, dest]) => [name, source, dest ?? source]),
  // Files and folders bound over each other, and mounts over and in files: bwrap stops at a
  // file on a folder, a folder on a file, and anything in a file.
  fc.tuple(
    fc.constantFrom("--bind", "--ro-bind"),
    fc.constantFrom(...FILES, ...TREE),
    fc.constantFrom(...FILES, ...TREE, IN_FILE),
  ),
  fc.tuple(fc.constantFrom("--tmpfs", "--dir"), fc.constantFrom(...FILES, IN_FILE)),
  fc.tuple(fc.constantFrom("--tmpfs", "--dir"), fc.constantFrom(...THROUGH_LINKS)),
  fc.tuple(
    fc.constantFrom("--bind", "--ro-bind"),
    fc.constantFrom(...FILES, `${R}/c`),
    fc.constantFrom(...THROUGH_LINKS),
  ),
  fc.tuple(fc.constantFrom("--tmpfs", "--dir", "--dev", "--mqueue"), path),
  fc.tuple(fc.constant("--remount-ro"), fc.constantFrom("/", ...TREE)),
  fc.tuple(fc.constant("--remount-ro"), fc.constantFrom("/", ...TREE)),
  fc.constant(["--symlink", "a", `${R}/link`] as string[]),
  fc.tuple(fc.constant("--symlink"), fc.constant("a"), path),
  fc.tuple(fc.constant("--chdir"), fc.constantFrom("/", R, ...THROUGH_LINKS)),
  // Devices: --dev's own, and the machine's bound over them, with or without their devices.
  fc.constant(["--dev", "/dev"] as string[]),
  fc.tuple(fc.constantFrom("--remount-ro", "--tmpfs", "--dir", "--dev"), fc.constantFrom(...DEV)),
  fc.tuple(fc.constant("--symlink"), fc.constant("a"), fc.constantFrom(...DEV)),
  fc.tuple(
    fc.constantFrom("--bind", "--ro-bind", "--dev-bind"),
    fc.constantFrom(...FILES, `${R}/c`, "/dev/null", "/dev"),
    fc.constantFrom(...DEV),
  ),
  fc.tuple(
    fc.constant("--setenv"),
    fc.constantFrom("COURSE_A", "COURSE_OUTER"),
    fc.constantFrom("1", "a b"),
  ),
  fc.tuple(fc.constant("--unsetenv"), fc.constantFrom("COURSE_A", "COURSE_OUTER")),
  fc.tuple(fc.constant("--hostname"), fc.constant("box")),
  fc.tuple(fc.constant("--cap-add"), fc.constant("CAP_CHOWN")),
  fc.constantFrom(
    "--clearenv",
    "--unshare-all",
    "--unshare-net",
    "--share-net",
    "--unshare-pid",
    "--unshare-uts",
    "--unshare-ipc",
    "--unshare-user",
    "--unshare-user-try",
    "--unshare-cgroup",
    "--unshare-cgroup-try",
    "--die-with-parent",
    "--new-session",
    "--as-pid-1",
  ).map((name) => [name]),
);
const limit = fc.tuple(
  fc.constantFrom("--cpu", "--data"),
  fc.oneof(
    { arbitrary: fc.constantFrom("5", "7:9", "9:", "unlimited"), weight: 6 },
    { arbitrary: fc.constantFrom(":7", "9:7"), weight: 1 },
  ),
).map(([name, value]) => `${name}=${name === "--data" ? mebibytes(value) : value}`);
const limits = fc.oneof(
  { arbitrary: fc.constant(null), weight: 2 },
  {
    arbitrary: fc.uniqueArray(limit, {
      minLength: 1,
      maxLength: 2,
      selector: (l) => l.slice(0, 5),
    }),
    weight: 1,
  },
);
const prlimitWord = fc.oneof(
  { arbitrary: fc.constantFrom("prlimit", "/usr/bin/prlimit", "/bin/prlimit"), weight: 8 },
  { arbitrary: fc.constant(`${R}/fake/prlimit`), weight: 1 },
);
const bwrapWord = fc.oneof(
  { arbitrary: fc.constantFrom("bwrap", "/usr/bin/bwrap", "/bin/bwrap"), weight: 8 },
  { arbitrary: fc.constantFrom("./bwrap", `${R}/fake/bwrap`), weight: 1 },
);
const wrapped = (limits: string[] | null, word: string, rest: string[]) =>
  limits === null ? rest : [word, ...limits, "--", ...rest];
const line = fc.record({
  outer: limits,
  inner: limits,
  outerWord: prlimitWord,
  innerWord: fc.constantFrom("prlimit", "/usr/bin/prlimit"),
  bwrap: bwrapWord,
  system: fc.constantFrom(...SYSTEMS),
  dev: fc.boolean(),
  options: fc.array(option, { maxLength: 7 }),
}).map(({ outer, inner, outerWord, innerWord, bwrap, system, dev, options }) =>
  wrapped(outer, outerWord, [
    bwrap,
    ...system,
    ...(dev ? ["--dev", "/dev"] : []),
    ...options.flat(),
    "--proc",
    "/proc",
    "--",
    ...wrapped(inner, innerWord, REPORT),
  ])
);

/** Data limits as prlimit takes them (bytes), in mebibytes, which `ulimit -d` shows in KiB. */
function mebibytes(value: string): string {
  return value.split(":").map((side) =>
    /^\d+$/.test(side) ? String(Number(side) * 1024 * 1024) : side
  )
    .join(":");
}

const SCRIPT = `
for f in ${FILES.join(" ")}; do
  if [ -f "$f" ]; then if ( : >> "$f" ) 2>&-; then echo "file $f rw"; else echo "file $f ro"; fi
  else echo "file $f absent"; fi
done
for d in ${FOLDERS.join(" ")}; do
  if [ -d "$d" ]; then
    p="$d/.probe-$$"
    if ( : > "$p" ) 2>&-; then /usr/bin/rm -f "$p"; echo "folder $d rw"; else echo "folder $d ro"; fi
  else echo "folder $d absent"; fi
done
for p in ${DEV.join(" ")}; do
  if [ -L "$p" ]; then echo "dev $p link"
  elif [ -c "$p" ]; then if ( : < "$p" ) 2>&-; then echo "dev $p device open"; else echo "dev $p device closed"; fi
  elif [ -d "$p" ]; then
    q="$p/.probe-$$"
    if ( : > "$q" ) 2>&-; then /usr/bin/rm -f "$q"; echo "dev $p folder rw"; else echo "dev $p folder ro"; fi
  elif [ -f "$p" ]; then if ( : >> "$p" ) 2>&-; then echo "dev $p file rw"; else echo "dev $p file ro"; fi
  else echo "dev $p absent"; fi
done
if [ "$(/usr/bin/wc -l < /proc/net/dev)" -le 3 ]; then echo "network none"; else echo "network shared"; fi
if [ $$ -le 3 ]; then echo "processes own"; else echo "processes shared"; fi
${
  NAMESPACES.map((kind, i) =>
    `if [ "$(/usr/bin/readlink /proc/self/ns/${kind})" = "${HOST_NAMESPACES[i]}" ]; ` +
    `then echo "namespace ${kind} shared"; else echo "namespace ${kind} own"; fi`
  ).join("\n")
}
echo "cpu $(ulimit -S -t):$(ulimit -H -t)"
echo "data $(ulimit -S -d):$(ulimit -H -d)"
/usr/bin/env | /usr/bin/grep '^COURSE_' | /usr/bin/sort | /usr/bin/sed 's/^/env /'
echo REPORTED`;
const REPORT = ["/usr/bin/sh", "-c", SCRIPT];

/** One mount of the grants: where, what it shows, and from which of the machine's paths. */
interface Entry {
  dest: string;
  what: string;
  source?: string;
}

/** What the shell would report, by the grants. */
function predicted(grants: CommandGrants): string[] {
  const sandbox = grants.sandbox!;
  const rootReadOnly = sandbox.paths.includes("/ the sandbox's own root, read-only");
  const entries: Entry[] = sandbox.paths.filter((entry) => !entry.startsWith("/ the sandbox's own"))
    .map((entry) => {
      const space = entry.indexOf(" ");
      const [dest, what] = [entry.slice(0, space), entry.slice(space + 1)];
      const from = what.match(/ from (\/\S*)$/)?.[1];
      const bound = /^read-(only|write)/.test(what);
      return { dest, what, ...(bound ? { source: from ?? dest } : {}) };
    });
  const within = (p: string, dest: string) =>
    dest === "/" || p === dest || p.startsWith(`${dest}/`);
  const cover = (p: string, among: Entry[]) =>
    among.filter((entry) => within(p, entry.dest)).sort((x, y) => y.dest.length - x.dest.length)[0];
  const onMachine = (entry: Entry, p: string) =>
    entry.source! + (p === entry.dest ? "" : p.slice(entry.dest === "/" ? 0 : entry.dest.length));
  const isDir = (p: string) => Deno.statSync(p).isDirectory;
  /** `p` with the links the sandbox makes followed, or `undefined` past eight. */
  const followed = (p: string, depth = 0): string | undefined => {
    const entry = cover(p, entries);
    const target = entry?.what.match(/^a link to (.*)$/)?.[1];
    if (target === undefined) return p;
    if (depth > 8) return undefined;
    const rest = p === entry!.dest ? "" : p.slice(entry!.dest.length);
    return followed(posix.resolve(posix.dirname(entry!.dest), target) + rest, depth + 1);
  };
  const writable = (entry: Entry | undefined) =>
    entry === undefined ? !rootReadOnly : !entry.what.endsWith("read-only");
  const folder = (link: string, among: Entry[]): string => {
    const p = followed(link);
    if (p === undefined) return "absent";
    const entry = cover(p, among);
    const holdsMount = among.some((other) => other.dest !== p && within(other.dest, p));
    if (entry === undefined) {
      return p === "/" || holdsMount ? (rootReadOnly ? "ro" : "rw") : "absent";
    }
    if (entry.source !== undefined) {
      const there = onMachine(entry, p);
      if (!THIS_MACHINE.exists(there) || !isDir(there)) return holdsMount ? "ro" : "absent";
      return entry.what.startsWith("read-write") ? "rw" : "ro";
    }
    if (p !== entry.dest && !holdsMount) return "absent";
    if (entry.what === "an empty folder") {
      // Made in whatever holds it (never the machine's): as writable as that is.
      return writable(cover(p, among.filter((other) => other !== entry))) ? "rw" : "ro";
    }
    return entry.what.endsWith("read-only") ? "ro" : "rw";
  };
  const file = (link: string) => {
    const p = followed(link) ?? "/nowhere";
    const entry = cover(p, entries);
    const there = entry?.source === undefined ? undefined : onMachine(entry, p);
    // A folder bound there is no file.
    if (there === undefined || !THIS_MACHINE.exists(there) || isDir(there)) return "absent";
    return entry.what.startsWith("read-write") ? "rw" : "ro";
  };
  /** What `--dev` makes, by its path in the folder it mounts (see {@linkcode DEV}). */
  const DEV_MAKES: Record<string, string> = {
    null: "device open",
    zero: "device open",
    "pts/ptmx": "device open",
    ptmx: "link",
    stdin: "link",
  };
  /** What the shell finds at `p` of {@linkcode DEV}: a link, a device, a folder, a file, or nothing. */
  const device = (p: string): string => {
    const at = cover(p, entries);
    if (at?.dest === p && at.what.startsWith("a link to ")) return "link";
    const q = followed(p);
    if (q === undefined) return "absent";
    const entry = cover(q, entries);
    const asFolder = () =>
      folder(q, entries) === "absent" ? "absent" : `folder ${folder(q, entries)}`;
    if (entry === undefined) return asFolder();
    const rest = q === entry.dest ? "" : q.slice(entry.dest === "/" ? 1 : entry.dest.length + 1);
    if (entry.source !== undefined) {
      const there = posix.join(entry.source, rest);
      let info: Deno.FileInfo;
      try {
        // A bind's own path is its source, links followed; what is in a bound folder is as it is.
        info = rest === "" ? Deno.statSync(there) : Deno.lstatSync(there);
      } catch {
        return asFolder();
      }
      if (info.isSymlink) return "link";
      if (info.isCharDevice) {
        return `device ${entry.what.startsWith("read-write, devices too") ? "open" : "closed"}`;
      }
      if (info.isDirectory) {
        return TERMINALS.has(Deno.realPathSync(there)) ? "folder ro" : asFolder();
      }
      return `file ${entry.what.startsWith("read-write") ? "rw" : "ro"}`;
    }
    if (entry.what.startsWith("a few devices of its own")) {
      if (rest === "" || rest === "shm") return `folder ${writable(entry) ? "rw" : "ro"}`;
      // Its pseudo-terminals are a file system where no file can be made.
      if (rest === "pts") return "folder ro";
      return DEV_MAKES[rest] ?? "absent";
    }
    if (entry.what === "a device no program may open, read-only") return "device closed";
    if (entry.what.startsWith("pseudo-terminals of its own")) {
      return rest === "" ? "folder ro" : rest === "ptmx" ? "device closed" : "absent";
    }
    return asFolder();
  };
  const limitOf = (name: string, kib: boolean) => {
    const value = grants.limits.find((limit) => limit.startsWith(`${name} `))?.slice(
      name.length + 1,
    );
    const [soft, hard] = value === undefined
      ? ["unlimited", "unlimited"]
      : value.includes(" soft, ")
      ? value.replace(" hard", "").split(" soft, ")
      : [value, value];
    const shown = (side: string) =>
      side === "unchanged" || side === "unlimited"
        ? "unlimited"
        : kib
        ? String(BigInt(side) / 1024n)
        : side;
    return `${name} ${shown(soft)}:${shown(hard)}`;
  };
  const env = sandbox.environment[0] === "inherited" &&
      !sandbox.environment.includes("without COURSE_OUTER") &&
      !sandbox.environment.some((entry) => entry.startsWith("COURSE_OUTER="))
    ? ["env COURSE_OUTER=kept"]
    : [];
  return [
    ...FILES.map((p) => `file ${p} ${file(p)}`),
    ...FOLDERS.map((p) => `folder ${p} ${folder(p, entries)}`),
    ...DEV.map((p) => `dev ${p} ${device(p)}`),
    `network ${sandbox.network}`,
    `processes ${sandbox.processes}`,
    ...NAMESPACES.map((kind) =>
      `namespace ${kind} ${sandbox.sharedNamespaces.includes(kind) ? "shared" : "own"}`
    ),
    limitOf("cpu", false),
    limitOf("data", true),
    ...env,
    ...sandbox.environment.filter((entry) => entry.startsWith("COURSE_")).map((e) => `env ${e}`),
    "REPORTED",
  ].sort();
}

/** What a refusal says when bwrap itself would stop at the option (with nothing done after it). */
const STOPS =
  /bwrap stops there|bwrap cannot make it|bwrap refuses it|the sandbox has .* already|the sandbox has no such folder/;

/** What the shell reported, run as the line says. */
async function reported(argv: string[]): Promise<string[]> {
  const { stdout, stderr } = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: R,
    env: { COURSE_OUTER: "kept", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const lines = new TextDecoder().decode(stdout).trim().split("\n").filter((l) => l !== "");
  return lines.includes("REPORTED")
    ? lines.sort()
    : [`it did not run: ${new TextDecoder().decode(stderr).trim()}`];
}

Deno.test({
  name:
    `commandGrants predicts what bubblewrap and prlimit give, on ${LINES} generated command lines`,
  ignore: !available,
  fn: async () => {
    const started = performance.now();
    const lines = fc.sample(line, { seed: SEED, numRuns: LINES });
    const refusals = new Map<string, number>();
    const disagreements: string[] = [];
    let agreements = 0;
    const judged: [string[], CommandGrants][] = [];
    const stopping: string[][] = [];
    for (const argv of lines) {
      try {
        judged.push([argv, commandGrants(argv, THIS_MACHINE)]);
      } catch (error) {
        if (!(error instanceof CannotJudgeError)) throw error;
        const why = error.message.replace(/\/tmp\/grants-differential-\w+/g, "R")
          .replace(/^cannot judge (\S+ )?(--?[\w-]+|\S+).*/, "$1$2");
        refusals.set(why, (refusals.get(why) ?? 0) + 1);
        if (STOPS.test(error.message)) stopping.push(argv);
      }
    }
    const queue = [...judged];
    await Promise.all([0, 1, 2].map(async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const [argv, grants] = next;
        const seen = await reported(argv);
        const expected = predicted(grants);
        if (JSON.stringify(seen) === JSON.stringify(expected)) agreements++;
        else {
          const differs = seen.filter((l) => !expected.includes(l));
          const missing = expected.filter((l) => !seen.includes(l));
          disagreements.push(
            `${JSON.stringify(argv.filter((w) => w !== SCRIPT))}\n  saw ${
              differs.join("; ")
            }\n  predicted ${missing.join("; ")}`,
          );
        }
      }
    }));
    // A refusal that says bwrap itself stops is run too, last (bwrap stops before anything
    // the line would do after it): it must not run the program.
    const ranAnyway: string[] = [];
    for (const argv of stopping) {
      const [first] = await reported(argv);
      if (!first.startsWith("it did not run")) {
        ranAnyway.push(JSON.stringify(argv.filter((w) => w !== SCRIPT)));
      }
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const refused = [...refusals.values()].reduce((a, b) => a + b, 0);
    console.log(
      `${lines.length} command lines: ${agreements} agreed with bubblewrap, ${refused} refused ` +
        `("cannot judge"; of them ${stopping.length} that bwrap itself stops, ` +
        `${stopping.length - ranAnyway.length} confirmed), ${disagreements.length} disagreed, ` +
        `in ${seconds} s`,
    );
    console.log(
      "refused: " +
        [...refusals].sort((a, b) => b[1] - a[1]).map(([w, n]) => `${w} ×${n}`).join(", "),
    );
    if (disagreements.length > 0) console.log(disagreements.join("\n"));
    if (ranAnyway.length > 0) {
      console.log(`ran, though said to stop bwrap:\n${ranAnyway.join("\n")}`);
    }
    assert.deepEqual(disagreements.length, 0);
    assert.deepEqual(ranAnyway, [], "bwrap ran lines said to stop it");
    assert.ok(lines.length >= 500);
    assert.ok(agreements >= 500, `only ${agreements} lines were judged and run`);
  },
});
