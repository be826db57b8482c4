#!/usr/bin/env python3
"""Makes SampleImages/: synthetic photos and scans with known digits, expected.csv and
regions.jsonl (region truth for five of them).

    pip install pillow numpy          # plus the Debian font packages (fonts-dejavu)
    python3 Scripts/make-sample-images.py [--keep-existing]

--keep-existing writes only the images that are not there yet (the MNIST copy or Pillow
of another machine may change an existing sample's bytes, and with them its golden
readings in Tests/); expected.csv and regions.jsonl are always rewritten.

Handwritten digits are MNIST test-set digits (downloaded from PyPI by Training/data.py);
printed digits use DejaVu fonts. expected.csv (file,expected) is what `scanreader eval`
scores: regions' texts joined by spaces; a grid is its cells row by row, '.' empty.
"""
import io
import math
import struct
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "SampleImages"
sys.path.insert(0, str(ROOT / "Training"))
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
FONT_SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
rng = np.random.default_rng(2026)
KEEP_EXISTING = "--keep-existing" in sys.argv[1:]


def write_sample(name: str, data: bytes):
    path = OUT / name
    if KEEP_EXISTING and path.exists():
        return
    path.write_bytes(data)


def mnist_digits():
    """One typical MNIST test digit per class: the one nearest its class's mean image."""
    import data
    _, _, tx, ty = data.load_mnist()
    picks = {}
    for label in range(10):
        group = tx[ty == label].astype(np.float64)
        mean = group.mean(axis=0)
        picks[label] = tx[ty == label][int(((group - mean) ** 2).sum(axis=(1, 2)).argmin())]
    return picks


HAND = None


def hand(draw_img: Image.Image, text: str, x: int, y: int, height: int, ink=(30, 30, 60)):
    """Pastes MNIST digits as pen strokes onto an RGB image."""
    global HAND
    HAND = HAND or mnist_digits()
    for i, ch in enumerate(text):
        g = Image.fromarray(HAND[int(ch)]).resize((height, height), Image.BILINEAR)
        mask = g.point(lambda v: min(255, v * 2))
        layer = Image.new("RGB", g.size, ink)
        draw_img.paste(layer, (x + int(i * height * 0.8), y), mask)


def paper(w, h, tone=(238, 236, 230), noise=6):
    a = np.ones((h, w, 3)) * np.array(tone) + rng.normal(0, noise / 2, (h, w, 1))
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def desk(w, h):
    y, x = np.mgrid[0:h, 0:w]
    grain = 95 + 18 * np.sin(x / 9.0 + np.sin(y / 40.0) * 3) + rng.normal(0, 5, (h, w))
    a = np.stack([grain * 1.15, grain * 0.85, grain * 0.6], -1)
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def perspective(img: Image.Image, corners, size):
    """Warps `img` so its corners land on `corners` (TL, TR, BR, BL) in an image of `size`."""
    w, h = img.size
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    # PIL wants the inverse map: output -> input coefficients
    a = []
    for (x, y), (u, v) in zip(corners, src):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    b = [c for p in src for c in p]
    coeffs = np.linalg.solve(np.array(a, float), np.array(b, float))
    return img.transform(size, Image.PERSPECTIVE, tuple(coeffs), Image.BICUBIC)


def composite(background: Image.Image, sheet: Image.Image, corners):
    warped = perspective(sheet.convert("RGBA"), corners, background.size)
    out = background.copy()
    out.paste(warped, (0, 0), warped)
    return out


def box(d: ImageDraw.ImageDraw, x0, y0, x1, y1, width=4):
    d.rectangle([x0, y0, x1, y1], outline=(25, 25, 25), width=width)


def printed(d, text, x, y, size, font=FONT):
    d.text((x, y), text, fill=(20, 20, 20), font=ImageFont.truetype(font, size))


def save_jpeg(img, name, exif_orientation=None, quality=90):
    buf = io.BytesIO()
    img.convert("RGB").save(buf, "JPEG", quality=quality)
    data = buf.getvalue()
    if exif_orientation:
        tiff = b"II*\x00\x08\x00\x00\x00\x01\x00" + struct.pack("<HHIHH", 0x0112, 3, 1, exif_orientation, 0) + b"\x00\x00\x00\x00"
        body = b"Exif\x00\x00" + tiff
        data = data[:2] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + data[2:]
    write_sample(name, data)


def sudoku_sheet(cells: str, size=900, font=FONT_BOLD, thick=6, thin=2):
    s = paper(size, size)
    d = ImageDraw.Draw(s)
    m, step = 45, (size - 90) / 9
    for k in range(10):
        wdt = thick if k % 3 == 0 else thin
        p = m + k * step
        d.line([(m, p), (size - m, p)], fill=(30, 30, 30), width=wdt)
        d.line([(p, m), (p, size - m)], fill=(30, 30, 30), width=wdt)
    f = ImageFont.truetype(font, int(step * 0.62))
    for i, ch in enumerate(cells):
        if ch != ".":
            r, c = divmod(i, 9)
            d.text((m + (c + 0.5) * step, m + (r + 0.5) * step), ch, fill=(20, 20, 20), font=f, anchor="mm")
    return s


def main():
    OUT.mkdir(exist_ok=True)
    expected = {}

    # 1. sticky note with a handwritten number, on a desk
    note = paper(420, 400, tone=(250, 232, 120), noise=4)
    hand(note, "4071", 50, 140, 95)
    img = composite(desk(1200, 900), note, [(380, 200), (800, 240), (770, 640), (350, 600)])
    save_jpeg(img, "sticky-note.jpg")
    expected["sticky-note.jpg"] = "4071"

    # 2. a form with three boxed fields and printed labels
    form = paper(1000, 1300)
    d = ImageDraw.Draw(form)
    for (label, value, y) in [("Year", "2024", 200), ("Units", "17", 520), ("Code", "36512", 840)]:
        printed(d, label, 80, y + 60, 48)
        box(d, 330, y, 900, y + 190)
        printed(d, value, 380, y + 40, 110)
    img = composite(desk(1200, 1500), form, [(110, 90), (1090, 110), (1080, 1400), (95, 1390)])
    save_jpeg(img, "form-fields.jpg")
    expected["form-fields.jpg"] = "2024 17 36512"

    # 3. comb boxes: one digit per box
    comb = paper(1100, 400)
    d = ImageDraw.Draw(comb)
    for k in range(7):
        d.line([(100 + k * 150, 120), (100 + k * 150, 280)], fill=(20, 20, 20), width=4)
    d.line([(100, 120), (1000, 120)], fill=(20, 20, 20), width=4)
    d.line([(100, 280), (1000, 280)], fill=(20, 20, 20), width=4)
    hand(comb, "9", 130, 145, 110)
    for k, ch in enumerate("08172"):
        hand(comb, ch, 280 + k * 150, 145, 110)
    save_jpeg(composite(paper(1300, 700, tone=(200, 200, 205)), comb, [(90, 140), (1200, 170), (1190, 560), (80, 540)]), "comb-boxes.jpg")
    expected["comb-boxes.jpg"] = "908172"

    # 4. a ruled grid: a printed 9x9 puzzle
    cells = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    img = composite(desk(1300, 1200), sudoku_sheet(cells), [(200, 150), (1100, 180), (1090, 1060), (190, 1040)])
    save_jpeg(img, "ruled-grid.jpg")
    expected["ruled-grid.jpg"] = cells

    # 5. a number on a sheet, no box: the page region
    sheet = paper(1000, 700)
    hand(sheet, "5831", 230, 230, 200)
    save_jpeg(sheet, "number-on-sheet.jpg")
    expected["number-on-sheet.jpg"] = "5831"

    # 6. strong perspective: a 4x4 table of digits
    table = paper(800, 800)
    d = ImageDraw.Draw(table)
    for k in range(5):
        d.line([(80, 80 + k * 160), (720, 80 + k * 160)], fill=(20, 20, 20), width=5)
        d.line([(80 + k * 160, 80), (80 + k * 160, 720)], fill=(20, 20, 20), width=5)
    text = "1.34567..901234."
    for i, ch in enumerate(text):
        if ch != ".":
            r, c = divmod(i, 4)
            d.text((160 + c * 160, 160 + r * 160), ch, fill=(20, 20, 20), font=ImageFont.truetype(FONT, 90), anchor="mm")
    save_jpeg(composite(desk(1200, 1000), table, [(330, 120), (880, 230), (1000, 900), (120, 820)]), "perspective.jpg")
    expected["perspective.jpg"] = text

    # 7. a boxed number under a soft shadow
    page = paper(1000, 700)
    d = ImageDraw.Draw(page)
    box(d, 150, 200, 850, 480, width=5)
    printed(d, "7394", 260, 240, 170, FONT_SERIF)
    a = np.asarray(page).astype(float)
    y, x = np.mgrid[0:700, 0:1000]
    shade = 1 - 0.55 * (1 / (1 + np.exp(-(x - 0.8 * y - 350) / 40.0)))
    save_jpeg(Image.fromarray((a * shade[..., None]).astype(np.uint8)), "shadow.jpg")
    expected["shadow.jpg"] = "7394"

    # 8. a photo stored sideways with EXIF orientation 6 (upright once applied)
    page = paper(900, 600)
    d = ImageDraw.Draw(page)
    box(d, 200, 180, 700, 420, width=5)
    hand(page, "602", 260, 215, 170)
    save_jpeg(page.rotate(90, expand=True), "rotated-exif.jpg", exif_orientation=6)
    expected["rotated-exif.jpg"] = "602"

    # 9. a clean PNG scan: a 2x5 table
    scan = Image.new("L", (1100, 500), 255)
    d = ImageDraw.Draw(scan)
    for k in range(3):
        d.line([(50, 50 + k * 200), (1050, 50 + k * 200)], fill=0, width=3)
    for k in range(6):
        d.line([(50 + k * 200, 50), (50 + k * 200, 450)], fill=0, width=3)
    for i, ch in enumerate("0123456789"):
        r, c = divmod(i, 5)
        d.text((150 + c * 200, 150 + r * 200), ch, fill=0, font=ImageFont.truetype(FONT, 110), anchor="mm")
    png = io.BytesIO()
    scan.save(png, "PNG")
    write_sample("scan-table.png", png.getvalue())
    expected["scan-table.png"] = "0123456789"

    # 10. a sheet turned 25 degrees on a desk, one boxed number
    sheet = paper(700, 500)
    d = ImageDraw.Draw(sheet)
    box(d, 100, 120, 600, 380, width=5)
    printed(d, "88", 250, 160, 160, FONT_BOLD)
    c, s = math.cos(math.radians(25)), math.sin(math.radians(25))
    pts = [(-350, -250), (350, -250), (350, 250), (-350, 250)]
    corners = [(600 + x * c - y * s, 500 + x * s + y * c) for x, y in pts]
    save_jpeg(composite(desk(1200, 1000), sheet, corners), "tilted-sheet.jpg")
    expected["tilted-sheet.jpg"] = "88"

    # 11. two lines of digits in one box
    page = paper(900, 800)
    d = ImageDraw.Draw(page)
    box(d, 150, 150, 750, 650, width=5)
    printed(d, "12", 250, 220, 140)
    printed(d, "345", 250, 420, 140)
    save_jpeg(page, "two-lines.jpg")
    expected["two-lines.jpg"] = "12345"

    new_samples(expected)

    with open(OUT / "expected.csv", "w") as f:
        f.write("file,expected\n")
        for name, text in expected.items():
            f.write(f"{name},{text}\n")
    write_region_truth()
    print(f"{len(expected)} sample images in {OUT}")


def homography(src, dst):
    """The 3x3 map taking the four points `src` to `dst`."""
    a, b = [], []
    for (x, y), (u, v) in zip(src, dst):
        a += [[x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -v * x, -v * y]]
        b += [u, v]
    return np.append(np.linalg.solve(np.array(a, float), np.array(b, float)), 1).reshape(3, 3)


def placed(points, size, corners):
    """Where points of a sheet of `size` land once it is composited at `corners`."""
    w, h = size
    hm = homography([(0, 0), (w, 0), (w, h), (0, h)], corners)
    out = []
    for x, y in points:
        p = hm @ [x, y, 1]
        out.append([round(p[0] / p[2], 1), round(p[1] / p[2], 1)])
    return out


NEW_REGIONS = []


def new_samples(expected):
    """Samples 12-15 (issue 13's kinds): one big digit on a sticky note, one big digit in
    pen on a blank sheet with specks, a form of labelled boxes and a comb, a 9x9 grid with
    thick box lines. Their own random generator, so the samples above do not change."""
    global rng
    rng = np.random.default_rng(13)

    # 12. a sticky note holding one large handwritten digit
    note = paper(400, 400, tone=(245, 225, 150), noise=4)
    hand(note, "7", 60, 50, 300)
    one_field(expected, composite(desk(1200, 900), note, NOTE_AT), "sticky-one-digit.jpg", "sticky-note", NOTE_AT, "7")

    # 13. one large digit in pen on a blank sheet, a few specks of dirt beside it
    sheet = paper(900, 1200)
    hand(sheet, "3", 250, 330, 420, ink=(25, 30, 70))
    d = ImageDraw.Draw(sheet)
    for _ in range(6):
        x, y = int(rng.uniform(60, 840)), int(rng.uniform(60, 1140))
        if 230 < x < 700 and 310 < y < 780:
            continue
        r = rng.uniform(2, 5)
        d.ellipse([x - r, y - r, x + r, y + r], fill=(70, 70, 70))
    one_field(expected, composite(desk(1200, 1400), sheet, SHEET_AT), "big-digit-on-sheet.jpg", "blank-sheet", SHEET_AT, "3")

    # 14. a form: labelled boxes (one printed, two handwritten) and a comb of five boxes
    form = paper(1000, 1300)
    d = ImageDraw.Draw(form)
    printed(d, "Order form", 330, 50, 56, FONT_BOLD)
    printed(d, "Fill in the boxes in ink. Please write one digit per box.", 80, 150, 26)
    fields = [("Age", "42", 260, True), ("Quantity", "715", 500, False)]
    regions = []
    for label, value, y, hand_written in fields:
        printed(d, label, 80, y + 45, 40)
        box(d, 360, y, 820, y + 150)
        if hand_written:
            hand(form, value, 400, y + 15, 120)
        else:
            printed(d, value, 400, y + 20, 100)
        regions.append({"kind": "field", "corners": placed([(360, y), (820, y), (820, y + 150), (360, y + 150)],
                                                           (1000, 1300), FORM_AT), "text": value})
    printed(d, "Postcode", 80, 790, 40)
    for k in range(6):
        d.line([(360 + k * 100, 740), (360 + k * 100, 880)], fill=(25, 25, 25), width=4)
    d.line([(360, 740), (860, 740)], fill=(25, 25, 25), width=4)
    d.line([(360, 880), (860, 880)], fill=(25, 25, 25), width=4)
    for k, ch in enumerate("90210"):
        hand(form, ch, 362 + k * 100, 762, 96)
    regions.append({"kind": "grid", "corners": placed([(360, 740), (860, 740), (860, 880), (360, 880)], (1000, 1300), FORM_AT),
                    "text": "90210", "rows": 1, "cols": 5, "cells": list("90210")})
    printed(d, "Signature ____________________", 80, 1080, 30)
    save_jpeg(composite(desk(1200, 1500), form, FORM_AT), "form-boxes-comb.jpg")
    expected["form-boxes-comb.jpg"] = "42 715 90210"
    NEW_REGIONS.append({"file": "form-boxes-comb.jpg", "type": "form", "regions": regions})

    # 15. a printed 9x9 puzzle whose 3x3 box lines are five times its cell lines
    cells = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    corners = [(180, 140), (1080, 190), (1060, 1070), (150, 1030)]
    save_jpeg(composite(desk(1300, 1200), sudoku_sheet(cells, font=FONT, thick=12, thin=2), corners), "thick-lined-grid.jpg")
    expected["thick-lined-grid.jpg"] = cells
    NEW_REGIONS.append({"file": "thick-lined-grid.jpg", "type": "sudoku",
                        "regions": [{"kind": "grid", "corners": placed([(45, 45), (855, 45), (855, 855), (45, 855)], (900, 900), corners),
                                     "text": cells, "rows": 9, "cols": 9, "cells": ["" if c == "." else c for c in cells]}]})


FORM_AT = [(120, 100), (1080, 130), (1070, 1420), (100, 1400)]
NOTE_AT = [(430, 260), (830, 300), (800, 690), (400, 660)]
SHEET_AT = [(160, 80), (1060, 110), (1040, 1290), (140, 1270)]


def one_field(expected, img, name, kind, corners, text):
    """Saves a photo holding one field (a note, a sheet) at `corners`, with its truth."""
    save_jpeg(img, name)
    expected[name] = text
    NEW_REGIONS.append({"file": name, "type": kind,
                        "regions": [{"kind": "field", "corners": [list(c) for c in corners], "text": text}]})


def write_region_truth():
    """regions.jsonl: region truth (README "Scoring regions") for nine of the samples,
    their corners from the placements above."""
    import json
    sheet_at = [(200, 150), (1100, 180), (1090, 1060), (190, 1040)]      # the ruled grid's sheet
    grid = placed([(45, 45), (855, 45), (855, 855), (45, 855)], (900, 900), sheet_at)   # its outer lines
    cells = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    lines = [
        {"file": "sticky-note.jpg", "type": "sticky-note",
         "regions": [{"kind": "field", "corners": [[380, 200], [800, 240], [770, 640], [350, 600]], "text": "4071"}]},
        {"file": "ruled-grid.jpg", "type": "sudoku",
         "regions": [{"kind": "grid", "corners": grid, "text": cells, "rows": 9, "cols": 9,
                      "cells": ["" if c == "." else c for c in cells]}]},
        {"file": "number-on-sheet.jpg", "type": "page",
         "regions": [{"kind": "page", "corners": [[0, 0], [1000, 0], [1000, 700], [0, 700]], "text": "5831"}]},
        {"file": "rotated-exif.jpg", "type": "form", "orientation": 6, "tagged": True,
         "regions": [{"kind": "field", "corners": [[200, 180], [700, 180], [700, 420], [200, 420]], "text": "602"}]},
        {"file": "scan-table.png", "type": "table",
         "regions": [{"kind": "grid", "corners": [[50, 50], [1050, 50], [1050, 450], [50, 450]], "text": "0123456789",
                      "rows": 2, "cols": 5, "cells": list("0123456789")}]},
    ]
    lines += NEW_REGIONS
    # the placements above are in pixel edges (PIL's convention); the truth is in pixel
    # centres, as the reader reports corners: (0, 0) is the middle of the top-left pixel
    for line in lines:
        for region in line["regions"]:
            if region["kind"] != "page":
                region["corners"] = [[round(x - 0.5, 1), round(y - 0.5, 1)] for x, y in region["corners"]]
    (OUT / "regions.jsonl").write_text("".join(json.dumps(l, separators=(",", ":")) + "\n" for l in lines))


if __name__ == "__main__":
    main()
