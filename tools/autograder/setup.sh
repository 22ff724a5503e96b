#!/usr/bin/env bash
# Gradescope runs this once, as root from /, when it builds the autograder's
# image, with the package unzipped in /autograder/source. It installs the
# pinned Deno from PyPI's `deno` package into a virtual environment of its
# own (no Node needed: Gradescope's Ubuntu 22.04 image has Node 12, too old for
# npm's `deno`), checks its version rather than trusting a `deno` on the PATH,
# then compiles and caches what grading imports (cache.txt, with the package's
# own deno.lock), so that grading needs no network.
set -euo pipefail
ROOT=/autograder
SOURCE="$ROOT/source"
DENO_VERSION=2.9.6
VENV="$SOURCE/.deno-venv"
DENO="$VENV/bin/deno"

say() { printf 'setup.sh: %s\n' "$*"; }

if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then
  say "installing python3-venv from the distribution's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
fi
version() { "$DENO" --version 2>/dev/null | head -n 1 | cut -d' ' -f2; }
if [ ! -x "$DENO" ] || [ "$(version)" != "$DENO_VERSION" ]; then
  say "installing Deno $DENO_VERSION from PyPI into $VENV"
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "deno==$DENO_VERSION"
fi
if [ "$(version)" != "$DENO_VERSION" ]; then
  say "expected Deno $DENO_VERSION at $DENO, found: $(version)" >&2
  exit 1
fi
say "Deno $(version) at $DENO"

cd "$SOURCE"
export DENO_DIR="$SOURCE/.deno" NO_COLOR=1 DENO_NO_UPDATE_CHECK=1
# shellcheck disable=SC2046 # cache.txt holds one package-relative path a line, none with a space.
"$DENO" cache --frozen $(cat cache.txt)
# The grader bundles the npm packages its sandbox loads (`deno bundle`), with an esbuild that Deno
# fetches from the npm registry the first time it bundles: now, while the image is built.
warm=$(mktemp -d)
"$DENO" bundle --quiet --frozen --output="$warm/warm.js" lib/mcp/shared/errors.ts
rm -rf "$warm"
say "cached what grading imports: $(du -sh "$DENO_DIR" | cut -f1) in $DENO_DIR"
