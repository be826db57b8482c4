"""Mines the classifier's real negatives from a generated corpus: every piece the reader
cuts whose centre lies outside all of the photo's truth regions is not a digit (a paper
edge, a shadow's rim, a frame remnant, a label's letter, the desk's grain, a fold).

    python3 Training/mine_negatives.py corpus/seed-1 --out Training/cache/mined-seed-1.npz

It runs `scanreader-bench pieces` (build it first: `swift build -c release`) over the
corpus's photos and keeps, per photo, every such piece the model reads as a digit (the
negatives that matter) and up to `--others` of the rest. A corpus's truth names every
digit written in its documents (the other sheets on the desk carry words only), so the
pieces outside its regions are labelled by construction. Two kinds of photo are left out:
those with writing showing through the sheet (mirrored digits, a mirrored 0, 1 or 8 is a
digit) and those whose regions' truth cannot be placed in the reader's frame.

Writes `x` (uint8 N×28×28, the model's input bytes), `predicted` (the model's label, 10 =
rejected), `confidence`, `kind` (the region kind the piece was cut in) and `photo`.
"""
import argparse
import json
import subprocess
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / ".build" / "release" / "scanreader-bench"

# A piece whose centre is within this share of a truth region's shorter side outside it
# may be a digit the region's outline cuts: left out.
REGION_MARGIN = 0.1


def reader_frame(truth: dict, point):
    """A truth point (the upright document's frame) in the frame `pieces` reports: EXIF is
    applied, so a tagged photo is upright and an untagged turned one is not."""
    o = truth["orientation"]
    if o == 1 or truth["tagged"]:
        return point
    w, h = truth["width"], truth["height"]
    x, y = point
    if o == 3:
        return (w - 1 - x, h - 1 - y)
    if o == 6:
        return (y, w - 1 - x)
    if o == 8:
        return (h - 1 - y, x)
    return point


def inside_or_near(quad, point, margin_share: float) -> bool:
    """True when `point` is inside the convex quadrilateral `quad` or within
    `margin_share` of its shorter side outside it."""
    q = np.asarray(quad, dtype=np.float64)
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    margin = margin_share * sides.min()
    # signed distance to each side's line, positive inside (either winding)
    centre = q.mean(axis=0)
    p = np.asarray(point, dtype=np.float64)
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        normal = np.array([a[1] - b[1], b[0] - a[0]])
        normal /= np.linalg.norm(normal)
        if np.dot(centre - a, normal) < 0:
            normal = -normal
        if np.dot(p - a, normal) < -margin:
            return False
    return True


def pieces(paths: list[Path]):
    """(photo path, kind, box [x, y, w, h], label, confidence, 28×28 bytes) per piece cut."""
    out = subprocess.run([str(BENCH), "pieces", *map(str, paths)], capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        path, kind, box, label, confidence, hexbytes = line.split("\t")
        x = np.frombuffer(bytes.fromhex(hexbytes), dtype=np.uint8).reshape(28, 28)
        yield path, kind, [int(v) for v in box.split()], int(label), float(confidence), x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", type=Path, help="a corpus directory (regions.jsonl, images/)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--others", type=int, default=4,
                    help="per photo, at most this many negatives the model already rejects")
    ap.add_argument("--seed", type=int, default=20261128)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    truth = {}
    for line in (args.corpus / "regions.jsonl").read_text().splitlines():
        t = json.loads(line)
        if "show-through" not in t["conditions"]:
            truth[Path(t["file"]).name] = t
    paths = sorted(args.corpus / "images" / name for name in truth)
    by_photo: dict[str, list] = {}
    for start in range(0, len(paths), 50):
        for path, kind, box, label, confidence, x in pieces(paths[start:start + 50]):
            t = truth[Path(path).name]
            quads = [[reader_frame(t, p) for p in r["corners"]] for r in t["regions"]]
            centre = (box[0] + box[2] / 2, box[1] + box[3] / 2)
            if any(inside_or_near(q, centre, REGION_MARGIN) for q in quads):
                continue
            by_photo.setdefault(Path(path).name, []).append((label, confidence, kind, x))
    xs, predicted, confidence, kinds, photos = [], [], [], [], []
    for name, found in sorted(by_photo.items()):
        read = [f for f in found if f[0] != 10]
        rejected = [f for f in found if f[0] == 10]
        keep = read + [rejected[i] for i in rng.permutation(len(rejected))[:args.others]]
        for label, conf, kind, x in keep:
            xs.append(x)
            predicted.append(label)
            confidence.append(conf)
            kinds.append(kind)
            photos.append(name)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, x=np.stack(xs), predicted=np.array(predicted), confidence=np.array(confidence),
                        kind=np.array(kinds), photo=np.array(photos))
    read = sum(p != 10 for p in predicted)
    print(f"{len(xs)} negatives from {len(by_photo)} photos ({len(truth)} used); "
          f"{read} read as digits by the current model")


if __name__ == "__main__":
    main()
