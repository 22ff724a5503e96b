/**
 * Chapter 15's playground: a folder that stands for a machine worth
 * protecting. It holds the tool's data folder (`data/note.txt`, four words),
 * a home folder with secrets in it, each a canary holding a fresh random
 * token (so a token seen anywhere proves that it was read), a variable with a
 * token of its own for the server's environment, and listeners on loopback
 * ports that count who connects. Everything goes when it is disposed, and
 * the folder goes when the process that made it ends (a notebook's kernel
 * restarted, shut down or crashed): a new playground sweeps away those whose
 * process has ended, and one made in a kernel is watched until it ends.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { plainTemp } from "../course/plain_temp.ts";
import { claim, PLAYGROUND_PREFIX, removeWithKernel, sweep } from "./_playground_owner.ts";

/** A secret whose token proves, wherever it turns up, that it was read. */
export interface Canary {
  /** Where the secret is: a file's path, or a variable's name. */
  where: string;
  token: string;
}

/** A TCP listener on 127.0.0.1 that counts the connections it accepts. */
export class Listener {
  readonly #listener: Deno.TcpListener;
  readonly #accepting: Promise<void>;
  #connections = 0;

  /**
   * Listen on a free port of 127.0.0.1.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   *
   * using listener = new Listener();
   * (await Deno.connect({ hostname: "127.0.0.1", port: listener.port })).close();
   * await new Promise((resolve) => setTimeout(resolve, 50));
   * assert.equal(listener.connections, 1);
   * ```
   */
  constructor() {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    this.#listener = listener;
    this.#accepting = (async () => {
      try {
        for await (const connection of listener) {
          this.#connections++;
          connection.close();
        }
      } catch {
        // Closed.
      }
    })();
  }

  /** The port it listens on. */
  get port(): number {
    return this.#listener.addr.port;
  }

  /** How many connections it has accepted. */
  get connections(): number {
    return this.#connections;
  }

  /** Stop listening. */
  [Symbol.dispose](): void {
    try {
      this.#listener.close();
    } catch {
      // Already closed.
    }
  }

  /** Stop listening, and wait until the accepting loop has ended. */
  async close(): Promise<void> {
    this[Symbol.dispose]();
    await this.#accepting;
  }
}

/** A machine worth protecting, in a folder. */
export class Playground implements AsyncDisposable {
  /** The folder that holds it all. */
  readonly root: string;
  /** A name no other playground has: the folder's. */
  readonly id: string;
  /** The tool's data folder: all it needs. */
  readonly data: string;
  /** A home folder, which the tool must never reach. */
  readonly home: string;
  /** A private key in the home folder. */
  readonly secret: Canary;
  /** A variable in the server's environment. */
  readonly variable: Canary;
  /** A shell's start-up file in the home folder, a place to plant a command. */
  readonly profile: string;
  /** A listener on a loopback port. */
  readonly listener: Listener;
  readonly #listeners: Listener[];
  #marks = 0;

  private constructor(root: string) {
    this.root = root;
    this.id = basename(root);
    this.data = join(root, "data");
    this.home = join(root, "home");
    this.secret = { where: join(this.home, ".ssh", "id_ed25519"), token: token() };
    this.variable = { where: "COURSE_CANARY_TOKEN", token: token() };
    this.profile = join(this.home, ".bashrc");
    this.listener = new Listener();
    this.#listeners = [this.listener];
  }

  /**
   * Make a playground in a new folder under the system's temporary folder
   * (under `/tmp` when that folder's path has characters Deno's flags cannot
   * name, such as a comma).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   *
   * await using playground = await Playground.create();
   * assert.equal(await Deno.readTextFile(`${playground.data}/note.txt`), "vanilla stock needs review\n");
   * assert.match(await Deno.readTextFile(playground.secret.where), new RegExp(playground.secret.token));
   * ```
   */
  static async create(): Promise<Playground> {
    await sweep(plainTemp()).catch(() => []);
    const root = await Deno.makeTempDir({ dir: plainTemp(), prefix: PLAYGROUND_PREFIX });
    await claim(root);
    await removeWithKernel(root);
    const playground = new Playground(root);
    await Deno.mkdir(playground.data, { recursive: true });
    await Deno.writeTextFile(join(playground.data, "note.txt"), "vanilla stock needs review\n");
    await playground.plant(".ssh/id_ed25519", playground.secret.token);
    await Deno.writeTextFile(playground.profile, "export EDITOR=nano\n");
    return playground;
  }

  /**
   * Put a secret at `path` under the home folder, with a fresh token (or the
   * one given); returns its canary.
   */
  async plant(path: string, secret = token()): Promise<Canary> {
    const where = join(this.home, path);
    await Deno.mkdir(dirname(where), { recursive: true });
    await Deno.writeTextFile(where, `-----BEGIN SECRET-----\n${secret}\n-----END SECRET-----\n`);
    return { where, token: secret };
  }

  /** Make `name` in the data folder a symbolic link to `target`; returns the link's path. */
  async link(name: string, target: string): Promise<string> {
    const path = join(this.data, name);
    await Deno.symlink(target, path);
    return path;
  }

  /**
   * A new mark for the processes a server starts (`MCP_COURSE_GRANDCHILD=MARK`
   * in their environment), `ch15-` and this playground's id first, so that
   * the process table can find every process the playground's servers left.
   */
  mark(): string {
    return `ch15-${this.id}-${++this.#marks}`;
  }

  /** Open another listener, closed with the playground. */
  openListener(): Listener {
    const listener = new Listener();
    this.#listeners.push(listener);
    return listener;
  }

  /** Close every listener and remove the folder. */
  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all(this.#listeners.map((listener) => listener.close()));
    await Deno.remove(this.root, { recursive: true }).catch(() => {});
  }
}

/**
 * What a playground made at `root` holds when it is made, by path: its
 * folders and its files (before any attempt writes in it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * await using playground = await Playground.create();
 * const made = playgroundKinds(playground.root);
 * assert.equal(made.get(playground.data), "folder");
 * assert.equal(made.get(playground.secret.where), "file");
 * for (const [path, kind] of made) {
 *   assert.equal(Deno.statSync(path).isDirectory ? "folder" : "file", kind, path);
 * }
 * ```
 */
export function playgroundKinds(root: string): ReadonlyMap<string, "folder" | "file"> {
  const home = join(root, "home");
  return new Map([
    [root, "folder"],
    [join(root, "data"), "folder"],
    [join(root, "data", "note.txt"), "file"],
    [home, "folder"],
    [join(home, ".ssh"), "folder"],
    [join(home, ".ssh", "id_ed25519"), "file"],
    [join(home, ".bashrc"), "file"],
  ]);
}

/** A fresh random token, such as `canary-3f2a...`. */
function token(): string {
  return `canary-${crypto.randomUUID()}`;
}
