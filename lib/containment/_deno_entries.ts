/**
 * One entry of a Deno permission flag, read as Deno 2.9.6 reads it (measured
 * by tests/deno_grants_differential_test.ts), in one spelling: a path made
 * absolute and plain, a host in lower case with its port as a number, a
 * system name by its one name. What this cannot judge exactly throws a
 * TypeError naming the flag.
 *
 * @module
 */

import { posix } from "node:path";

/** The kinds an entry can be of: the permissions, and `import`, whose entries are hosts. */
export type EntryKind = "read" | "write" | "net" | "env" | "run" | "sys" | "ffi" | "import";

/** The names `--allow-sys` takes; Deno refuses any other. `username` is `userInfo`. */
export const SYS_NAMES: ReadonlySet<string> = new Set([
  "hostname",
  "osRelease",
  "osUptime",
  "loadavg",
  "networkInterfaces",
  "systemMemoryInfo",
  "uid",
  "gid",
  "cpus",
  "homedir",
  "getegid",
  "statfs",
  "getPriority",
  "setPriority",
  "userInfo",
]);

/** `raw`, one comma-separated value of `flag`, as the entry it grants or denies. */
export function denoEntry(flag: string, kind: EntryKind, raw: string): string {
  if (raw === "") throw new TypeError(`${flag} has an empty entry, which Deno refuses`);
  switch (kind) {
    case "read":
    case "write":
    case "ffi":
      return absolute(flag, raw);
    case "run":
      if (!raw.includes("/")) {
        throw new TypeError(
          `${flag}: Deno looks ${JSON.stringify(raw)} up on PATH when it starts, which this ` +
            "cannot see: name the program by its absolute path",
        );
      }
      return absolute(flag, raw);
    case "env":
      if (raw.includes("=")) {
        throw new TypeError(
          `${flag}: ${JSON.stringify(raw)} is not a variable name, which Deno refuses`,
        );
      }
      return raw;
    case "sys":
      if (raw === "username") return "userInfo";
      if (!SYS_NAMES.has(raw)) {
        throw new TypeError(
          `${flag}: ${JSON.stringify(raw)} is not a kind of system information, which Deno refuses`,
        );
      }
      return raw;
    case "net":
    case "import":
      return host(flag, raw);
  }
}

function absolute(flag: string, raw: string): string {
  if (!raw.startsWith("/")) {
    throw new TypeError(
      `${flag}: ${JSON.stringify(raw)} is not an absolute path (Deno would take it from the ` +
        "folder the program starts in)",
    );
  }
  const normal = posix.normalize(raw);
  return normal.length > 1 ? normal.replace(/\/+$/, "") : normal;
}

/**
 * A host with or without a port: a name (letters, digits, `-` and `_`, in
 * lower case as Deno reads it), an IPv4 address in four decimal parts, or an
 * IPv6 address in brackets (in its shortest form); the port as a number.
 */
function host(flag: string, raw: string): string {
  const cannot = () =>
    new TypeError(
      `${flag}: cannot judge the host ${JSON.stringify(raw)}: write a name, an IPv4 address ` +
        "or an IPv6 address in brackets, with :PORT (1 to 65535) or without (no wildcards, " +
        "ranges or trailing dots)",
    );
  const parts = raw.match(/^(\[[0-9A-Fa-f:]+\]|[^:[\]]+)(?::(\d{1,5}))?$/);
  if (parts === null) throw cannot();
  const [, name, port] = parts;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) throw cannot();
  let shown: string;
  if (name.startsWith("[")) {
    try {
      shown = new URL(`http://${name}/`).hostname;
    } catch {
      throw cannot();
    }
  } else {
    shown = name.toLowerCase();
    const labels = shown.split(".");
    const numeric = /^\d+$/.test(labels.at(-1)!);
    if (
      !labels.every((label) => /^[a-z0-9_-]+$/.test(label)) ||
      (numeric &&
        !(labels.length === 4 &&
          labels.every((l) => /^(0|[1-9]\d{0,2})$/.test(l) && Number(l) < 256)))
    ) {
      throw cannot();
    }
  }
  return port === undefined ? shown : `${shown}:${Number(port)}`;
}
