/**
 * The hub's learner accounts: local system users, each with a home of their
 * own that only they can read, marked as the course's so that the hub never
 * takes over an account it did not make.
 *
 * @module
 */

import { isRunning } from "../../lib/mcp/client/process_group.ts";

/** The comment (GECOS field) that marks an account as a learner's of this course. */
export const MARK = "External Tools with MCP learner";

/** One learner account. */
export interface Account {
  name: string;
  uid: number;
  home: string;
  /** The password given to an account made just now; absent for one that was there. */
  password?: string;
}

/**
 * Whether `name` can be a learner's account name: lowercase letters, digits
 * and dashes, starting with a letter, at most 32 characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.ok(validName("ana-2"));
 * assert.ok(!validName("Ana") && !validName("../x") && !validName("-a"));
 * ```
 */
export function validName(name: string): boolean {
  return /^[a-z][a-z0-9-]{0,31}$/.test(name);
}

/** The account named `name`, from the system's user database; undefined when there is none. */
export async function findAccount(
  name: string,
): Promise<{ uid: number; home: string; comment: string } | undefined> {
  const { success, stdout } = await run("getent", ["passwd", name]);
  if (!success) return undefined;
  const [, , uid, , comment, home] = stdout.trim().split(":");
  return { uid: Number(uid), home, comment };
}

/**
 * Every learner in `names` as an account: made (with a home of mode 0700 and
 * a new random password) when missing, taken as it is when it is already a
 * learner's. Throws, changing nothing more, for a name that is not valid or
 * that belongs to an account the course did not make.
 */
export async function ensureAccounts(
  names: readonly string[],
): Promise<Account[]> {
  for (const name of names) {
    if (!validName(name)) {
      throw new Error(
        `${JSON.stringify(name)} cannot be a learner's account name: use a-z, 0-9, -`,
      );
    }
    const found = await findAccount(name);
    if (found !== undefined && found.comment !== MARK) {
      throw new Error(
        `${name} is an account the course did not make: choose another name`,
      );
    }
  }
  const accounts: Account[] = [];
  for (const name of names) {
    let password: string | undefined;
    if (await findAccount(name) === undefined) {
      await must("useradd", [
        "--create-home",
        "--shell",
        "/bin/bash",
        "--comment",
        MARK,
        name,
      ]);
      password = [...crypto.getRandomValues(new Uint8Array(9))]
        .map((byte) => "abcdefghijkmnpqrstuvwxyz23456789"[byte % 32]).join("");
      await must("chpasswd", [], `${name}:${password}\n`);
    }
    const { uid, home } = (await findAccount(name))!;
    await Deno.chmod(home, 0o700);
    accounts.push({ name, uid, home, password });
  }
  return accounts;
}

/**
 * The processes running as any of `uids`, from `/proc` (a zombie, state
 * `Z`, is gone and not counted).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(await processesOf([]), []);
 * ```
 */
export async function processesOf(uids: readonly number[]): Promise<number[]> {
  const found: number[] = [];
  if (uids.length === 0) return found;
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const status = await Deno.readTextFile(`/proc/${entry.name}/status`);
      const uid = Number(status.match(/^Uid:\s+(\d+)/m)?.[1]);
      if (uids.includes(uid) && isRunning(entry.name)) found.push(Number(entry.name));
    } catch {
      // The process ended while it was being read.
    }
  }
  return found;
}

async function run(command: string, args: string[], input?: string) {
  const child = new Deno.Command(command, {
    args,
    stdin: input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
  }
  const { success, stdout, stderr } = await child.output();
  return {
    success,
    stdout: new TextDecoder().decode(stdout),
    stderr: new TextDecoder().decode(stderr),
  };
}

async function must(
  command: string,
  args: string[],
  input?: string,
): Promise<void> {
  const { success, stderr } = await run(command, args, input);
  if (!success) {
    throw new Error(`${command} ${args.join(" ")} failed: ${stderr.trim()}`);
  }
}
