#!/usr/bin/env python3
"""A contact sheet for the realism check: generated photos beside development photos.

    python3 Scripts/realism-sheet.py corpus/seed-1 ../shared/data realism.png [COUNT]

Top half: the first COUNT (default 20) photos of the corpus folder, upright as their
truth says; bottom half: COUNT development photos, an equal share from each set under
the data folder, picked by a fixed shuffle. Written to the PNG given.
"""
import json
import random
import sys
from pathlib import Path

from PIL import Image, ImageOps

TILE = 300
COLUMNS = 5
UPRIGHT = {6: Image.Transpose.ROTATE_270, 3: Image.Transpose.ROTATE_180, 8: Image.Transpose.ROTATE_90}


def generated(folder: Path, count: int):
    for line in (folder / "regions.jsonl").read_text().splitlines()[:count]:
        truth = json.loads(line)
        img = Image.open(folder / truth["file"])
        img = ImageOps.exif_transpose(img) if truth["tagged"] else img
        if not truth["tagged"] and truth["orientation"] in UPRIGHT:
            img = img.transpose(UPRIGHT[truth["orientation"]])
        yield img


def development(data: Path, count: int):
    sets = sorted(p for p in data.iterdir() if (p / "images").is_dir())
    for k, s in enumerate(sets):
        files = sorted((s / "images").glob("*.jpg"))
        random.Random(5).shuffle(files)
        share = count // len(sets) + (1 if k < count % len(sets) else 0)
        for f in files[:share]:
            yield ImageOps.exif_transpose(Image.open(f))


def main():
    corpus, data, out = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    rows = (count + COLUMNS - 1) // COLUMNS
    sheet = Image.new("RGB", (COLUMNS * TILE, 2 * rows * TILE + 20), "white")
    for half, images in enumerate([generated(corpus, count), development(data, count)]):
        for i, img in enumerate(images):
            img = img.convert("RGB")
            img.thumbnail((TILE - 4, TILE - 4))
            sheet.paste(img, ((i % COLUMNS) * TILE, half * (rows * TILE + 20) + (i // COLUMNS) * TILE))
    sheet.save(out)


if __name__ == "__main__":
    main()
