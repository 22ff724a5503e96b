#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image,
# with the package unzipped in /autograder/source (AUTOGRADER_ROOT stands in
# for /autograder when the package is tried elsewhere). It installs Deno from
# the npm registry, and compiles and caches everything the grader runs, so
# that grading needs no network.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
cd "$ROOT/source"
if ! command -v deno >/dev/null 2>&1; then
  if ! command -v npm >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
  fi
  npm install -g --no-fund --no-audit deno@2.9.6
fi
export DENO_DIR="$ROOT/source/.deno" NO_COLOR=1 DENO_NO_UPDATE_CHECK=1
# lib/mcp/shared/schema.ts brings ajv, which learners' Lab 02 clients use inside the sandbox.
deno cache tools/autograder/run.ts tools/grading/sandbox_runner.ts tools/grading/sandbox_worker.ts holdouts/mod.ts lib/mcp/shared/schema.ts
