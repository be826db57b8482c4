#!/usr/bin/env python3
"""Makes the generated development corpus: photos of documents with truth per region.

    pip install numpy==2.4.6 pillow==13.0.0
    apt-get install fonts-dejavu fonts-liberation fonts-freefont-ttf fonts-urw-base35 \
        fonts-croscore fonts-noto-core
    python3 Scripts/make-corpus.py --seed 1 --count 600 --out corpus/seed-1

Writes OUT/images/NNNNN.jpg and OUT/regions.jsonl (one truth line per photo, the format
`scanreader eval --truth` reads; README "Scoring regions"). Photo i depends only on
(seed, i): the same seed gives the same bytes, whatever --jobs.

Handwriting is MNIST *training* digits (downloaded from PyPI by Training/data.py) and
digits drawn from jittered strokes; print uses the Debian font packages above. The
output stays out of git (.gitignore: corpus/).
"""
import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import glyphs, photo  # noqa: E402


def _worker_init():
    glyphs.fonts()
    glyphs.mnist_training_digits()


def _make(args):
    seed, index, out = args
    name, data, truth = photo.make(seed, index)
    path = out / name
    tmp = path.with_suffix(".partial")
    tmp.write_bytes(data)
    tmp.replace(path)
    return truth


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    ap.add_argument("--first", type=int, default=0, help="index of the first photo (to make a slice)")
    args = ap.parse_args()
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    started = time.time()
    work = [(args.seed, i, args.out) for i in range(args.first, args.first + args.count)]
    truths = []
    with multiprocessing.Pool(args.jobs, initializer=_worker_init) as pool:
        for k, truth in enumerate(pool.imap(_make, work, chunksize=1)):
            truths.append(truth)
            if sys.stderr.isatty():
                print(f"\r{k + 1}/{len(work)}", end="", file=sys.stderr)
    lines = "".join(json.dumps(t, separators=(",", ":")) + "\n" for t in truths)
    tmp = args.out / "regions.jsonl.partial"
    tmp.write_text(lines)
    tmp.replace(args.out / "regions.jsonl")
    print(f"{len(truths)} photos in {time.time() - started:.1f} s -> {args.out}/regions.jsonl",
          file=sys.stderr)


if __name__ == "__main__":
    main()
