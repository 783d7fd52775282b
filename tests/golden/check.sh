#!/bin/sh
# check.sh GATEAU: regenerates the golden outputs (generate.sh) with this
# build and compares them byte for byte with expected.sha256, the outputs of
# the code before the library was reshaped.  Lists every file that differs.
set -e
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$here/generate.sh" "$1" "$out"
cd "$out"
if ! sha256sum --quiet -c "$here/expected.sha256"; then
    echo "golden outputs differ from tests/golden/expected.sha256 (see the files above)" >&2
    exit 1
fi
count=$(wc -l < "$here/expected.sha256")
echo "golden outputs: all $count files identical"
