#!/usr/bin/env python3
"""How honest the unsure flag is on a grid set: of the cells not read right, the share
shown as '?', and the share of all cells flagged. Then the same judged by the digit behind
each cell (a '?' counts as wrong only when its digit is), at the default threshold and at
the thresholds `--min-confidence` could be given: a flagged cell read right is then a
false alarm, not a caught error.

    scanreader eval --truth DATA/truth.csv --out read.jsonl [--orientation auto]
    python3 Benchmarks/unsure_flag.py DATA/truth.csv read.jsonl

The grid scored is the largest one with as many cells as the truth (as `scanreader eval`
picks it); a photo with none counts every cell as not right and none as flagged.
"""
import json
import sys
from pathlib import Path


def area(corners):
    return abs(sum(corners[i][0] * corners[(i + 1) % 4][1] - corners[(i + 1) % 4][0] * corners[i][1]
                   for i in range(4))) / 2


def main():
    truth_path, readings_path = sys.argv[1], sys.argv[2]
    lines = Path(truth_path).read_text().splitlines()[1:]
    truth = {Path(l.split(",")[0]).name: l.split(",")[1].strip() for l in lines if "," in l}
    cells = wrong = flagged = flagged_wrong = 0
    read = []   # (confidence of the digit behind the cell, 1 for none; value right)
    for line in Path(readings_path).read_text().splitlines():
        result = json.loads(line)
        expected = truth[Path(result["file"]).name]
        grids = [g for g in result["regions"] if g.get("grid") and len(g["grid"]["cells"]) == len(expected)]
        cells += len(expected)
        if not grids:
            wrong += len(expected)
            continue
        grid = max(grids, key=lambda g: area(g["corners"]))
        behind = {(d["row"], d["col"]): d for d in grid["digits"] if "row" in d}
        for want, cell in zip(expected, grid["grid"]["cells"]):
            digit = behind.get((cell["row"], cell["col"]))
            value = str(digit["value"]) if digit else "."
            confidence = digit["confidence"] if digit else 1.0
            read.append((confidence, value == "." if want in ".?" else want == value))
            got = cell["text"] or "."
            right = got == "." if want in ".?" else want == got
            wrong += not right
            flagged += got == "?"
            flagged_wrong += got == "?" and not right
    print(f"cells {cells}, not right {wrong}, of those read '?' {flagged_wrong} "
          f"({100 * flagged_wrong / max(1, wrong):.1f} %), cells flagged {flagged} ({100 * flagged / cells:.2f} %)")
    misread = [c for c, right in read if not right]
    print(f"judged by the digit behind: {len(misread)} cells misread in the grids found")
    for threshold in (0.6, 0.8, 0.9, 0.95, 0.99):
        caught = sum(c < threshold for c in misread)
        alarms = sum(c < threshold for c, _ in read)
        print(f"  --min-confidence {threshold}: misread flagged {caught} ({100 * caught / max(1, len(misread)):.1f} %), "
              f"cells flagged {alarms} ({100 * alarms / max(1, len(read)):.2f} %)")


if __name__ == "__main__":
    main()
