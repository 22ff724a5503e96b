#!/bin/sh
# Install what the course needs on a fresh Debian machine with Node and npm,
# skipping whatever is already there. Run it from anywhere:
#
#     sh tools/setup.sh          # Deno, Jupyter's executor and the Deno kernel
#     sh tools/setup.sh test     # the same, and for the browser test the classic
#                                # Notebook server and Chromium
set -eu

WANT=${1:-course}

DENO_VERSION=2.9.6

say() { printf 'setup: %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
    say "need root for: $*"; exit 1
  fi
}

if ! command -v deno >/dev/null 2>&1; then
  say "installing Deno $DENO_VERSION from the npm registry"
  npm install -g --no-fund --no-audit "deno@$DENO_VERSION"
fi
case "$(deno --version | head -n 1)" in
  "deno 2.9."*) ;;
  *) say "warning: the course is built for Deno 2.9; found $(deno --version | head -n 1)" >&2 ;;
esac

# Jupyter's own executor runs the notebooks headlessly (nbconvert and nbclient).
if ! command -v jupyter-nbconvert >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    say "installing Jupyter's executor from Debian's packages"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq jupyter-nbconvert python3-nbclient
  else
    say "please install Jupyter's nbconvert and nbclient (pip install nbconvert nbclient)"; exit 1
  fi
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
INSPECTOR_DIR="$(dirname "$0")/inspector"
if [ ! -f "$INSPECTOR_DIR/node_modules/@modelcontextprotocol/inspector/package.json" ]; then
  say "installing the MCP Inspector for Lab 01 from the npm registry"
  # npm ci refuses the lock file for want of that missing package; install keeps to it.
  npm install --prefix "$INSPECTOR_DIR" --no-save --ignore-scripts --no-fund --no-audit --loglevel=error
fi

# The browser test (deno task test:browser) opens the notebooks in the classic
# Notebook server (Debian 12 does not package JupyterLab) and drives Debian's
# headless Chromium; playwright-core, from npm, never downloads a browser.
if [ "$WANT" = test ]; then
  missing=""
  command -v jupyter-notebook >/dev/null 2>&1 || missing="$missing jupyter-notebook"
  [ -x /usr/bin/chromium ] || missing="$missing chromium"
  if [ -n "$missing" ]; then
    if command -v apt-get >/dev/null 2>&1; then
      say "installing for the browser test from Debian's packages:$missing"
      as_root apt-get update -qq
      # shellcheck disable=SC2086 # one word per package
      DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq $missing
    else
      say "please install the classic Jupyter Notebook and Chromium:$missing"; exit 1
    fi
  fi
fi

# The Deno kernel, registered for this user (quick, and safe to repeat).
NO_COLOR=1 deno jupyter --install --force >/dev/null 2>&1 || { say "deno jupyter --install failed"; exit 1; }
say "ready: $(deno --version | head -n 1), $(jupyter-nbconvert --version 2>/dev/null | head -n 1 | sed 's/^/nbconvert /')"
if [ "$WANT" = test ]; then
  say "for the browser test: jupyter-notebook $(jupyter-notebook --version 2>/dev/null), $(/usr/bin/chromium --version 2>/dev/null)"
fi
