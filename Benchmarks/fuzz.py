#!/usr/bin/env python3
"""Long mutation-fuzzing campaign through the command line.

Mutates seed images (the decoder fixtures) into batches of files, runs `scanreader` over
each batch (named in a NUL-separated list) with a time limit, and checks that every input
got exactly one record, in order, and that the process exited 0 or 2. Prints the files
tried and the outcomes (codes counted). A crash, a hang or a missing record is kept in
--keep for replay and makes the exit status 1.

    python3 Benchmarks/fuzz.py --binary .build/release/scanreader --count 100000
"""
import argparse
import collections
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def seeds():
    folder = os.path.join(ROOT, "Tests/ImageCodecsTests/Fixtures")
    found = []
    for base, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith((".jpg", ".png")) and os.path.getsize(os.path.join(base, name)) > 0:
                with open(os.path.join(base, name), "rb") as f:
                    found.append(f.read())
    return found


def fix_png_crcs(data):
    """Recomputes every chunk's CRC so a mutation inside a chunk reaches its parser."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return data
    out, at = bytearray(data[:8]), 8
    while at + 8 <= len(data):
        length = struct.unpack(">I", data[at:at + 4])[0]
        end = at + 8 + length
        if end + 4 > len(data):
            out += data[at:]
            return bytes(out)
        kind_body = data[at + 4:end]
        out += data[at:end] + struct.pack(">I", zlib.crc32(kind_body) & 0xFFFFFFFF)
        at = end + 4
    out += data[at:]
    return bytes(out)


def mutate(seed, rng, pool):
    data = bytearray(seed)
    for _ in range(rng.randint(1, 4)):
        if not data:
            break
        at = rng.randrange(len(data))
        kind = rng.randrange(9)
        if kind == 0:
            data[at] ^= 1 << rng.randrange(8)
        elif kind == 1:
            data[at] = rng.choice([0x00, 0xFF, 0x7F, 0x80, 0x01, 0xD8, 0xD9, 0xDA, 0xC0, 0xC2])
        elif kind == 2:
            data[at:at + 4] = b"\xff\xff\xff\xff"[: len(data[at:at + 4])]
        elif kind == 3:
            del data[at:at + 1 + rng.randrange(64)]
        elif kind == 4:
            del data[at:]
        elif kind == 5:
            piece = data[at:at + 1 + rng.randrange(32)]
            where = rng.randrange(len(data))
            data[where:where] = piece
        elif kind == 6:
            data[at:at] = bytes(rng.randrange(256) for _ in range(1 + rng.randrange(16)))
        elif kind == 7:                      # splice another seed's tail
            other = rng.choice(pool)
            cut = rng.randrange(len(other))
            data[at:] = other[cut:]
        else:                                # a 16-bit field made large (dimensions, lengths)
            data[at:at + 2] = struct.pack(">H", rng.choice([0, 1, 0x7FFF, 0xFFFF, 0x8000]))[: len(data[at:at + 2])]
    data = bytes(data)
    if rng.random() < 0.5:
        data = fix_png_crcs(data)
    return data


def run_batch(binary, folder, names, timeout):
    start = time.time()
    try:
        listing = b"".join(os.path.join(folder, n).encode() + b"\0" for n in names)
        proc = subprocess.run([binary, "--format", "jsonl", "--jobs", "2", "--quiet", "--max-pixels", "20000000",
                               "--files-from", "-", "-0"], input=listing, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", [], time.time() - start
    if proc.returncode not in (0, 2):
        return f"exit {proc.returncode}: {proc.stderr.decode(errors='replace')[-300:]}", [], time.time() - start
    records = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return None, records, time.time() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build/release/scanreader"))
    ap.add_argument("--count", type=int, default=100000)
    ap.add_argument("--batch", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=300, help="seconds a batch may take before it counts as a hang")
    ap.add_argument("--keep", default="fuzz-failures", help="folder for batches that failed")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    pool = seeds()
    outcomes = collections.Counter()
    failures = 0
    tried = 0
    started = time.time()
    work = tempfile.mkdtemp(prefix="scanreader-fuzz-")
    try:
        while tried < args.count:
            n = min(args.batch, args.count - tried)
            folder = os.path.join(work, "batch")
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
            names = []
            for k in range(n):
                data = mutate(rng.choice(pool), rng, pool)
                name = f"{tried + k:07d}.img"
                with open(os.path.join(folder, name), "wb") as f:
                    f.write(data)
                names.append(name)
            problem, records, seconds = run_batch(args.binary, folder, names, args.timeout)
            files = [os.path.basename(r["file"]) for r in records]
            if problem is None and files != names:
                problem = f"{len(records)} records for {n} inputs, or out of order"
            if problem:
                failures += 1
                kept = os.path.join(args.keep, f"batch-{tried:07d}")
                shutil.copytree(folder, kept, dirs_exist_ok=True)
                print(f"FAILED batch at {tried}: {problem} (kept in {kept})", flush=True)
            for r in records:
                outcomes[r["error"]["code"] if r.get("error") else r["status"]] += 1
            tried += n
            print(f"{tried} files tried, {seconds:.1f} s for this batch", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    total = time.time() - started
    print(f"\nfiles tried: {tried} in {total:.0f} s; failed batches (crash, hang, missing record): {failures}")
    for code, count in outcomes.most_common():
        print(f"  {code:20s} {count}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
