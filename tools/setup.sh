#!/bin/sh
# Install what the course needs on a fresh Debian machine with Node, npm and
# Python 3, skipping whatever is already there. Run it from anywhere:
#
#     sh tools/setup.sh          # Deno, JupyterLab with Jupyter's executor, the Deno kernel
#     sh tools/setup.sh test     # the same, Debian's Chromium for the browser test, and the hub
#     sh tools/setup.sh hub      # the same as the first, and the workshop hub (deno task hub)
#
# JupyterLab, nbclient and nbconvert come from PyPI, pinned in
# tools/jupyter/requirements.txt and constraints.txt, into a virtual
# environment in the course folder (.venv/, ignored by git): Debian's own
# Python refuses `pip install`, and Debian 12 packages no JupyterLab. Where
# PyPI cannot be reached, Debian's nbconvert and nbclient stand in for the
# headless runs (`deno task course`, `deno task test`); `deno task lab` and the
# browser test then say what is missing.
set -eu

WANT=${1:-course}
COURSE=$(cd "$(dirname "$0")/.." && pwd)
VENV="$COURSE/.venv"
PINS="$COURSE/tools/jupyter"

DENO_VERSION=2.9.6

# The learners' release holds the course, not the instructors' workshop hub.
if [ "$WANT" = hub ] && [ ! -d "$COURSE/tools/hub" ]; then
  printf 'setup: this copy of the course has no workshop hub (tools/hub/): it is the learners'"'"' release; run the hub from the instructors'"'"' repository\n' >&2
  exit 1
fi

say() { printf 'setup: %s\n' "$*"; }
# Ctrl-C: what a step leaves half done, the next run does again (the pins go in place once all
# they pin is fetched, a virtual environment is stamped once complete): say to run it again.
trap 'say "stopped before it finished: run \`sh tools/setup.sh\` again (it installs only what is missing)" >&2; exit 130' INT

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
    say "need root for: $*"; exit 1
  fi
}

apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then return 1; fi
  say "installing from Debian's packages: $*"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@"
}

if ! command -v deno >/dev/null 2>&1; then
  say "installing Deno $DENO_VERSION from the npm registry"
  # Into npm's global folder: root's on a fresh Debian machine (/usr), where Deno goes in as root,
  # as Debian's packages do; or the learner's own, when npm's prefix names a folder of theirs.
  # Deno's package fetches its binary in a postinstall script, which npm 11.19 and later run only
  # when allowed by name (earlier npm takes the option as a setting it does not use).
  npm_global=$(npm prefix -g)
  if mkdir -p "$npm_global/lib" 2>/dev/null && [ -w "$npm_global/lib" ]; then
    npm install -g --no-fund --no-audit --no-update-notifier --allow-scripts=deno "deno@$DENO_VERSION"
  else
    as_root npm install -g --no-fund --no-audit --no-update-notifier --allow-scripts=deno "deno@$DENO_VERSION"
  fi
  if ! command -v deno >/dev/null 2>&1; then
    say "Deno is installed in $npm_global/bin, which is not on your PATH: add it, then run set-up again" >&2
    exit 1
  fi
fi
case "$(deno --version | head -n 1)" in
  "deno 2.9."*) ;;
  *) say "warning: the course is built for Deno 2.9; found $(deno --version | head -n 1)" >&2 ;;
esac
# Every npm package deno.json imports, as its lock file pins it, into Deno's cache with its registry
# entry: the notebooks' kernels, `deno task lab` and the grader then run with no network. Without
# it, the first of them fetched all of them, so a learner offline after set-up could start none.
# The learners' release ships its pins as tools/deno.lock and no deno.lock, which `deno task` would
# fetch every package of before running any task: set-up puts them in place once all they pin is
# fetched (until then, each task says to run set-up; tools/set_up_first.ts).
pins=
if [ -f "$COURSE/tools/deno.lock" ]; then pins="--frozen --lock=tools/deno.lock"; fi
# shellcheck disable=SC2086 # $pins splits into its flags, or is empty
if ! (cd "$COURSE" && deno install --quiet $pins); then
  say "could not fetch the npm packages the course imports (deno install, above): set-up needs the npm registry once; run it again where it is reachable" >&2
  exit 1
fi
if [ -n "$pins" ]; then cp "$COURSE/tools/deno.lock" "$COURSE/"; fi
# The grader bundles the npm packages its sandbox loads (`deno bundle`), with an esbuild that Deno
# fetches from the npm registry the first time it bundles: now, so that grading needs no network.
warm=$(mktemp -d)
deno bundle --quiet --output="$warm/warm.js" "$COURSE/lib/mcp/shared/errors.ts"
rm -rf "$warm"

# A virtual environment at $1, made with the Python $3 from the pins in the folder $2
# (requirements.txt, and constraints.txt pinning everything they bring), and stamped with them,
# so that a change of pins remakes it; or removed, with a warning that $4.
pinned_venv() {
  rm -rf "$1"
  if "$3" -m venv "$1" &&
    "$1/bin/pip" install --quiet --disable-pip-version-check \
      -r "$2/requirements.txt" -c "$2/constraints.txt"; then
    printf '%s' "$(cat "$2/requirements.txt" "$2/constraints.txt")" >"$1/.course-pins"
  else
    rm -rf "$1"
    say "warning: could not install from PyPI; $4" >&2
  fi
}
# Whether the virtual environment at $1 lacks the program $3 or was made from other pins than $2's.
stale_venv() {
  [ ! -x "$1/bin/$3" ] ||
    [ "$(cat "$1/.course-pins" 2>/dev/null)" != "$(cat "$2/requirements.txt" "$2/constraints.txt")" ]
}

# JupyterLab and Jupyter's executor, from PyPI into .venv/.
if stale_venv "$VENV" "$PINS" jupyter-lab; then
  python=$(command -v python3 || true)
  if [ -z "$python" ]; then apt_install python3 python3-venv; python=python3; fi
  if ! "$python" -m venv --help >/dev/null 2>&1 || ! "$python" -c 'import ensurepip' 2>/dev/null; then
    apt_install python3-venv || true
  fi
  # The pins ask for Python 3.11 or later (IPython 9); Ubuntu 22.04's is 3.10.
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    rm -rf "$VENV"
    say "warning: JupyterLab's pins need Python 3.11 or later, and python3 here is $("$python" --version 2>&1): deno task lab needs a newer one (Debian 12 and Ubuntu 24.04 have one)" >&2
  else
    say "installing JupyterLab, nbclient and nbconvert from PyPI into $VENV"
    pinned_venv "$VENV" "$PINS" "$python" "JupyterLab (deno task lab) and the browser test need it"
  fi
fi
# JupyterLab's defaults for the course (tools/jupyter/overrides.json): no question about Jupyter's
# news over the learner's first grade tables, and nothing fetched from outside.
if [ -x "$VENV/bin/jupyter-lab" ]; then
  mkdir -p "$VENV/share/jupyter/lab/settings"
  cp "$PINS/overrides.json" "$VENV/share/jupyter/lab/settings/overrides.json"
fi

# Chapter 15 contains servers with bubblewrap. Where it cannot be installed,
# the unit says so and grades its command lines without running them.
if ! command -v bwrap >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    say "installing bubblewrap from Debian's packages"
    ( as_root apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq bubblewrap ) ||
      say "could not install bubblewrap: Chapter 15 will not run its sandbox"
  else
    say "bubblewrap is not installed: Chapter 15 will not run its sandbox"
  fi
fi

# Lab 01's fourth judge, the MCP Inspector's command-line mode, pinned in
# tools/inspector/package-lock.json. npm installs it (Deno's npm support cannot:
# a package it names as optional is not on the registry); Deno runs it.
INSPECTOR_DIR="$COURSE/tools/inspector"
if [ ! -f "$INSPECTOR_DIR/node_modules/@modelcontextprotocol/inspector/package.json" ]; then
  say "installing the MCP Inspector for Lab 01 from the npm registry"
  # npm ci refuses the lock file for want of that missing package; install keeps to it.
  npm install --prefix "$INSPECTOR_DIR" --no-save --ignore-scripts --no-fund --no-audit --no-update-notifier --loglevel=error
fi

# The workshop hub (deno task hub, and its test): JupyterHub, the learners' JupyterLab,
# nbgitpuller and the pinned Deno from PyPI (tools/hub/requirements.txt) into a virtual
# environment of its own in /opt, made from Debian's Python, which every learner account can
# run (pyenv's lives in root's home); and npm's configurable-http-proxy, pinned in
# tools/hub/package-lock.json, into tools/hub/node_modules (only the hub, as root, runs it).
if { [ "$WANT" = hub ] || [ "$WANT" = test ]; } && [ -d "$COURSE/tools/hub" ]; then
  HUB_VENV=/opt/external-tools-hub/venv
  hub_pins=$(cat "$COURSE/tools/hub/requirements.txt" "$COURSE/tools/hub/constraints.txt")
  if [ ! -x "$HUB_VENV/bin/jupyterhub" ] || [ "$(cat "$HUB_VENV/.course-pins" 2>/dev/null)" != "$hub_pins" ]; then
    say "installing JupyterHub, JupyterLab, nbgitpuller and Deno from PyPI into $HUB_VENV"
    as_root rm -rf "$HUB_VENV"
    as_root /usr/bin/python3 -m venv "$HUB_VENV"
    as_root "$HUB_VENV/bin/pip" install --quiet --disable-pip-version-check \
      -r "$COURSE/tools/hub/requirements.txt" -c "$COURSE/tools/hub/constraints.txt"
    printf '%s' "$hub_pins" | as_root tee "$HUB_VENV/.course-pins" >/dev/null
  fi
  if [ ! -x "$COURSE/tools/hub/node_modules/.bin/configurable-http-proxy" ]; then
    say "installing configurable-http-proxy for the hub from the npm registry"
    npm ci --prefix "$COURSE/tools/hub" --no-fund --no-audit --no-update-notifier --loglevel=error
  fi
fi

# For the interop tests: FastMCP and the official Python SDK from PyPI (tools/interop/), in a
# virtual environment of their own, so that their dependencies never meet JupyterLab's.
INTEROP_VENV="$COURSE/tools/interop/.venv"
if [ "$WANT" = test ] && [ -d "$COURSE/tools/interop" ] &&
  stale_venv "$INTEROP_VENV" "$COURSE/tools/interop" python; then
  say "installing FastMCP and the MCP Python SDK from PyPI into $INTEROP_VENV"
  pinned_venv "$INTEROP_VENV" "$COURSE/tools/interop" "$(command -v python3)" \
    "its interop tests need FastMCP"
fi

# For the tests: the official MCP conformance suite (0.1.16 and 0.2.0-alpha.12, under npm aliases)
# and the Node 22 it needs, pinned in tools/conformance/package-lock.json (`deno task conformance`
# installs them too when missing).
CONFORMANCE_DIR="$COURSE/tools/conformance"
if [ "$WANT" = test ] && [ -d "$CONFORMANCE_DIR" ] &&
  { [ ! -f "$CONFORMANCE_DIR/node_modules/conformance-0.1/package.json" ] ||
    [ ! -f "$CONFORMANCE_DIR/node_modules/conformance-0.2/package.json" ]; }; then
  say "installing the MCP conformance suite and Node 22 from the npm registry"
  npm ci --prefix "$CONFORMANCE_DIR" --ignore-scripts --no-fund --no-audit --no-update-notifier --loglevel=error
fi

# Without the virtual environment, Debian's executor runs the notebooks headless.
if [ ! -x "$VENV/bin/jupyter-nbconvert" ] && ! command -v jupyter-nbconvert >/dev/null 2>&1; then
  apt_install jupyter-nbconvert python3-nbclient ||
    { say "please install Jupyter's nbconvert and nbclient"; exit 1; }
fi

# The browser test (deno task test:browser) drives Debian's headless Chromium
# with playwright-core, from npm, which never downloads a browser.
if [ "$WANT" = test ] && [ ! -x /usr/bin/chromium ]; then
  apt_install chromium || { say "please install Chromium at /usr/bin/chromium"; exit 1; }
fi

# The Deno kernel, registered for this user by the program's own path.
sh "$COURSE/tools/jupyter/register_kernel.sh" || { say "deno jupyter --install failed"; exit 1; }

if [ -x "$VENV/bin/jupyter-lab" ]; then
  say "ready: $(deno --version | head -n 1), JupyterLab $("$VENV/bin/jupyter-lab" --version 2>/dev/null) in .venv/"
else
  say "ready for headless runs: $(deno --version | head -n 1), $(jupyter-nbconvert --version 2>/dev/null | sed 's/^/nbconvert /') from Debian"
fi
if [ "$WANT" != course ] && [ -d "$COURSE/tools/hub" ]; then say "for the hub: JupyterHub $(/opt/external-tools-hub/venv/bin/jupyterhub --version) in /opt/external-tools-hub/venv"; fi
if [ "$WANT" = test ]; then say "for the browser test: $(/usr/bin/chromium --version 2>/dev/null)"; fi
