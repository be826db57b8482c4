#!/usr/bin/env bash
# Decode speed: ScanReader's JPEG -> gray loader vs djpeg -grayscale on the same files.
#   bash Benchmarks/decode.sh [DIR]      (default: ../shared/data/sudoku-kubiesa/images)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/data/sudoku-kubiesa/images}
if [ ! -d "$dir" ]; then echo "skipped: $dir not found (pass a folder of JPEGs)"; exit 0; fi
command -v djpeg >/dev/null || { echo "djpeg missing: apt-get install -y libjpeg-turbo-progs"; exit 1; }
swift build -c release --product scanreader-bench >/dev/null
.build/release/scanreader-bench decode "$dir" "${REPEATS:-3}"
