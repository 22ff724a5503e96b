// `deno task hub [--port P] [--learners a,b,c] [--repo URL] [--state DIR]`: a real
// JupyterHub for a workshop on this machine, on 127.0.0.1:P (default 8000), run as
// root. Each learner is a local account with a home of their own (made, with a
// password printed once, when missing); their server runs as them. The Deno
// kernelspec and Deno's cache live in the hub's state folder (default
// /srv/external-tools-hub), outside every home. The course is handed out by the
// nbgitpuller link it prints, from the learners' release: built from this
// repository into a git repository in the state folder, or the one --repo names.
// It runs until SIGINT or SIGTERM, then stops the hub, every learner's server
// and the proxy, and checks that no learner's process is left.
//
// Needs `sh tools/setup.sh hub` first. The admin service's token is
// COURSE_HUB_TOKEN when it is set, otherwise a new one, written to
// STATE/course-admin-token (readable by root only).

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { type Account, ensureAccounts, processesOf } from "./accounts.ts";
import { pullLink } from "./pull_link.ts";
import { must } from "./must.ts";
import { suiteMarkEnv } from "../suite_mark.ts";
import { publishRelease } from "./release_repository.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const VENV = "/opt/external-tools-hub/venv";
const PROXY = `${ROOT}tools/hub/node_modules/.bin/configurable-http-proxy`;
const USAGE = "usage: deno task hub [--port P] [--learners a,b,c] [--repo URL] [--state DIR]";

const say = (line: string) => console.log(`hub: ${line}`);

/** The command line, checked. */
function options() {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      port: { type: "string", default: "8000" },
      learners: { type: "string" },
      repo: { type: "string" },
      state: { type: "string", default: "/srv/external-tools-hub" },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(
      `--port must be a port number, not ${values.port}\n${USAGE}`,
    );
  }
  const learners = values.learners?.split(",").map((name) => name.trim())
    .filter(Boolean);
  return {
    port,
    learners,
    repo: values.repo,
    state: values.state.replace(/\/+$/, ""),
  };
}

/** A port nothing listens on now. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** The learners named now, or those of the hub's last run. */
async function learnerNames(
  state: string,
  named: string[] | undefined,
): Promise<string[]> {
  const file = `${state}/learners.json`;
  if (named !== undefined) {
    await Deno.writeTextFile(file, JSON.stringify(named) + "\n");
    return named;
  }
  try {
    return JSON.parse(await Deno.readTextFile(file));
  } catch {
    throw new Error(
      `name the learners the first time: --learners ana,ben,cam\n${USAGE}`,
    );
  }
}

/** The Deno kernelspec, in the state folder's share/jupyter (on every learner's JUPYTER_PATH). */
async function installKernelspec(
  state: string,
  denoDir: string,
): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "kernelspec-" });
  try {
    await must(`${VENV}/bin/deno`, ["jupyter", "--install", "--force"], home, {
      HOME: home,
    });
    const made = `${home}/.local/share/jupyter/kernels/deno`;
    const target = `${state}/share/jupyter/kernels/deno`;
    await Deno.mkdir(target, { recursive: true });
    for await (const entry of Deno.readDir(made)) {
      await Deno.copyFile(`${made}/${entry.name}`, `${target}/${entry.name}`);
    }
    const spec = JSON.parse(await Deno.readTextFile(`${target}/kernel.json`));
    spec.argv[0] = `${VENV}/bin/deno`;
    spec.env = { DENO_DIR: denoDir, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
    await Deno.writeTextFile(
      `${target}/kernel.json`,
      JSON.stringify(spec, null, 2) + "\n",
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** Cache, as root, every npm package and module the course in `checkout` imports, into `denoDir`. */
async function fillDenoCache(checkout: string, denoDir: string): Promise<void> {
  const modules: string[] = [];
  for (const folder of ["lib", "servers", "cases", "tools"]) {
    const walk = async (path: string) => {
      for await (const entry of Deno.readDir(`${checkout}/${path}`)) {
        if (entry.isDirectory && entry.name !== "node_modules") {
          await walk(`${path}/${entry.name}`);
        } else if (entry.isFile && entry.name.endsWith(".ts")) {
          modules.push(`${path}/${entry.name}`);
        }
      }
    };
    await walk(folder).catch(() => {});
  }
  await must(`${VENV}/bin/deno`, ["cache", ...modules], checkout, {
    DENO_DIR: denoDir,
  });
  await must("chmod", ["-R", "a+rX", denoDir], checkout);
}

async function main(): Promise<number> {
  const { port, learners: named, repo, state } = options();
  if (Deno.uid() !== 0) {
    throw new Error("run the hub as root: it makes accounts and runs as them");
  }
  for (const needed of [`${VENV}/bin/jupyterhub`, PROXY]) {
    await Deno.stat(needed).catch(() => {
      throw new Error(`${needed} is missing: run sh tools/setup.sh hub first`);
    });
  }
  await Deno.mkdir(state, { recursive: true });
  await Deno.chmod(state, 0o755);
  const accounts: Account[] = await ensureAccounts(
    await learnerNames(state, named),
  );
  for (const { name, password } of accounts) {
    say(
      password === undefined ? `learner ${name}` : `learner ${name}, password ${password}`,
    );
  }

  const checkout = `${state}/release`;
  let repository = repo;
  if (repository === undefined) {
    repository = `${state}/release.git`;
    say(
      `release ${await publishRelease(checkout, repository)} in ${repository}`,
    );
  } else {
    await Deno.remove(checkout, { recursive: true }).catch(() => {});
    await must(
      "git",
      ["clone", "--quiet", "--depth=1", repository, checkout],
      state,
    );
  }
  const denoDir = `${state}/deno`;
  await fillDenoCache(checkout, denoDir);
  await installKernelspec(state, denoDir);
  await Deno.writeTextFile(
    `${state}/gitconfig`,
    `[safe]\n\tdirectory = ${repository}\n[include]\n\tpath = ~/.gitconfig\n`,
  );

  const token = Deno.env.get("COURSE_HUB_TOKEN") ??
    [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0"))
      .join("");
  await Deno.writeTextFile(`${state}/course-admin-token`, token + "\n", {
    mode: 0o600,
  });
  const settings = `${state}/settings.json`;
  await Deno.writeTextFile(
    settings,
    JSON.stringify({
      port,
      hub_port: freePort(),
      proxy_api_port: freePort(),
      proxy: PROXY,
      state,
      venv: VENV,
      deno_dir: denoDir,
      learners: accounts.map(({ name }) => name),
      token,
    }),
    { mode: 0o600 },
  );

  const hub = new Deno.Command(`${VENV}/bin/jupyterhub`, {
    args: ["-f", `${ROOT}tools/hub/jupyterhub_config.py`],
    cwd: state,
    env: {
      COURSE_HUB_SETTINGS: settings,
      ...suiteMarkEnv(),
      PATH: `${VENV}/bin:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    },
    clearEnv: true,
    stdin: "null",
  }).spawn();
  const stop = () => {
    try {
      hub.kill("SIGTERM");
    } catch {
      // It has exited already.
    }
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 600; tries++) {
    const up = await fetch(`${url}/hub/api/`).then((r) => r.body?.cancel().then(() => r.ok))
      .catch(() => false);
    if (up) break;
    if (
      await Promise.race([
        hub.status.then(() => true),
        delay(200).then(() => false),
      ])
    ) break;
  }
  say(`ready at ${url}/ (admin token in ${state}/course-admin-token)`);
  say(`hand the course out with: ${pullLink(url, repository)}`);

  const { code } = await hub.status;
  const left = await processesOf(accounts.map(({ uid }) => uid));
  for (const pid of left) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // It ended meanwhile.
    }
  }
  say(
    left.length === 0
      ? "stopped: no learner's process is left"
      : `stopped; ended ${left.length} learner processes the hub left running`,
  );
  return code;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  Deno.exit(await main());
} catch (error) {
  console.error(`hub: ${(error as Error).message}`);
  Deno.exit(1);
}
