/**
 * A manifest of what a lab run produced: each file's size and SHA-256 digest,
 * the Deno and course versions that produced them, and when.
 *
 * @module
 */

import config from "../../deno.json" with { type: "json" };

/** One file a run produced. */
export interface ManifestFile {
  /** The file's name, relative to the folder of the manifest. */
  path: string;
  bytes: number;
  /** The SHA-256 digest of its bytes, in lowercase hex. */
  sha256: string;
}

/** A manifest, as `schemas/lab-02-manifest.schema.json` describes it. */
export interface Manifest {
  lab: string;
  /** When the manifest was made, in UTC (ISO 8601). */
  created_at: string;
  deno_version: string;
  course_version: string;
  files: ManifestFile[];
}

/** Options for {@linkcode buildManifest}. */
export interface ManifestOptions {
  /** The lab the files belong to, such as `lab-02`. */
  lab: string;
  /** The time to record. @default {new Date()} */
  now?: Date;
}

/**
 * The manifest of the files `names` in `folder`, read as they are now. Throws
 * `TypeError` for a name that is not a plain file name in the folder, and
 * `Deno.errors.NotFound` for a file that is not there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pathToFileURL } from "node:url";
 *
 * const folder = pathToFileURL(`${await Deno.makeTempDir()}/`);
 * await Deno.writeTextFile(new URL("empty.txt", folder), "");
 * const manifest = await buildManifest(folder, ["empty.txt"], { lab: "lab-02" });
 * assert.deepEqual(manifest.files, [{
 *   path: "empty.txt",
 *   bytes: 0,
 *   sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
 * }]);
 * assert.equal(manifest.deno_version, Deno.version.deno);
 * await Deno.remove(folder, { recursive: true });
 * ```
 */
export async function buildManifest(
  folder: URL,
  names: readonly string[],
  options: ManifestOptions,
): Promise<Manifest> {
  const files: ManifestFile[] = [];
  for (const name of names) {
    if (!/^[\w.-]+$/.test(name) || name === "." || name === "..") {
      throw new TypeError(`A manifest lists files of its own folder by name, not ${name}`);
    }
    const bytes = await Deno.readFile(new URL(name, folder));
    files.push({ path: name, bytes: bytes.length, sha256: await sha256Hex(bytes) });
  }
  return {
    lab: options.lab,
    created_at: (options.now ?? new Date()).toISOString(),
    deno_version: Deno.version.deno,
    course_version: config.version,
    files,
  };
}

/**
 * The SHA-256 digest of `bytes`, in lowercase hex.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * assert.equal((await sha256Hex(new Uint8Array())).slice(0, 8), "e3b0c442");
 * ```
 */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
