// Chapter 15's catalogue: limitCommand, denoFlags and bwrapCommand as learners
// write them. The wrong ones grant what the policy does not (the parent
// folder, every variable, a network, the home folder, a link's target), or
// miss what it needs (the limits, a private /tmp, the PID namespace that ends
// a setsid daemon); the right ones are written in other orders and styles,
// which the grants read by commandGrants and denoGrants must not tell apart.

import type { Catalogue } from "./learner.ts";

const LIMIT = `
export function limitCommand(limits, command) {
  return ["prlimit", \`--data=\${limits.memoryBytes}\`, \`--cpu=\${limits.cpuSeconds}\`, "--", ...command];
}`;

const LIMIT_RIGHT: Record<string, string> = {
  "the worked solution's way": LIMIT,
  "soft and hard spelled out, CPU first": `
export function limitCommand({ memoryBytes, cpuSeconds }, command) {
  return ["prlimit", "--cpu=" + cpuSeconds + ":" + cpuSeconds, "--data=" + memoryBytes + ":" + memoryBytes, ...command];
}`,
  "prlimit's full path, built up": `
export function limitCommand(limits, command) {
  const argv = ["/usr/bin/prlimit"];
  argv.push(\`--cpu=\${limits.cpuSeconds}\`);
  argv.push(\`--data=\${limits.memoryBytes}\`);
  argv.push("--");
  for (const part of command) argv.push(part);
  return argv;
}`,
};

LIMIT_RIGHT["the limits from a table"] = `
export function limitCommand(limits, command) {
  const table = { data: limits.memoryBytes, cpu: limits.cpuSeconds };
  return ["prlimit"].concat(Object.entries(table).map(([name, value]) => "--" + name + "=" + value), ["--"], command);
}`;

const LIMIT_WRONG = {
  "the address space instead of the data segment": LIMIT.replace("--data=", "--as="),
  "--rss, which Linux ignores": LIMIT.replace("--data=", "--rss="),
  "a soft CPU limit only, which the program may raise": LIMIT.replace(
    "`--cpu=${limits.cpuSeconds}`",
    "`--cpu=${limits.cpuSeconds}:`",
  ),
  "the command joined into one string": LIMIT.replace("...command]", 'command.join(" ")]'),
  "memory in mebibytes": LIMIT.replace("${limits.memoryBytes}", "${limits.memoryBytes >> 20}"),
  "CPU in milliseconds": LIMIT.replace("${limits.cpuSeconds}", "${limits.cpuSeconds * 1000}"),
  "only the memory limited": LIMIT.replace("`--cpu=${limits.cpuSeconds}`, ", ""),
  "only the CPU limited": LIMIT.replace("`--data=${limits.memoryBytes}`, ", ""),
  "the hard limits only, the soft ones left as they were": LIMIT.replace("--data=", "--data=:")
    .replace("--cpu=", "--cpu=:"),
  "the two limits swapped": LIMIT.replace("${limits.memoryBytes}", "${limits.cpuSeconds}")
    .replace("`--cpu=${limits.cpuSeconds}`", "`--cpu=${limits.memoryBytes}`"),
  "a prlimit of its own, from the working folder": LIMIT.replace('["prlimit"', '["./prlimit"'),
  "ulimit in a shell instead of prlimit": `
export function limitCommand(limits, command) {
  return ["/bin/sh", "-c", "ulimit -d " + (limits.memoryBytes >> 10) + " -t " + limits.cpuSeconds + ' && exec "$@"', "sh", ...command];
}`,
  // Round 14 of issue 38's red team: the command tidied on its way through, an empty argument
  // left out (filter(Boolean)) or each one trimmed.
  "empty arguments left out": LIMIT.replace("...command]", "...command.filter(Boolean)]"),
  "arguments trimmed": LIMIT.replace("...command]", "...command.map((word) => word.trim())]"),
};

const DENO = `
export function denoFlags(policy) {
  const named = (paths) => {
    const comma = paths.find((path) => path.includes(","));
    if (comma !== undefined) throw new TypeError("Deno's flags cannot name a path with a comma: " + comma);
    return paths.join(",");
  };
  const flags = ["--no-remote"];
  const grants = [["read", policy.read], ["write", policy.write], ["net", policy.net], ["env", Object.keys(policy.env)], ["run", policy.run]];
  for (const [kind, entries] of grants) {
    if (entries.length > 0) flags.push(\`--allow-\${kind}=\${named(entries)}\`);
  }
  if (policy.deny.length > 0) flags.push(\`--deny-read=\${named(policy.deny)}\`, \`--deny-write=\${named(policy.deny)}\`);
  return flags;
}`;

const DENO_RIGHT: Record<string, string> = {
  "the worked solution's way": DENO,
  "one flag per path, denies first": `
export function denoFlags(policy) {
  const all = [...policy.read, ...policy.write, ...policy.deny, ...policy.net, ...Object.keys(policy.env), ...policy.run];
  if (all.some((entry) => entry.indexOf(",") >= 0)) throw new TypeError("a comma cannot be named");
  const flags = [];
  for (const path of policy.deny) flags.push("--deny-write=" + path, "--deny-read=" + path);
  for (const path of policy.read) flags.push("--allow-read=" + path);
  for (const path of policy.write) flags.push("--allow-write=" + path);
  for (const host of policy.net) flags.push("--allow-net=" + host);
  for (const name of Object.keys(policy.env)) flags.push("--allow-env=" + name);
  for (const program of policy.run) flags.push("--allow-run=" + program);
  flags.push("--no-remote", "--no-prompt");
  return flags;
}`,
  "short flags, and blanket denies for what is not needed": `
export function denoFlags(p) {
  const list = (xs) => {
    for (const x of xs) if (x.includes(",")) throw new TypeError("comma in " + x);
    return xs.join(",");
  };
  const env = Object.keys(p.env);
  return [
    "--no-remote",
    ...(p.read.length ? ["-R=" + list(p.read)] : ["--deny-read"]),
    ...(p.write.length ? ["-W=" + list(p.write)] : ["--deny-write"]),
    ...(p.net.length ? ["-N=" + list(p.net)] : ["--deny-net"]),
    ...(env.length ? ["-E=" + list(env)] : ["--deny-env"]),
    ...(p.run.length ? ["--allow-run=" + list(p.run)] : ["--deny-run"]),
    "--deny-sys",
    "--deny-ffi",
    ...p.deny.flatMap((path) => ["--deny-read=" + list([path]), "--deny-write=" + list([path])]),
  ];
}`,
};

DENO_RIGHT["the grants from a table, reduced"] = `
export function denoFlags(policy) {
  const kinds = { read: policy.read, write: policy.write, net: policy.net, env: Object.keys(policy.env), run: policy.run };
  for (const entry of [...Object.values(kinds).flat(), ...policy.deny]) {
    if (/,/.test(entry)) throw new TypeError("Deno cannot name " + entry);
  }
  const denied = policy.deny.length ? ["--deny-read=" + policy.deny.join(","), "--deny-write=" + policy.deny.join(",")] : [];
  return Object.entries(kinds)
    .reduce((flags, [kind, entries]) => entries.length ? [...flags, "--allow-" + kind + "=" + entries.join(",")] : flags, ["--no-prompt", "--no-remote"])
    .concat(denied);
}`;

const DENO_WRONG = {
  // A comma refused only in paths: {"LANG,HOME": ...} grants two variables the policy never named.
  "commas refused only in paths": DENO.replace(
    '["net", policy.net], ["env", Object.keys(policy.env)], ["run", policy.run]];',
    () =>
      '];\n  for (const [kind, entries] of [["net", policy.net], ["env", Object.keys(policy.env)], ["run", policy.run]]) if (entries.length > 0) flags.push(`--allow-${kind}=${entries.join(",")}`);',
  ),
  "--allow-read with no path": DENO.replace(
    "flags.push(`--allow-${kind}=${named(entries)}`)",
    'flags.push(kind === "read" ? "--allow-read" : `--allow-${kind}=${named(entries)}`)',
  ),
  "the parent folder allowed": DENO.replace(
    '["read", policy.read]',
    '["read", policy.read.map((path) => path.slice(0, path.lastIndexOf("/")))]',
  ),
  "links not denied: the tool follows a symlink out": DENO.replace(
    "if (policy.deny.length > 0)",
    "if (false)",
  ),
  "the home folder denied, but only it": DENO.replaceAll(
    "named(policy.deny)",
    "named(policy.deny.slice(0, 1))",
  ),
  "--allow-all with denies": DENO.replace(
    'const flags = ["--no-remote"];',
    'const flags = ["--no-remote", "-A"];',
  )
    .replace("if (entries.length > 0)", "if (false)"),
  "remote imports left open": DENO.replace('const flags = ["--no-remote"];', "const flags = [];"),
  "--deny-import instead of --no-remote": DENO.replace('["--no-remote"]', '["--deny-import"]'),
  "commas passed through": DENO.replace(
    "if (comma !== undefined) throw",
    "if (false) throw",
  ),
  "every variable readable": DENO.replace(
    '["env", Object.keys(policy.env)]',
    '["env", []]',
  ).replace("return flags;", 'flags.push("--allow-env"); return flags;'),
  "denied for reading only": DENO.replace(", `--deny-write=${named(policy.deny)}`", ""),
  "an empty flag for an empty list": DENO.replace("if (entries.length > 0) ", ""),
  // Round 14: commas refused in the folders it reads and the denied paths, not in those it writes.
  "a comma in a folder it writes passed through": DENO.replace('["write", policy.write], ', "")
    .replace(
      "  if (policy.deny.length > 0) flags",
      '  if (policy.write.length > 0) flags.push(`--allow-write=${policy.write.join(",")}`);\n  if (policy.deny.length > 0) flags',
    ),
};

const BWRAP = `
${LIMIT}
export function bwrapCommand(policy, command) {
  const options = ["--unshare-all", "--as-pid-1", "--cap-drop", "ALL", "--die-with-parent", "--clearenv"];
  if (policy.net.length > 0) options.push("--share-net");
  for (const [name, value] of Object.entries({ ...policy.runtime.env, ...policy.env })) options.push("--setenv", name, value);
  options.push("--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev");
  for (const path of [...policy.runtime.paths, ...policy.read]) options.push("--ro-bind", path, path);
  for (const path of policy.write) options.push("--bind", path, path);
  return ["bwrap", ...options, "--", ...limitCommand(policy.limits, command)];
}`;

const BWRAP_RIGHT: Record<string, string> = {
  "the worked solution's way": BWRAP,
  "namespaces one by one, prlimit outside the sandbox": `
export function bwrapCommand(policy, command) {
  const argv = ["prlimit", "--data=" + policy.limits.memoryBytes, "--cpu=" + policy.limits.cpuSeconds, "bwrap"];
  argv.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-user-try", "--unshare-cgroup-try");
  argv.push("--as-pid-1", "--cap-drop", "all");
  if (policy.net.length === 0) argv.push("--unshare-net");
  argv.push("--tmpfs", "/tmp", "--dev", "/dev", "--proc", "/proc");
  policy.runtime.paths.forEach((path) => argv.push("--ro-bind-try", path, path));
  policy.read.forEach((path) => argv.push("--ro-bind", path, path));
  policy.write.forEach((path) => argv.push("--bind", path, path));
  argv.push("--clearenv");
  Object.entries(policy.runtime.env).forEach(([k, v]) => argv.push("--setenv", k, v));
  Object.entries(policy.env).forEach(([k, v]) => argv.push("--setenv", k, v));
  argv.push("--new-session", "--die-with-parent", "--");
  return argv.concat(command);
}`,
  "mounts first, switches last, writable binds remounted": `
${LIMIT}
export function bwrapCommand(policy, command) {
  const mounts = [["--tmpfs", "/tmp"], ["--proc", "/proc"], ["--dev", "/dev"]];
  for (const path of policy.runtime.paths.concat(policy.read)) mounts.push(["--bind", path, path], ["--remount-ro", path]);
  for (const path of policy.write) mounts.push(["--bind", path, path]);
  const env = Object.entries(Object.assign({}, policy.runtime.env, policy.env)).flatMap(([k, v]) => ["--setenv", k, v]);
  const net = policy.net.length > 0 ? ["--share-net"] : [];
  return ["/usr/bin/bwrap", ...mounts.flat(), "--clearenv", ...env, "--unshare-all", ...net, "--die-with-parent", "--cap-drop", "ALL", "--as-pid-1", ...limitCommand(policy.limits, command)];
}`,
};

BWRAP_RIGHT["mounts from a table, a new session, prlimit by its full path"] = `
export function bwrapCommand(policy, command) {
  const mounts = [
    ["--tmpfs", "/tmp"],
    ["--proc", "/proc"],
    ["--dev", "/dev"],
    ...policy.runtime.paths.map((path) => ["--ro-bind", path, path]),
    ...policy.read.map((path) => ["--ro-bind-try", path, path]),
    ...policy.write.map((path) => ["--bind", path, path]),
  ];
  const env = Object.entries({ ...policy.runtime.env, ...policy.env });
  return [
    "/usr/bin/bwrap",
    "--new-session",
    "--as-pid-1",
    "--cap-add", "CAP_CHOWN", "--cap-drop", "ALL",
    "--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try",
    ...(policy.net.length === 0 ? ["--unshare-net"] : []),
    "--die-with-parent",
    "--clearenv",
    ...env.flatMap(([name, value]) => ["--setenv", name, value]),
    ...mounts.flat(),
    "--",
    "/usr/bin/prlimit",
    "--data=" + policy.limits.memoryBytes + ":" + policy.limits.memoryBytes,
    "--cpu=" + policy.limits.cpuSeconds,
    "--",
    ...command,
  ];
}`;

const BWRAP_WRONG = {
  // The runtime's value wins a variable both lists name: the policy's own setting is lost.
  "the runtime's value wins a variable named twice": BWRAP.replace(
    "{ ...policy.runtime.env, ...policy.env }",
    () => "{ ...policy.env, ...policy.runtime.env }",
  ),
  "forgetting --unshare-net": BWRAP.replace(
    '["--unshare-all",',
    '["--unshare-pid", "--unshare-ipc",',
  ),
  "binding the home folder, where Deno's cache is": BWRAP.replace(
    "for (const path of [...policy.runtime.paths, ...policy.read])",
    'for (const path of [...policy.runtime.paths.map((p) => p.startsWith("/home/") ? p.split("/").slice(0, 3).join("/") : p), ...policy.read])',
  ),
  "following a symlink out: each denied path bound": BWRAP.replace(
    "...policy.read])",
    "...policy.read, ...policy.deny.slice(1)])",
  ),
  // Issue 30: read as the data folder itself, while bwrap shows the link's target's parent.
  "each link's folder bound through the link, as LINK/..": BWRAP.replace(
    "...policy.read])",
    '...policy.read, ...policy.deny.slice(1).map((link) => link + "/..")])',
  ),
  "the whole system read-only": BWRAP.replace(
    'options.push("--tmpfs", "/tmp",',
    'options.push("--ro-bind", "/", "/", "--tmpfs", "/tmp",',
  ),
  "no PID namespace: a setsid daemon outlives it": BWRAP.replace(
    '["--unshare-all", "--as-pid-1",',
    '["--unshare-net", "--unshare-ipc",',
  ),
  "no --die-with-parent": BWRAP.replace('"--die-with-parent", ', ""),
  // Issue 38: bubblewrap's own PID 1 keeps the caller's whole environment, in /proc/1/environ.
  "bubblewrap's PID 1 left in the sandbox": BWRAP.replace('"--as-pid-1", ', ""),
  // Issue 38: run by root, as the lesson runs it, bubblewrap keeps root's capabilities.
  "root's capabilities kept": BWRAP.replace('"--cap-drop", "ALL", ', ""),
  "one capability dropped, root's bubblewrap keeping the rest": BWRAP.replace(
    '"--cap-drop", "ALL"',
    '"--cap-drop", "CAP_SYS_ADMIN"',
  ),
  // Issue 30: real bwrap then shares the machine's IPC, UTS, user and cgroup namespaces.
  "only the network and the processes unshared": BWRAP.replace(
    '["--unshare-all",',
    '["--unshare-net", "--unshare-pid",',
  ),
  "/tmp mounted after the data folder": BWRAP.replace(
    'options.push("--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev");',
    "",
  ).replace(
    'return ["bwrap"',
    'options.push("--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev");\n  return ["bwrap"',
  ),
  "the environment kept": BWRAP.replace(', "--clearenv"]', "]"),
  "--clearenv after --setenv": BWRAP.replace(', "--clearenv"]', "]").replace(
    'options.push("--tmpfs"',
    'options.push("--clearenv", "--tmpfs"',
  ),
  "the data folder writable": BWRAP.replace(
    'for (const path of [...policy.runtime.paths, ...policy.read]) options.push("--ro-bind", path, path);',
    'for (const path of policy.runtime.paths) options.push("--ro-bind", path, path);\n  for (const path of policy.read) options.push("--bind", path, path);',
  ),
  "the machine's own /proc and /dev": BWRAP.replace(
    '"--proc", "/proc", "--dev", "/dev"',
    '"--ro-bind", "/proc", "/proc", "--dev-bind", "/dev", "/dev"',
  ),
  "no limits": BWRAP.replace("...limitCommand(policy.limits, command)", "...command"),
  "everything bound writable, then / remounted read-only (--remount-ro is not recursive)": BWRAP
    .replace(
      'options.push("--ro-bind", path, path);',
      'options.push("--bind", path, path);\n  options.push("--remount-ro", "/");',
    ),
  "/ remounted read-only first: bwrap cannot make the mount points": BWRAP.replace(
    'options.push("--tmpfs", "/tmp",',
    'options.push("--remount-ro", "/", "--tmpfs", "/tmp",',
  ),
  "each bind remounted read-only, the writable folder too": BWRAP.replace(
    'for (const path of policy.write) options.push("--bind", path, path);',
    'for (const path of policy.write) options.push("--bind", path, path, "--remount-ro", path);',
  ),
  "a bwrap of its own, from the working folder": BWRAP.replace(
    'return ["bwrap"',
    'return ["./bwrap"',
  ),
  "prlimit by a path that is not the machine's": BWRAP.replace(
    '["prlimit", `--data',
    '["/opt/tools/prlimit", `--data',
  ),
  "the network shared always": BWRAP.replace(
    "if (policy.net.length > 0) options.push",
    "options.push",
  ),
  // Round 14 of issue 38's red team: the writable folders bound first, so a read-only bind of the
  // folder around one hides it.
  "the writable folders bound before the read-only ones": BWRAP.replace(
    'options.push("--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev");',
    'options.push("--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev");\n  for (const path of policy.write) options.push("--bind", path, path);',
  ).replace(
    'for (const path of policy.write) options.push("--bind", path, path);\n  return',
    "return",
  ),
  "empty arguments left out": BWRAP.replace(
    "...limitCommand(policy.limits, command)",
    "...limitCommand(policy.limits, command.filter(Boolean))",
  ),
};

/** Chapter 15's catalogues. */
export const CH15: readonly Catalogue[] = [
  { unit: "ch15", fn: "limitCommand", right: LIMIT_RIGHT, wrong: LIMIT_WRONG },
  { unit: "ch15", fn: "denoFlags", right: DENO_RIGHT, wrong: DENO_WRONG },
  { unit: "ch15", fn: "bwrapCommand", right: BWRAP_RIGHT, wrong: BWRAP_WRONG },
];
