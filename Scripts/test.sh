#!/usr/bin/env bash
# The test command: installs what a fresh Debian machine lacks, then runs `swift test` and
# the corpus generator's tests (skipped, saying so, where Python's numpy/Pillow cannot be had).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
swift test 2>&1
if bash Scripts/install-corpus-deps.sh && python3 -c "import numpy, PIL" 2>/dev/null; then
  (cd Scripts && python3 -m unittest discover -s tests -v 2>&1)
else
  echo "corpus generator tests skipped: numpy/Pillow or the font packages could not be installed"
fi
