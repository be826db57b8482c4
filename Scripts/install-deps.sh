#!/usr/bin/env bash
# Installs the Debian packages ScanReader builds and tests against (run as root or with sudo).
set -euo pipefail
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
missing=()
for p in pkg-config libjpeg-dev libpng-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
