#!/usr/bin/env bash
# The long reliability run (issue 14): a libFuzzer run over the C codec shims under
# ASan/UBSan, then a mutation campaign through the command line checking one record per
# input, in order, no crash and no hang.
#
#   bash Benchmarks/fuzz.sh [files=100000] [libfuzzer seconds=300]
set -euo pipefail
cd "$(dirname "$0")/.."
FILES=${1:-100000}
SECONDS_FUZZ=${2:-300}
swift build -c release --product scanreader 2>&1 | tail -1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== libFuzzer: Fuzz/decode_fuzzer.c over Sources/CImageCodecs, ${SECONDS_FUZZ} s"
if clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
     -I Sources/CImageCodecs/include $(pkg-config --cflags libjpeg libpng) \
     Fuzz/decode_fuzzer.c Sources/CImageCodecs/jpeg.c Sources/CImageCodecs/png.c \
     $(pkg-config --libs libjpeg libpng) -o "$work/decode_fuzzer" 2> "$work/build.log"; then
    mkdir -p "$work/corpus"
    find Tests/ImageCodecsTests/Fixtures SampleImages -type f \( -name '*.jpg' -o -name '*.png' \) -size -200k \
        -exec cp {} "$work/corpus/" \;
    mkdir -p fuzz-failures
    "$work/decode_fuzzer" -max_total_time="$SECONDS_FUZZ" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix=fuzz-failures/ -print_final_stats=1 "$work/corpus" 2> "$work/fuzz.log" || {
        tail -40 "$work/fuzz.log"; echo "libFuzzer found a failure (kept in fuzz-failures/)"; exit 1; }
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs" "$work/fuzz.log" || tail -3 "$work/fuzz.log"
else
    echo "clang cannot build libFuzzer targets here (-fsanitize=fuzzer): skipped"; tail -3 "$work/build.log"
fi

echo "== mutation campaign through scanreader: $FILES files"
python3 Benchmarks/fuzz.py --binary .build/release/scanreader --count "$FILES"
