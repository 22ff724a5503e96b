#!/bin/sh
# Install what the course needs on a fresh Debian machine with Node and npm,
# skipping whatever is already there. Run from anywhere:
#
#     sh tools/setup.sh          # what `deno task course` needs: Deno
#     sh tools/setup.sh test     # and what `deno task test` needs
set -eu

DENO_VERSION=2.9.6

if ! command -v deno >/dev/null 2>&1; then
  echo "setup: installing Deno $DENO_VERSION from the npm registry"
  npm install -g --no-fund --no-audit "deno@$DENO_VERSION"
fi
case "$(deno --version | head -n 1)" in
  "deno 2.9."*) ;;
  *) echo "setup: warning: the course is built for Deno 2.9; found $(deno --version | head -n 1)" >&2 ;;
esac
