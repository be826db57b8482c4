#!/usr/bin/env bash
# Whole-pipeline speed: scanreader on a folder of photos with --jobs 1 and --jobs 2, beside
# djpeg -grayscale of the same files in the same run; peak memory from GNU time.
# Each of the three is timed ROUNDS times, interleaved, and the fastest round kept (other
# load on the host only ever adds time).
#   bash Benchmarks/pipeline.sh [DIR] [ROUNDS]   (default: the Kubiesa photos, 12-16 MP; 3)
# Needs: libjpeg-turbo-progs (djpeg), time (GNU time).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/data/sudoku-kubiesa/images}
if [ ! -d "$dir" ]; then echo "skipped: $dir not found (pass a folder of JPEGs)"; exit 0; fi
command -v djpeg >/dev/null || { echo "djpeg missing: apt-get install -y libjpeg-turbo-progs"; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time missing: apt-get install -y time"; exit 1; }
swift build -c release --product scanreader >/dev/null
mapfile -t files < <(find "$dir" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' \) | sort)
n=${#files[@]}
now() { date +%s.%N; }
rounds=${2:-3}
djpeg_run() { local s e; s=$(now); for f in "${files[@]}"; do djpeg -grayscale -outfile /dev/null "$f"; done; e=$(now); echo "$e - $s" | bc -l; }
run() {  # jobs -> seconds, peak KiB
  local log; log=$(mktemp)
  local s e; s=$(now)
  /usr/bin/time -v -o "$log" .build/release/scanreader "${files[@]}" --jobs "$1" --quiet --format jsonl >/dev/null || true
  e=$(now)
  echo "$(echo "$e - $s" | bc -l) $(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")"
  rm -f "$log"
}
min() { echo "if ($1 < $2) $1 else $2" | bc -l; }
d=999999; s1=999999; s2=999999; m1=0; m2=0
for _ in $(seq "$rounds"); do
  d=$(min "$(djpeg_run)" "$d")
  read -r t m < <(run 1); s1=$(min "$t" "$s1"); [ "$m" -gt "$m1" ] && m1=$m
  read -r t m < <(run 2); s2=$(min "$t" "$s2"); [ "$m" -gt "$m2" ] && m2=$m
done
djpeg_per=$(echo "$d / $n" | bc -l)
printf 'photos: %d (%s), best of %d rounds\n' "$n" "$dir" "$rounds"
printf 'djpeg -grayscale:      %6.1f ms/photo\n' "$(echo "$djpeg_per * 1000" | bc -l)"
printf 'scanreader --jobs 1:   %6.1f ms/photo  (%.2f x djpeg), peak %d MB\n' "$(echo "$s1 / $n * 1000" | bc -l)" "$(echo "$s1 / $n / $djpeg_per" | bc -l)" "$((m1 / 1024))"
printf 'scanreader --jobs 2:   %6.2f photos/s  (%.2f x --jobs 1), peak %d MB\n' "$(echo "$n / $s2" | bc -l)" "$(echo "$s1 / $s2" | bc -l)" "$((m2 / 1024))"
