#!/usr/bin/env bash
# Scale: the development sets' small photos (longer side at most 850 px) enlarged twice
# (bicubic, JPEG quality 95) and read again. A reader whose rules follow the photo's own
# scale reads them as it reads the originals; what it loses here is a rule tied to pixels.
#
#   bash Benchmarks/enlarged.sh          (needs ../shared/data, python3 with Pillow)
#
# Output: the originals' and the enlarged copies' scores, per set, one after the other.
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data
if [ ! -d "$data" ]; then echo "skipped: $data not found"; exit 0; fi
python3 -c "import PIL" 2>/dev/null || pip install -q pillow
swift build -c release --product scanreader >/dev/null
sr=.build/release/scanreader
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for set in sudoku-wichtounet-printed sudoku-wichtounet-mixed; do
  mkdir -p "$work/$set/images"
  cp "$data/$set/truth.csv" "$work/$set/"
  python3 - "$data/$set/images" "$work/$set/images" <<'PY'
import sys, os
from PIL import Image
src, dst = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    im = Image.open(os.path.join(src, name))
    if max(im.size) <= 850:
        im = im.resize((im.width * 2, im.height * 2), Image.BICUBIC)
    im.convert("RGB").save(os.path.join(dst, name), quality=95)
PY
  echo "== $set, as taken"; $sr eval --truth "$data/$set/truth.csv" --orientation auto | grep -E "^grids|^cells"
  echo "== $set, photos of at most 850 px enlarged twice"; $sr eval --truth "$work/$set/truth.csv" --orientation auto | grep -E "^grids|^cells"
done
