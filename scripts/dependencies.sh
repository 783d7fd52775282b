#!/bin/sh
# Installs what gateau needs to build and test, on Debian, when missing.
# Sourced by scripts/play, scripts/test and scripts/fuzz.
GATEAU_PACKAGES="build-essential cmake pkg-config libjansson-dev libedit-dev libcriterion-dev libcairo2-dev libsqlite3-dev libcivetweb-dev"
# The fuzz targets (scripts/fuzz) are built with clang and libFuzzer.
GATEAU_FUZZ_PACKAGES="clang-14 libclang-rt-14-dev"

# gateau_install_dependencies [fuzz]: the packages to build and test, and
# with "fuzz" those of the fuzz targets too.
gateau_install_dependencies() {
    packages="$GATEAU_PACKAGES"
    [ "${1:-}" = fuzz ] && packages="$packages $GATEAU_FUZZ_PACKAGES"
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
