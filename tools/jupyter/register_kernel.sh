#!/bin/sh
# `sh tools/jupyter/register_kernel.sh`: register the Deno kernel for this user
# (quick, and safe to repeat) by the path of the program itself rather than of
# a link that found it. `deno jupyter --install` writes the first `deno` on the
# PATH, whatever was run, so the program's own folder goes first: CI's fresh
# PATH is a folder of links it deletes afterwards, and a kernelspec naming one
# of them would leave every later notebook run on the machine broken.
set -eu
real_deno=$(readlink -f "$(command -v deno)")
PATH="$(dirname "$real_deno"):$PATH" NO_COLOR=1 "$real_deno" jupyter --install --force >/dev/null 2>&1
