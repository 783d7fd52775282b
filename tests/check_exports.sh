#!/bin/sh
# check_exports.sh LIBGATEAU.so: the shared library defines and exports
# gateau_* symbols only (hidden visibility, GATEAU_API in include/gateau/),
# so a program that loads it (a server, Python) gets nothing else.
set -e
library="$1"
symbols=$(nm -D --defined-only "$library" | awk '{print $3}')
[ -n "$symbols" ] || { echo "check_exports: no symbols read from $library" >&2; exit 1; }
stray=$(printf '%s\n' "$symbols" | grep -v '^gateau_' | grep -v '^_init$\|^_fini$' || true)
if [ -n "$stray" ]; then
    echo "check_exports: $library exports symbols outside gateau_*:" >&2
    printf '  %s\n' $stray >&2
    exit 1
fi
echo "check_exports: $(printf '%s\n' "$symbols" | grep -c '^gateau_') symbols, all gateau_*"
