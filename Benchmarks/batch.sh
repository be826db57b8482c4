#!/usr/bin/env bash
# A 10 000-file batch with 1 % broken entries (issue 14): checks that exactly the broken
# ones get error records, with the right codes, that every record comes in input order,
# and that peak memory stays flat as the batch grows (1 000 files vs 10 000).
#
#   bash Benchmarks/batch.sh [files=10000] [jobs=2]
set -euo pipefail
cd "$(dirname "$0")/.."
FILES=${1:-10000}
JOBS=${2:-2}
swift build -c release --product scanreader 2>&1 | tail -1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$FILES" <<'PY'
import os, socket, sys, json
work, count = sys.argv[1], int(sys.argv[2])
folder = os.path.join(work, "batch")
os.makedirs(folder)
samples = sorted(os.path.join("SampleImages", n) for n in os.listdir("SampleImages") if n.endswith((".jpg", ".png")))
jpeg = open("SampleImages/sticky-note.jpg", "rb").read()
png = open("SampleImages/scan-table.png", "rb").read()
# the broken kinds, one in every hundred files, each with the record it must get
def truncated(p): open(p, "wb").write(jpeg[: len(jpeg) // 2])
def empty(p): open(p, "wb").close()
def garbage(p): open(p, "wb").write(b"\xff\xd8\xff" + os.urandom(5000))
def bad_crc(p): open(p, "wb").write(png[:40] + bytes([png[40] ^ 0xFF]) + png[41:])
def pipe(p): os.mkfifo(p)
def sock(p): socket.socket(socket.AF_UNIX).bind(p)
def sparse(p):
    with open(p, "wb") as f: f.write(b"\xff\xd8\xff\xe0"); f.truncate(3 << 30)
def huge_header(p): open(p, "wb").write(open("Tests/ImageCodecsTests/Fixtures/corrupt/jpeg-60000x60000.jpg", "rb").read())
def link_to_folder(p): os.symlink(work, p)
broken = [(truncated, "corrupt_image"), (empty, "empty_file"), (garbage, "corrupt_image"), (bad_crc, "corrupt_image"),
          (pipe, "not_a_regular_file"), (sock, "not_a_regular_file"), (sparse, "file_too_large"),
          (huge_header, "image_too_large"), (link_to_folder, "not_a_regular_file"), (None, "bad_file_name")]
expected = {}
for i in range(count):
    name = f"{i:06d}.jpg"
    if i % 100 == 37:
        make, code = broken[(i // 100) % len(broken)]
        if make is None:      # a name that is not UTF-8
            raw = os.path.join(folder, f"{i:06d}-\xe9.jpg").encode("latin-1")
            open(raw, "wb").write(jpeg)
            expected[f"{i:06d}-\\xE9.jpg"] = code
            continue
        make(os.path.join(folder, name))
        expected[name] = code
    else:
        os.link(samples[i % len(samples)], os.path.join(folder, name))
        expected[name] = "ok"
json.dump(expected, open(os.path.join(work, "expected.json"), "w"))
# the first 1 000 entries again (hard links), for the memory comparison
first = os.path.join(work, "first")
os.makedirs(first)
for name in sorted(os.listdir(folder.encode()))[:1000]:
    os.link(os.path.join(folder.encode(), name), os.path.join(first.encode(), name), follow_symlinks=False)
PY

run() {   # run FOLDER OUT -> prints peak RSS in KB
    /usr/bin/time -f "%M" -o "$work/time.txt" .build/release/scanreader --quiet --jobs "$JOBS" --format jsonl "$1" > "$2" || true
    tail -1 "$work/time.txt"
}
small_peak=$(run "$work/first" "$work/first.jsonl")
mid=$(date +%s.%N)
full_peak=$(run "$work/batch" "$work/all.jsonl")
end=$(date +%s.%N)
python3 - "$work" "$small_peak" "$full_peak" "$(echo "$end - $mid" | bc)" <<'PY'
import json, os, sys
work, small, full, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
expected = json.load(open(os.path.join(work, "expected.json")))
records = [json.loads(l) for l in open(os.path.join(work, "all.jsonl"))]
names = [os.path.basename(r["file"]) for r in records]
got = {os.path.basename(r["file"]): (r["error"]["code"] if r.get("error") else r["status"]) for r in records}
order_ok = names == sorted(expected, key=lambda n: n.encode("latin-1") if "\\x" not in n else n.replace("\\xE9", "\xe9").encode("latin-1"))
wrong = {n: (c, got.get(n)) for n, c in expected.items() if got.get(n) != c}
errors = sum(1 for c in got.values() if c != "ok")
print(f"files: {len(expected)}, records: {len(records)}, error records: {errors} "
      f"(expected {sum(1 for c in expected.values() if c != 'ok')}), wrong or missing: {len(wrong)}, in order: {order_ok}")
for n, (want, have) in list(wrong.items())[:10]: print(f"  {n}: expected {want}, got {have}")
print(f"peak memory: {small / 1024:.0f} MB for 1 000 files, {full / 1024:.0f} MB for {len(expected)}; "
      f"{len(expected) / seconds:.0f} files/s")
ok = not wrong and len(records) == len(expected) and order_ok and full < 1.25 * small + 20 * 1024
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
