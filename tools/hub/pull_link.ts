/**
 * The nbgitpuller link that hands the course out: opened by a learner, it
 * logs them in to the hub, starts their server, clones the learners' release
 * into `~/course` (or pulls it, merging upstream changes, when it is there
 * already: nbgitpuller never touches files git ignores, so `work/` is kept),
 * and opens the course in JupyterLab.
 *
 * @module
 */

/** Where the link sends a learner. */
export interface PullLinkOptions {
  /** The branch of the release. @default {"main"} */
  branch?: string;
  /** The folder in the learner's home the course goes to. @default {"course"} */
  target?: string;
  /** What JupyterLab opens once the course is there. @default {"lab/tree/course/README.md"} */
  open?: string;
}

/**
 * The link to the hub at `hub` (its public address) that pulls `repository`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 *
 * const link = pullLink("http://127.0.0.1:8000", "/srv/hub/release.git");
 * assert.equal(
 *   link,
 *   "http://127.0.0.1:8000/hub/user-redirect/git-pull?repo=%2Fsrv%2Fhub%2Frelease.git" +
 *     "&branch=main&targetPath=course&urlpath=lab%2Ftree%2Fcourse%2FREADME.md",
 * );
 * ```
 */
export function pullLink(
  hub: string,
  repository: string,
  options: PullLinkOptions = {},
): string {
  const target = options.target ?? "course";
  const query = new URLSearchParams({
    repo: repository,
    branch: options.branch ?? "main",
    targetPath: target,
    urlpath: options.open ?? `lab/tree/${target}/README.md`,
  });
  return `${hub.replace(/\/$/, "")}/hub/user-redirect/git-pull?${
    query.toString().replaceAll("+", "%20")
  }`;
}
