#!/bin/sh
# Installs what gpurun needs to build and test on Debian 12 (idempotent; skips what is present).
set -eu
pkgs="build-essential cmake libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev libbenchmark-dev python3-numpy"
missing=""
for p in $pkgs; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
