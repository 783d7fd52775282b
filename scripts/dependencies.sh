#!/bin/sh
# Installs what gateau needs to build and test, on Debian, when missing.
# Sourced by scripts/play, scripts/test and scripts/fuzz.
GATEAU_PACKAGES="build-essential cmake pkg-config libjansson-dev libedit-dev libcriterion-dev libcairo2-dev libsqlite3-dev libpq-dev libwebsockets-dev libwebsockets-evlib-ev libev-dev python3-numpy python3-pytest"
# (python3-numpy and python3-pytest: the Python package and its tests, python/.)
# The fuzz targets (scripts/fuzz) are built with clang and libFuzzer.
GATEAU_FUZZ_PACKAGES="clang-14 libclang-rt-14-dev"
# The tests beyond the C ones: the browser tests (tests/web) drive Debian's
# chromium from Node.js (the machine's own Node.js and npm when it has
# them, else Debian's); the cluster recipes' check runs GNU parallel;
# the packaging check runs systemd-analyze (systemd).
GATEAU_TEST_PACKAGES="chromium parallel postgresql systemd"
command -v npm >/dev/null 2>&1 || GATEAU_TEST_PACKAGES="$GATEAU_TEST_PACKAGES nodejs npm"

# gateau_install_dependencies [fuzz] [tests]: the packages to build and run
# gateau, with "fuzz" those of the fuzz targets too, with "tests" those of
# the other tests (and the browser tests' npm packages, from
# tests/web/package-lock.json).
gateau_install_dependencies() {
    packages="$GATEAU_PACKAGES"
    for extra in "$@"; do
        [ "$extra" = fuzz ] && packages="$packages $GATEAU_FUZZ_PACKAGES"
        [ "$extra" = tests ] && packages="$packages $GATEAU_TEST_PACKAGES"
    done
    gateau_install_packages $packages || return 1
    for extra in "$@"; do
        if [ "$extra" = tests ] && [ ! -d tests/web/node_modules/playwright-core ]; then
            (cd tests/web && npm ci --no-audit --no-fund --loglevel=error) || return 1
        fi
    done
    return 0
}

# gateau_install_packages PACKAGE...: apt-get installs those not installed.
gateau_install_packages() {
    packages="$*"
    missing=""
    for package in $packages; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
            missing="$missing $package"
    done
    [ -z "$missing" ] && return 0
    echo "Installing:$missing"
    sudo_command=""
    [ "$(id -u)" -ne 0 ] && sudo_command="sudo"
    $sudo_command apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive $sudo_command apt-get install -y -qq $missing >/dev/null
}
