#!/bin/sh
# check_packaging.sh GATEAU: packaging/'s files are what they say
# (docs/server.md, "Operating it"):
# - packaging/gateau.service passes `systemd-analyze verify` (when the
#   machine has systemd-analyze: Debian's systemd package), with its
#   ExecStart pointed at a copy of the gateau built here, and nothing said
#   about the unit (an unknown key is only a warning: it fails here);
# - packaging/gateau.conf is accepted by `gateau serve --config FILE
#   --check`, its folders moved to temporary ones; and the check prints
#   its settings back, a PostgreSQL password hidden.
set -e
gateau="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The unit, with the built binary standing in for /usr/bin/gateau.
if command -v systemd-analyze >/dev/null 2>&1; then
    cp "$gateau" "$work/gateau"
    sed "s|/usr/bin/gateau|$work/gateau|" "$source_dir/packaging/gateau.service" > "$work/gateau.service"
    grep -q "ExecStart=$work/gateau serve --config /etc/gateau/gateau.conf" "$work/gateau.service"
    said="$(systemd-analyze verify "$work/gateau.service" 2>&1)" || {
        echo "systemd-analyze verify failed:"; echo "$said"; exit 1; }
    if echo "$said" | grep -q "gateau.service"; then
        echo "systemd-analyze verify warns about the unit:"; echo "$said"; exit 1
    fi
    echo "packaging/gateau.service: systemd-analyze verify passes"
else
    echo "packaging/gateau.service: not verified (no systemd-analyze: Debian package systemd)"
fi

# The example settings, with the service's folders here.
mkdir -p "$work/state" "$work/web"
sed -e "s|/var/lib/gateau|$work/state|" -e "s|/usr/share/gateau/web|$work/web|" \
    "$source_dir/packaging/gateau.conf" > "$work/gateau.conf"
"$gateau" serve --config "$work/gateau.conf" --check > "$work/checked.txt"
grep -qx "db = $work/state/gateau.db" "$work/checked.txt"
grep -qx "host = cake.example.org" "$work/checked.txt"
echo "packaging/gateau.conf: accepted by gateau serve --check"

# A password in a URL is never printed back, and a bad line is refused.
echo "db = postgresql://gateau:hunter2@db.example.org/gateau" >> "$work/gateau.conf"
"$gateau" serve --config "$work/gateau.conf" --check > "$work/checked.txt"
grep -qx "db = postgresql://gateau:\*\*\*@db.example.org/gateau" "$work/checked.txt"
if grep -q hunter2 "$work/checked.txt"; then echo "the password was printed"; exit 1; fi
echo "no such setting" >> "$work/gateau.conf"
if "$gateau" serve --config "$work/gateau.conf" --check > /dev/null 2>&1; then
    echo "a bad line was accepted"; exit 1
fi
echo "packaging: all checked"
