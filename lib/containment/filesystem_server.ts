/**
 * A server that is not a Deno program: the published Node server
 * `@modelcontextprotocol/server-filesystem`, at the version the course
 * imports, installed from Deno's cache into the course's `node_modules/` and
 * run by Node. It keeps a careful check of its own on the folders it is
 * given; Chapter 15 gives it `/` (a careless configuration, or a bug, stands
 * in for any server that does more than it should) and watches what the
 * operating-system boundary makes of that.
 *
 * @module
 */

import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { courseImports } from "../course/course_imports.ts";
import { Client } from "../mcp/client/client.ts";
import type { ClientOptions } from "../mcp/client/client_options.ts";
import { INTRUDER_LINE } from "../../servers/intruder.ts";
import type { Layer, Observation } from "./attempts.ts";
import type { Playground } from "./playground.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PACKAGE = "@modelcontextprotocol/server-filesystem";

/** Where the filesystem server is, once installed. */
export interface FilesystemServer {
  /** The Node executable. */
  node: string;
  /** The folder of installed packages, all the server's code. */
  nodeModules: string;
  /** The server's script. */
  script: string;
}

/**
 * Install the filesystem server into the course's `node_modules/` (from
 * Deno's cache, as `deno.lock` pins it; the first time it may download it),
 * unless it is there, and find Node. Throws `Deno.errors.NotFound` when
 * Node is not on the `PATH`.
 */
export async function installFilesystemServer(): Promise<FilesystemServer> {
  const nodeModules = join(ROOT, "node_modules");
  const script = join(nodeModules, PACKAGE, "dist", "index.js");
  try {
    await Deno.stat(script);
  } catch {
    const { success, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "install",
        "--frozen",
        "--quiet",
        "--node-modules-dir=auto",
        "--entrypoint",
        (await courseImports(new URL("../../", import.meta.url)))[PACKAGE],
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!success) {
      throw new Error(`Installing ${PACKAGE} failed: ${new TextDecoder().decode(stderr)}`);
    }
  }
  return { node: which("node"), nodeModules, script };
}

/** The first executable `name` on the `PATH`. */
function which(name: string): string {
  for (const folder of (Deno.env.get("PATH") ?? "").split(":")) {
    const path = posix.join(folder || ".", name);
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // Not in this folder.
    }
  }
  throw new Deno.errors.NotFound(`${name} is not on the PATH`);
}

/** What {@linkcode observeFilesystemServer} found. */
export interface FilesystemRun {
  /** Each attempt, as a witness saw it. */
  observations: Observation[];
  /** What the server listed at `/`: the machine it sees. */
  root: string;
}

/**
 * Start the filesystem server with `command` (given `/` as its folder), and
 * ask it, as a model might, to read the home folder's private key and to
 * write a line into `~/.bashrc`; the canary's token and the file decide. The
 * tool's own work is counting the words of `note.txt` read through it. The
 * `Client` checks with `checks`' `answer` and `authorize` (the notebook's are
 * the learner's Unit A functions). @default {the library's answerFor and authorize}
 */
export async function observeFilesystemServer(
  layer: Layer,
  command: string[],
  playground: Playground,
  checks: Pick<ClientOptions, "answer" | "authorize"> = {},
): Promise<FilesystemRun> {
  const wire: string[] = [];
  const before = await Deno.readTextFile(playground.profile);
  let answer = "";
  let root = "";
  let said: string[] = [];
  {
    await using client = new Client(command, {
      answer: checks.answer,
      authorize: checks.authorize,
      allowed: ["read_text_file", "write_file", "list_directory"],
      timeoutMs: 30_000,
      graceMs: 300,
      transcript: (_, line) => wire.push(line),
    });
    const call = async (name: string, args: Record<string, string>) => {
      try {
        return await client.callTool(name, args);
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
    };
    await client.initialize();
    await client.listTools();
    const note = await call("read_text_file", { path: join(playground.data, "note.txt") });
    answer = /^\w+Error: /.test(note) ? note : String(note.split(/\s+/).filter(Boolean).length);
    root = await call("list_directory", { path: "/" });
    said = [
      await call("read_text_file", { path: playground.secret.where }),
      await call("write_file", { path: playground.profile, content: `${INTRUDER_LINE}\n` }),
    ];
  }
  const after = await Deno.readTextFile(playground.profile).catch(() => "");
  await Deno.writeTextFile(playground.profile, before);
  const read = wire.some((line) => line.includes(playground.secret.token));
  const wrote = after.includes(INTRUDER_LINE);
  const row = (
    attempt: string,
    succeeded: boolean,
    witness: Observation["witness"],
    saw: string,
    i: number,
  ) => ({
    attempt,
    layer,
    outcome: succeeded ? "succeeded" as const : "refused" as const,
    by: succeeded || layer === "none" ? null : "bubblewrap" as const,
    witness,
    saw,
    answer,
    server_said: said[i].replaceAll(playground.secret.token, "[the canary's token]")
      .replace(/\s+/g, " ").trim().slice(0, 200),
  });
  return {
    observations: [
      row(
        "read a private key in the home folder",
        read,
        "canary",
        read ? "the secret's token came back on the wire" : "the token never showed",
        0,
      ),
      row(
        "plant a line in ~/.bashrc",
        wrote,
        "file system",
        wrote ? "the file now holds the intruder's line" : "the file is as it was",
        1,
      ),
    ],
    root,
  };
}
