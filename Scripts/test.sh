#!/usr/bin/env bash
# The test command: installs what a fresh Debian machine lacks, then runs `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
swift test 2>&1
