#!/usr/bin/env bash
# The Frictionless Data validator the open-data tests run (tests/opendata.rs): a throw-away
# venv with the pinned versions of scripts/frictionless-requirements.txt, outside the tracked
# files, at ${CARGO_TARGET_DIR:-target}/venv-frictionless (FRICTIONLESS_VENV names another).
#
# Quick and silent when the venv is already made from the same list with the same Python
# (a stamp file inside it says so); else it makes it afresh, with pip's own cache, and says
# how long that took. Needs python3 with its venv module, and PyPI (or pip's cache).
set -euo pipefail
cd "$(dirname "$0")/.."

reqs=scripts/frictionless-requirements.txt
venv=${FRICTIONLESS_VENV:-${CARGO_TARGET_DIR:-target}/venv-frictionless}
python=${PYTHON:-python3}

command -v "$python" >/dev/null || { echo "frictionless-venv: $python is missing (install python3 and python3-venv)" >&2; exit 1; }
stamp="$(sha256sum "$reqs" | cut -d' ' -f1) $("$python" -c 'import sys; print(sys.version.split()[0])')"
if [ -x "$venv/bin/frictionless" ] && [ "$(cat "$venv/.huduku-stamp" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi

start=$(date +%s)
rm -rf "$venv"
"$python" -m venv "$venv" || { echo "frictionless-venv: '$python -m venv' failed (on Debian: apt-get install python3-venv)" >&2; exit 1; }
# Wheels only: nothing is built, and a missing wheel fails here rather than half-way; no
# byte-compiling ahead (Python does it on first use): a third less time.
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-input --only-binary :all: --no-compile -r "$reqs"
"$venv/bin/frictionless" --version >/dev/null
# Written last: a venv cut short is made again next time.
echo "$stamp" >"$venv/.huduku-stamp"
echo "frictionless-venv: made $venv ($("$venv/bin/frictionless" --version)) in $(($(date +%s) - start))s" >&2
