// Gradescope's harness, as its documentation describes it, in a throwaway
// root: a bubblewrap sandbox whose / holds this machine's /usr and /etc
// read-only, an empty /root and /tmp, and /autograder, the image's folder,
// bound to a scratch folder. Setup runs once, as root, from /, with a minimal
// environment: the zip unzipped into /autograder/source, run_autograder copied
// to /autograder/run_autograder, then `bash /autograder/source/setup.sh`. Each
// submission starts from that image: its files in /autograder/submission/,
// /autograder/run_autograder run from /autograder, and
// /autograder/results/results.json read.

import assert from "node:assert/strict";
import { unzipSync } from "fflate";

/**
 * This machine's own certificate settings, those of them that are set: its
 * network reaches the registries only through them, as a learner's or a
 * grading platform's reaches them through its own.
 */
export function certificateSettings(): Record<string, string> {
  return Object.fromEntries(
    ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR"].flatMap((name) => {
      const value = Deno.env.get(name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
}

/**
 * Run a course's set-up, `sh tools/setup.sh`, in the course folder `course` with `env` alone: its
 * exit code, and all it said (standard output, then standard error).
 */
export async function setUpCourse(
  course: string,
  env: Record<string, string>,
): Promise<{ code: number; said: string }> {
  const { code, stdout, stderr } = await new Deno.Command("sh", {
    args: ["tools/setup.sh"],
    cwd: course,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code, said: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr) };
}

/** Run `deno task` with `args` in the repository; what it printed, failing unless it succeeds. */
export async function task(...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", ...args],
    cwd: new URL("../", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const printed = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assert.equal(code, 0, printed);
  return printed;
}

/** The only environment the harness gives its scripts, and the machine's certificate settings. */
const ENVIRONMENT: Record<string, string> = {
  PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  HOME: "/root",
  LANG: "C.UTF-8",
  ...certificateSettings(),
};

/** One autograder image: the package built and set up in a scratch folder. */
export class GradescopeImage {
  /** The scratch folder that stands in for the image's /autograder. */
  readonly folder: string;
  /** What setup.sh printed. */
  setupOutput = "";
  /** pip's download cache, the image's /root/.cache/pip. */
  readonly #pipCache: string;

  /**
   * `pipCache` defaults to this user's own, kept between runs so that the
   * pinned Deno is fetched from PyPI once; a new folder makes a fresh image.
   */
  constructor(
    folder: string,
    { pipCache = `${Deno.env.get("HOME") ?? "/root"}/.cache/pip` }: { pipCache?: string } = {},
  ) {
    this.folder = folder;
    this.#pipCache = pipCache;
  }

  /** Unzip `zip` as Gradescope does, and run setup.sh; fails the test unless it succeeds. */
  async setUp(zip: string): Promise<void> {
    for (const [name, bytes] of Object.entries(unzipSync(await Deno.readFile(zip)))) {
      const path = `${this.folder}/source/${name}`;
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await Deno.writeFile(path, bytes, { mode: 0o755 });
    }
    await Deno.copyFile(`${this.folder}/source/run_autograder`, `${this.folder}/run_autograder`);
    const { code, output } = await this.harness(["bash", "/autograder/source/setup.sh"], "/");
    this.setupOutput = output;
    assert.equal(code, 0, output);
  }

  /** Grade `files` (name to text) as one submission; results.json, and what run_autograder printed. */
  async submit(files: Record<string, string>): Promise<{ results: Results; output: string }> {
    for (const folder of ["submission", "results"]) {
      await Deno.remove(`${this.folder}/${folder}`, { recursive: true }).catch(() => {});
    }
    await Deno.mkdir(`${this.folder}/submission`, { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(`${this.folder}/submission/${name}`, text);
    }
    const { output } = await this.harness(["/autograder/run_autograder"], "/autograder");
    const text = await Deno.readTextFile(`${this.folder}/results/results.json`);
    const results = JSON.parse(text);
    assertGradescopeResults(results);
    return { results, output };
  }

  /** Run `command` in the throwaway root as root, in `cwd`, with the harness's environment. */
  private async harness(command: string[], cwd: string) {
    await Deno.mkdir(this.#pipCache, { recursive: true });
    const args = [
      "--ro-bind",
      "/usr",
      "/usr",
      "--ro-bind",
      "/etc",
      "/etc",
      "--symlink",
      "usr/bin",
      "/bin",
      "--symlink",
      "usr/sbin",
      "/sbin",
      "--symlink",
      "usr/lib",
      "/lib",
      "--symlink",
      "usr/lib64",
      "/lib64",
      "--dir",
      "/root",
      "--bind",
      this.#pipCache,
      "/root/.cache/pip",
      "--tmpfs",
      "/tmp",
      "--dir",
      "/var/tmp",
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      "--bind",
      this.folder,
      "/autograder",
      "--unshare-pid",
      "--die-with-parent",
      "--clearenv",
      ...Object.entries(ENVIRONMENT).flatMap(([name, value]) => ["--setenv", name, value]),
      "--chdir",
      cwd,
      "--",
      ...command,
    ]; // deno-fmt-ignore
    const { code, stdout, stderr } = await new Deno.Command("bwrap", {
      args,
      stdout: "piped",
      stderr: "piped",
      env: ENVIRONMENT,
      clearEnv: true,
    }).output();
    return { code, output: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr) };
  }
}

/** A test as Gradescope reads it. */
export interface Test {
  name: string;
  score: number;
  max_score: number;
  status: "passed" | "failed";
  output: string;
  visibility: string;
}

/** Gradescope's results. */
export interface Results {
  score: number;
  output: string;
  visibility: string;
  execution_time: number;
  tests: Test[];
}

const VISIBILITIES = ["hidden", "after_due_date", "after_published", "visible"];
/** The fields Gradescope's autograder specification documents, with their types. */
const TOP: Record<string, string> = {
  score: "number",
  execution_time: "number",
  output: "string",
  output_format: "string",
  test_output_format: "string",
  test_name_format: "string",
  visibility: "string",
  stdout_visibility: "string",
  extra_data: "object",
  tests: "object",
  leaderboard: "object",
};
const TEST: Record<string, string> = {
  score: "number",
  max_score: "number",
  status: "string",
  name: "string",
  name_format: "string",
  number: "string",
  output: "string",
  output_format: "string",
  tags: "object",
  visibility: "string",
  extra_data: "object",
};

/** Assert that `results` holds only Gradescope's documented fields, each of its type and range. */
export function assertGradescopeResults(results: Record<string, unknown>): void {
  const fields = (value: Record<string, unknown>, known: Record<string, string>, where: string) => {
    for (const [key, field] of Object.entries(value)) {
      assert.ok(key in known, `${where} has a field Gradescope does not document: ${key}`);
      assert.equal(typeof field, known[key], `${where}.${key} must be a ${known[key]}`);
    }
    for (const key of ["visibility", "stdout_visibility"]) {
      if (key in value) assert.ok(VISIBILITIES.includes(value[key] as string), `${where}.${key}`);
    }
  };
  fields(results, TOP, "results");
  assert.ok(Array.isArray(results.tests), "results.tests must be an array");
  assert.ok(Number.isFinite(results.score), "results.score must be a number");
  for (const [index, test] of (results.tests as Record<string, unknown>[]).entries()) {
    fields(test, TEST, `tests[${index}]`);
    assert.ok(["passed", "failed", undefined].includes(test.status as string), "status");
    assert.ok(Number.isFinite(test.score) && Number.isFinite(test.max_score), "scores");
    assert.ok((test.score as number) <= (test.max_score as number), `tests[${index}] over max`);
  }
}
