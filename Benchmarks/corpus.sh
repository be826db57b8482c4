#!/usr/bin/env bash
# The generated corpus: makes it (or reuses it), reads it with the release build and
# prints the per-type and per-condition table (README "Accuracy on the generated corpus").
#
#   bash Benchmarks/corpus.sh            # seed 2, 600 photos: the seed reported, never tuned on
#   bash Benchmarks/corpus.sh 1 600      # seed 1: the development seed
#
# Extra arguments after the count go to `scanreader eval` (e.g. --orientation auto).
# Output: corpus/seed-N/ (photos, regions.jsonl, read.jsonl, worst.png, table.md).
set -euo pipefail
cd "$(dirname "$0")/.."
seed="${1:-2}"; count="${2:-600}"; shift $(( $# > 2 ? 2 : $# ))
dir="corpus/seed-$seed"
bash Scripts/install-deps.sh
bash Scripts/install-corpus-deps.sh
# made again when absent, of another size, or made by another version of the generator
generator=$(cat Scripts/make-corpus.py Scripts/corpus/*.py | sha256sum | cut -d' ' -f1)
if [ ! -f "$dir/regions.jsonl" ] || [ "$(wc -l < "$dir/regions.jsonl")" -ne "$count" ] \
   || [ "$(cat "$dir/generator.sha256" 2>/dev/null)" != "$generator" ]; then
  rm -rf "$dir"
  python3 Scripts/make-corpus.py --seed "$seed" --count "$count" --out "$dir"
  echo "$generator" > "$dir/generator.sha256"
fi
swift build -c release --product scanreader >/dev/null
.build/release/scanreader eval --truth "$dir/regions.jsonl" --out "$dir/read.jsonl" \
  --gallery "$dir/worst.png" "$@" | tee "$dir/table.md"
