/**
 * What changes on a server while clients listen (2026-07-28's
 * `subscriptions/listen`): its lists of tools, prompts or resources, or one
 * resource. The server's own code says what changed; each open subscription
 * passes on what its client opted in to.
 *
 * @module
 */

/** One change: a list, or one resource's contents. */
export type Change =
  | { kind: "toolsListChanged" | "promptsListChanged" | "resourcesListChanged" }
  | { kind: "resourceUpdated"; uri: string };

/**
 * The changes of one server, told to everyone listening.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const feed = new ChangeFeed();
 * const heard: string[] = [];
 * const stop = feed.listen((change) => void heard.push(change.kind));
 * feed.toolsChanged();
 * stop();
 * feed.promptsChanged();
 * assert.deepEqual(heard, ["toolsListChanged"]);
 * ```
 */
export class ChangeFeed {
  readonly #listeners = new Set<(change: Change) => void>();

  /** Tell `listener` of every change from now on; the function returned stops it. */
  listen(listener: (change: Change) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** The list of tools changed. */
  toolsChanged(): void {
    this.#tell({ kind: "toolsListChanged" });
  }

  /** The list of prompts changed. */
  promptsChanged(): void {
    this.#tell({ kind: "promptsListChanged" });
  }

  /** The list of resources changed. */
  resourcesChanged(): void {
    this.#tell({ kind: "resourcesListChanged" });
  }

  /** The resource `uri` changed. */
  resourceUpdated(uri: string): void {
    this.#tell({ kind: "resourceUpdated", uri });
  }

  #tell(change: Change): void {
    for (const listener of [...this.#listeners]) listener(change);
  }
}
