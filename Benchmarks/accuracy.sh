#!/usr/bin/env bash
# Reading accuracy on the development photos and on SampleImages, with scanreader eval.
#   bash Benchmarks/accuracy.sh        (the development photos need ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product scanreader >/dev/null
sr=.build/release/scanreader
echo "== SampleImages"; $sr eval --truth SampleImages/expected.csv
data=../shared/data
if [ ! -d "$data" ]; then echo "skipped the development photos: $data not found"; exit 0; fi
echo "== wichtounet-printed (orientation auto)"; $sr eval --truth $data/sudoku-wichtounet-printed/truth.csv --orientation auto
echo "== wichtounet-printed (orientation exif)"; $sr eval --truth $data/sudoku-wichtounet-printed/truth.csv
echo "== kubiesa"; $sr eval --truth $data/sudoku-kubiesa/truth.csv
echo "== wichtounet-mixed (orientation auto)"; $sr eval --truth $data/sudoku-wichtounet-mixed/truth.csv \
  --mask $data/sudoku-wichtounet-mixed/printed_mask.csv --orientation auto
echo "== donshel (hand-filled)"; $sr eval --truth $data/sudoku-donshel/truth.csv
