#!/usr/bin/env bash
# Grid corner accuracy and quad-detection speed on the hand-marked development photos.
#   bash Benchmarks/geometry.sh        (needs ../shared/data; skips without it)
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data
if [ ! -d "$data" ]; then echo "skipped: $data not found"; exit 0; fi
swift build -c release --product scanreader-bench >/dev/null
for set in sudoku-wichtounet-printed sudoku-kubiesa; do
  .build/release/scanreader-bench geometry "$data/$set" "$data/$set/outlines.csv"
done
