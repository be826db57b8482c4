#!/usr/bin/env bash
# Memory limits (issue 14), measured with /usr/bin/time:
#  1. a 3 GB sparse .jpg beside a good file under `ulimit -v 2500000`: the good file's
#     result written, the big one file_too_large, peak memory;
#  2. eight images just under the 120-megapixel limit (six progressive JPEGs, two 16-bit
#     interlaced RGBA PNGs), --jobs 2: peak memory with the default 1 GB budget, with
#     --max-memory 500000000, and with no effective budget.
#
#   bash Benchmarks/limits.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product scanreader 2>&1 | tail -1
python3 -c "import PIL, numpy" 2>/dev/null || pip install -q pillow==13.0.0 numpy==2.4.6
B=$PWD/.build/release/scanreader
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '\xff\xd8\xff\xe0' > "$work/huge.jpg"; truncate -s 3G "$work/huge.jpg"
echo "== 3 GB sparse file beside a good one, ulimit -v 2500000"
( ulimit -v 2500000; /usr/bin/time -f "peak %M KB" "$B" --quiet --format csv SampleImages/sticky-note.jpg "$work/huge.jpg" \
    | cut -d, -f1,4,16,17 ) || true

python3 - "$work" <<'PY'
import sys, struct, zlib
import numpy as np
from PIL import Image
work = sys.argv[1]
im = Image.open("SampleImages/ruled-grid.jpg").convert("RGB").resize((12000, 9990))
im.save(f"{work}/p0.jpg", quality=90, progressive=True)
big = np.asarray(im).astype(np.uint16) * 257
rgba = np.dstack([big, np.full(big.shape[:2], 65535, np.uint16)]).astype(">u2")
h, w, _ = rgba.shape
raw = bytearray()
for x0, y0, dx, dy in [(0,0,8,8),(4,0,8,8),(0,4,4,8),(2,0,4,4),(0,2,2,4),(1,0,2,2),(0,1,1,2)]:
    sub = rgba[y0::dy, x0::dx]
    for row in sub: raw += b"\0" + row.tobytes()
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
with open(f"{work}/q0.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 6, 0, 0, 1))
            + chunk(b"IDAT", zlib.compress(bytes(raw), 6)) + chunk(b"IEND", b""))
PY
mkdir "$work/eight"
for i in 1 2 3 4 5 6; do ln "$work/p0.jpg" "$work/eight/p$i.jpg"; done
for i in 1 2; do ln "$work/q0.png" "$work/eight/q$i.png"; done
echo "== eight images of 12000x9990 (six progressive JPEG, two 16-bit interlaced PNG), --jobs 2"
for budget in 1000000000 500000000 100000000000; do
    /usr/bin/time -f "--max-memory $budget: peak %M KB, %e s" "$B" --quiet --jobs 2 --max-memory $budget "$work/eight" \
        | cut -d, -f16,17 | sort | uniq -c
done
