/**
 * The learners' release as the git repository a hub's nbgitpuller links pull
 * from: built from this repository (`deno task release`) and committed to a
 * bare repository of the hub's, a new commit only when the release changed.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { must } from "./must.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const IDENTITY = [
  "-c",
  "user.name=External Tools with MCP",
  "-c",
  "user.email=hub@localhost",
];

/**
 * Build the release into `folder` (new or a release built before) and commit
 * it to the bare repository `repository` (made when missing) on `main`; the
 * commit's id.
 */
export async function publishRelease(
  folder: string,
  repository: string,
): Promise<string> {
  await must(Deno.execPath(), ["task", "-q", "release", folder], ROOT);
  // The pins in place, as set-up puts them (the hub's learners run no set-up: the hub fills Deno's
  // cache), committed though the release's .gitignore names them.
  await Deno.copyFile(`${folder}/tools/deno.lock`, `${folder}/deno.lock`);
  try {
    await Deno.stat(`${repository}/HEAD`);
  } catch {
    await must("git", [
      "init",
      "-q",
      "--bare",
      "--initial-branch=main",
      repository,
    ], ROOT);
  }
  const git = ["--git-dir", repository, "--work-tree", folder];
  await must("git", [...git, "add", "--all"], folder);
  await must("git", [...git, "add", "--force", "deno.lock"], folder);
  const changed = await new Deno.Command("git", {
    args: [...git, "diff", "--cached", "--quiet", "HEAD"],
    cwd: folder,
    stdout: "null",
    stderr: "null",
  }).output();
  if (!changed.success) {
    await must("git", [
      ...IDENTITY,
      ...git,
      "commit",
      "-q",
      "-m",
      "The learners' release",
    ], folder);
  }
  return (await must(
    "git",
    ["--git-dir", repository, "rev-parse", "HEAD"],
    folder,
  )).trim();
}
