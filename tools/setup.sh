#!/bin/sh
# Install what the course needs on a fresh Debian machine with Node and npm,
# skipping whatever is already there. Run it from anywhere:
#
#     sh tools/setup.sh          # Deno, Jupyter's executor and the Deno kernel
#     sh tools/setup.sh test     # the same: the tests need nothing more yet
set -eu

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

# The Deno kernel, registered for this user (quick, and safe to repeat).
NO_COLOR=1 deno jupyter --install --force >/dev/null 2>&1 || { say "deno jupyter --install failed"; exit 1; }
say "ready: $(deno --version | head -n 1), $(jupyter-nbconvert --version 2>/dev/null | head -n 1 | sed 's/^/nbconvert /')"
