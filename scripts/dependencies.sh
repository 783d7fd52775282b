#!/bin/sh
# Installs what gateau needs to build and test, on Debian, when missing.
# Sourced by scripts/play and scripts/test.
GATEAU_PACKAGES="build-essential cmake pkg-config libjansson-dev libedit-dev libcriterion-dev libcairo2-dev libsqlite3-dev libcivetweb-dev"

gateau_install_dependencies() {
    missing=""
    for package in $GATEAU_PACKAGES; do
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
