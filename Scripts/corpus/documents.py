"""Flat documents with their truth: each maker draws one kind of document at a given
size (pixels of its long side) and returns a `Doc` whose regions are in the document's
own pixel coordinates. Every length is a fraction of the document's size.
"""
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from . import glyphs

NOTE_COLOURS = [(250, 236, 120), (252, 178, 196), (160, 206, 242), (188, 236, 156),
                (252, 196, 112), (246, 246, 236)]
A4 = 1.414
BAND_COLOURS = [(190, 35, 40), (40, 120, 70), (30, 80, 160), (230, 120, 20)]
PANEL_TINTS = [(226, 236, 246), (248, 232, 214), (232, 244, 226), (240, 240, 240)]


@dataclass
class Doc:
    """A drawn document: its picture, its regions (doc pixels) and its variants (e.g.
    "jigsaw", "handwritten": how this document of its type was made)."""
    image: Image.Image
    regions: list
    type: str
    variants: list = field(default_factory=list)
    fills_frame: bool = False


def paper(rng, w, h, tone=(240, 238, 232)):
    """Paper: a tone with faint low-frequency mottling and fibre noise."""
    lw, lh = max(2, w // 64), max(2, h // 64)
    mottle = rng.normal(0, 3.0, (lh, lw)).astype(np.float32)
    mottle = np.asarray(Image.fromarray(mottle, "F").resize((w, h), Image.BILINEAR))
    fine = rng.normal(0, 2.0, (h, w)).astype(np.float32)
    a = np.array(tone, np.float32)[None, None, :] + (mottle + fine)[..., None]
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def rect(x0, y0, x1, y1):
    """Corners TL, TR, BR, BL of an axis-aligned box."""
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def hand_style(rng):
    """(stroke fraction, source, colour name) of one writer."""
    marker = rng.random() < 0.4
    stroke = rng.uniform(0.1, 0.16) if marker else rng.uniform(0.045, 0.08)
    source = "mnist" if rng.random() < 0.6 else "strokes"
    colour = ["black", "blue", "dark-blue", "red", "green"][int(rng.integers(5))] if marker \
        else ["black", "blue", "dark-blue"][int(rng.integers(3))]
    return stroke, source, glyphs.INK_COLOURS[colour]


def digits_text(rng, lo, hi):
    """A random number of lo…hi digits (a leading zero allowed: it is an identifier)."""
    return "".join(str(int(d)) for d in rng.integers(0, 10, int(rng.integers(lo, hi + 1))))


def sticky_note(rng, size):
    """A square note of coloured paper with 1–4 large handwritten digits."""
    s = size
    img = paper(rng, s, s, NOTE_COLOURS[int(rng.integers(len(NOTE_COLOURS)))])
    count = int(rng.choice([1, 1, 2, 3, 4]))
    text = digits_text(rng, count, count)
    stroke, source, colour = hand_style(rng)
    height = int(s * (rng.uniform(0.45, 0.75) if count == 1 else rng.uniform(0.25, 0.5) / max(1, count / 2.5)))
    cx = s * rng.uniform(0.42, 0.58)
    cy = s * rng.uniform(0.4, 0.6)
    # written within the note: at most 0.8 of its width, so centred at 0.42-0.58 of it the
    # number stays on the note (a 4-digit number 0.31 of the note tall was up to 1.1 wide)
    glyphs.hand_number(rng, img, text, cx, cy, height, stroke, source, colour, max_width=0.8 * s)
    # the adhesive strip is a little darker; curled notes shade their free edge
    a = np.asarray(img).astype(np.float32)
    a[: int(s * 0.18)] *= rng.uniform(0.96, 1.0)
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    return Doc(img, [{"kind": "field", "corners": rect(0, 0, s, s), "text": text}], "sticky-note",
               ["pen" if stroke < 0.09 else "marker"])


def blank_sheet_digit(rng, size):
    """A sheet with one large handwritten digit and nothing else."""
    h = size
    w = int(h / A4)
    img = paper(rng, w, h)
    stroke, source, colour = hand_style(rng)
    text = str(int(rng.integers(10)))
    height = int(w * rng.uniform(0.25, 0.55))
    glyphs.hand_number(rng, img, text, w * rng.uniform(0.35, 0.65), h * rng.uniform(0.3, 0.65),
                       height, stroke, source, colour)
    return Doc(img, [{"kind": "field", "corners": rect(0, 0, w, h), "text": text}], "blank-sheet")


def _header(rng, draw, w, y, size):
    font = glyphs.pick_font(rng, size)
    glyphs.print_text(draw, glyphs.words(rng, int(rng.integers(1, 4))).title(), w / 2, y, font)


def _paragraph(rng, draw, x0, x1, y, line_h, lines):
    """Lines of printed words (no digits) filling the column x0…x1; returns the y below them."""
    font = glyphs.pick_font(rng, line_h * 0.7)
    for k in range(lines):
        text = glyphs.words(rng, 1)
        while font.getlength(text) < (x1 - x0) * 0.9:
            text += " " + glyphs.words(rng, 1)
        draw.text((x0, y + k * line_h), text, fill=(60, 60, 66), font=font)
    return y + lines * line_h


def _box_digits(rng, img, draw, box, text, printed, style, font):
    """Writes `text` inside `box`, as tall as the box allows and narrow enough to fit it."""
    x0, y0, x1, y1 = box
    # printed digits are about 3/4 as wide as tall; a handwritten one with its margin about square
    fit = (x1 - x0) * 0.85 / (len(text) * (0.75 if printed else 1.05))
    if printed:
        size = min(font.size, fit)
        face = font if size == font.size else glyphs.ImageFont.truetype(font.path, max(6, int(size)))
        glyphs.print_text(draw, text, (x0 + x1) / 2, (y0 + y1) / 2, face)
    else:
        stroke, source, colour = style
        height = min((y1 - y0) * rng.uniform(0.5, 0.7), fit)
        # the width estimate above misses a wide hand: the number is kept inside the box
        glyphs.hand_number(rng, img, text, (x0 + x1) / 2, (y0 + y1) / 2, max(8, int(height)),
                           stroke, source, colour, max_width=0.9 * (x1 - x0))


def form(rng, size):
    """A form: title, printed paragraphs, 3–10 labelled boxes holding 1–8 digits."""
    h = size
    w = int(h / A4)
    img = paper(rng, w, h, (244, 243, 238))
    draw = ImageDraw.Draw(img)
    _header(rng, draw, w, h * 0.06, h * 0.03)
    y = _paragraph(rng, draw, w * 0.08, w * 0.92, h * 0.1, h * 0.018, int(rng.integers(2, 6)))
    count = int(rng.integers(3, 11))
    row_h = (h * 0.92 - y) / count
    box_h = min(row_h * rng.uniform(0.45, 0.7), h * 0.07)
    line = max(1, int(h * rng.uniform(0.0008, 0.003)))
    printed_form = rng.random() < 0.3
    style = hand_style(rng)
    label_font = glyphs.pick_font(rng, box_h * 0.38)
    digit_font = glyphs.pick_font(rng, box_h * 0.62)
    label_left = rng.random() < 0.6
    regions = []
    for k in range(count):
        text = digits_text(rng, 1, 8)
        top = y + k * row_h + (row_h - box_h) / 2
        label = glyphs.LABELS[int(rng.integers(len(glyphs.LABELS)))]
        width = box_h * (0.75 * len(text) + 0.9) * rng.uniform(1.0, 1.5)
        if label_left:
            x0 = w * 0.38
            draw.text((w * 0.08, top + box_h / 2), label, fill=(40, 40, 44), font=label_font, anchor="lm")
        else:
            x0 = w * rng.uniform(0.08, 0.3)
            draw.text((x0, top - box_h * 0.08), label, fill=(40, 40, 44), font=label_font, anchor="ld")
        x1 = min(w * 0.92, x0 + width)
        box = (x0, top, x1, top + box_h)
        draw.rectangle(box, outline=(30, 30, 36), width=line)
        _box_digits(rng, img, draw, box, text, printed_form, style, digit_font)
        c = line / 2
        regions.append({"kind": "field", "corners": rect(x0 + c, top + c, x1 - c, top + box_h - c), "text": text})
    return Doc(img, regions, "form", ["printed" if printed_form else "handwritten"])


def _draw_lattice(draw, x0, y0, cw, ch, rows, cols, thin, thick, heavy_row, heavy_col, colour):
    """Ruling of a rows x cols lattice; heavy_row(r) / heavy_col(c) say which lines are thick."""
    for r in range(rows + 1):
        wdt = thick if heavy_row(r) else thin
        y = y0 + r * ch
        draw.line([(x0 - thick / 2, y), (x0 + cols * cw + thick / 2, y)], fill=colour, width=wdt)
    for c in range(cols + 1):
        wdt = thick if heavy_col(c) else thin
        x = x0 + c * cw
        draw.line([(x, y0 - thick / 2), (x, y0 + rows * ch + thick / 2)], fill=colour, width=wdt)


def _grid_region(x0, y0, cw, ch, rows, cols, cells):
    text = "".join(c or "." for c in cells)
    return {"kind": "grid", "corners": rect(x0, y0, x0 + cols * cw, y0 + rows * ch), "text": text,
            "rows": rows, "cols": cols, "cells": cells}


def comb(rng, size):
    """A slip with 1–3 comb fields: 1 x N boxes (N 4–12), one digit per box."""
    w = size
    n_fields = int(rng.integers(1, 4))
    h = int(w * rng.uniform(0.3, 0.45) * (1 + 0.5 * (n_fields - 1)))
    img = paper(rng, w, h, (242, 242, 238))
    draw = ImageDraw.Draw(img)
    style = hand_style(rng)
    printed = rng.random() < 0.2
    regions = []
    ticks = rng.random() < 0.3
    for k in range(n_fields):
        n = int(rng.integers(4, 13))
        cw = min(w * 0.84 / n, h / n_fields * 0.5)
        ch = cw * rng.uniform(1.0, 1.35)
        x0 = w * 0.08
        y0 = h * (k + 0.5) / n_fields - ch / 2 + h * 0.04
        label_font = glyphs.pick_font(rng, ch * 0.3)
        draw.text((x0, y0 - ch * 0.1), glyphs.LABELS[int(rng.integers(len(glyphs.LABELS)))],
                  fill=(40, 40, 44), font=label_font, anchor="ld")
        line = max(1, int(cw * rng.uniform(0.02, 0.05)))
        ink = (30, 30, 36) if rng.random() < 0.7 else (40, 60, 150)
        if ticks:   # a base line with short separators rising from it, and a thin box
            draw.rectangle((x0, y0, x0 + n * cw, y0 + ch), outline=ink, width=max(1, line // 2))
            for c in range(1, n):
                draw.line([(x0 + c * cw, y0 + ch * 0.55), (x0 + c * cw, y0 + ch)], fill=ink, width=line)
        else:
            _draw_lattice(draw, x0, y0, cw, ch, 1, n, line, line, lambda r: True, lambda c: True, ink)
        filled = n if rng.random() < 0.7 else int(rng.integers(2, n + 1))
        cells = [str(int(rng.integers(10))) if c < filled else "" for c in range(n)]
        font = glyphs.pick_font(rng, ch * 0.6)
        for c, t in enumerate(cells):
            if t:
                _box_digits(rng, img, draw, (x0 + c * cw, y0, x0 + (c + 1) * cw, y0 + ch), t, printed, style, font)
        regions.append(_grid_region(x0, y0, cw, ch, 1, n, cells))
    return Doc(img, regions, "comb", ["ticks" if ticks else "boxes"])


def table(rng, size):
    """A ruled table R x C (2–12 each way) of single digits or small numbers."""
    rows, cols = int(rng.integers(2, 13)), int(rng.integers(2, 13))
    numbers = rng.random() < 0.35
    aspect = rng.uniform(1.6, 2.6) if numbers else rng.uniform(0.9, 1.6)
    w = size
    cw = w * 0.86 / cols
    ch = cw / aspect
    h = int(max(rows * ch / 0.8, w * 0.4))
    img = paper(rng, w, h, (243, 242, 238))
    draw = ImageDraw.Draw(img)
    x0, y0 = w * 0.07, (h - rows * ch) / 2
    thin = max(1, int(ch * rng.uniform(0.015, 0.05)))
    thick = thin * int(rng.integers(1, 4))
    _draw_lattice(draw, x0, y0, cw, ch, rows, cols, thin, thick, lambda r: r in (0, rows),
                  lambda c: c in (0, cols), (30, 30, 36))
    printed = rng.random() < 0.5
    style = hand_style(rng)
    font = glyphs.pick_font(rng, ch * 0.55)
    cells = []
    for r in range(rows):
        for c in range(cols):
            t = "" if rng.random() < 0.2 else digits_text(rng, 1, 3 if numbers else 1)
            cells.append(t)
            if t:
                _box_digits(rng, img, draw, (x0 + c * cw, y0 + r * ch, x0 + (c + 1) * cw, y0 + (r + 1) * ch),
                            t, printed, style, font)
    region = _grid_region(x0, y0, cw, ch, rows, cols, cells)
    return Doc(img, [region], "table", ["numbers" if numbers else "digits",
                                         "printed" if printed else "handwritten"])


def _sudoku_solution(rng):
    base = np.array([[(3 * (r % 3) + r // 3 + c) % 9 for c in range(9)] for r in range(9)])
    digits = rng.permutation(9) + 1
    bands = rng.permutation(3)
    rows = [b * 3 + r for b in bands for r in rng.permutation(3)]
    stacks = rng.permutation(3)
    cols = [s * 3 + c for s in stacks for c in rng.permutation(3)]
    return digits[base[rows][:, cols]]


def _jigsaw_regions(rng):
    """Nine connected regions of nine cells, made by swapping cells of the 3x3 boxes."""
    reg = np.array([[(r // 3) * 3 + c // 3 for c in range(9)] for r in range(9)])

    def connected(cells):
        cells = set(cells)
        stack, seen = [next(iter(cells))], set()
        while stack:
            p = stack.pop()
            if p in seen:
                continue
            seen.add(p)
            r, c = p
            stack += [q for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if q in cells]
        return len(seen) == len(cells)

    for _ in range(400):
        r1, c1 = int(rng.integers(9)), int(rng.integers(9))
        dr, dc = [(0, 1), (1, 0), (0, -1), (-1, 0)][int(rng.integers(4))]
        r2, c2 = r1 + dr, c1 + dc
        if not (0 <= r2 < 9 and 0 <= c2 < 9) or reg[r1, c1] == reg[r2, c2]:
            continue
        a, b = reg[r1, c1], reg[r2, c2]
        # swap one cell of a next to b with one cell of b next to a elsewhere
        cand = [(r, c) for r in range(9) for c in range(9) if reg[r, c] == b and (r, c) != (r2, c2)
                and any(0 <= r + y < 9 and 0 <= c + x < 9 and reg[r + y, c + x] == a
                        for y, x in ((1, 0), (-1, 0), (0, 1), (0, -1)))]
        if not cand:
            continue
        r3, c3 = cand[int(rng.integers(len(cand)))]
        trial = reg.copy()
        trial[r2, c2], trial[r3, c3] = a, b
        if all(connected([(r, c) for r in range(9) for c in range(9) if trial[r, c] == k]) for k in (a, b)):
            reg = trial
    return reg


def sudoku(rng, size):
    """A 9x9 puzzle on a book page: thick box lines or jigsaw regions; sparse givens,
    filled by hand, fully filled, or with pencilled candidates."""
    w = size
    h = int(w * rng.uniform(1.0, 1.35))
    newspaper = rng.random() < 0.35     # a column of a printed page: text and a coloured band beside it
    page_w = int(w * rng.uniform(1.3, 1.7)) if newspaper else w
    img = paper(rng, page_w, h, (240, 238, 230) if rng.random() < 0.7 else (232, 226, 210))
    draw = ImageDraw.Draw(img)
    jigsaw = rng.random() < 0.25
    fill = ["sparse", "hand-filled", "full", "candidates"][int(rng.integers(4))]
    side = w * rng.uniform(0.7, 0.88)
    step = side / 9
    x0, y0 = (w - side) / 2, h * 0.12 + (h * 0.85 - side) * rng.uniform(0.2, 0.8)
    if newspaper:
        band = BAND_COLOURS[int(rng.integers(len(BAND_COLOURS)))]
        draw.rectangle((0, 0, page_w, h * 0.08), fill=band)
        font = glyphs.pick_font(rng, h * 0.045)
        draw.text((w * 0.05, h * 0.04), glyphs.words(rng, 2).upper(), fill=(250, 250, 250), font=font, anchor="lm")
        _paragraph(rng, draw, x0 + side + w * 0.06, page_w - w * 0.03, h * 0.12, h * 0.025, int(h * 0.8 / (h * 0.025)))
    else:
        _header(rng, draw, w, h * 0.06, h * 0.035)
    if rng.random() < 0.3:              # a tinted panel behind the grid
        pad = step * rng.uniform(0.2, 0.8)
        draw.rectangle((x0 - pad, y0 - pad, x0 + side + pad, y0 + side + pad),
                       fill=PANEL_TINTS[int(rng.integers(len(PANEL_TINTS)))])
    thin = max(1, int(step * rng.uniform(0.015, 0.05)))
    thick = max(thin + 1, int(step * rng.uniform(0.05, 0.12)))
    ink = (25, 25, 30)
    print_ink = (22, 22, 26) if rng.random() < 0.8 else [(190, 40, 40), (30, 60, 170)][int(rng.integers(2))]
    if jigsaw:
        reg = _jigsaw_regions(rng)
        _draw_lattice(draw, x0, y0, step, step, 9, 9, thin, thick, lambda r: r in (0, 9), lambda c: c in (0, 9), ink)
        for r in range(9):
            for c in range(9):
                if c < 8 and reg[r, c] != reg[r, c + 1]:
                    x = x0 + (c + 1) * step
                    draw.line([(x, y0 + r * step - thick / 2), (x, y0 + (r + 1) * step + thick / 2)], fill=ink, width=thick)
                if r < 8 and reg[r, c] != reg[r + 1, c]:
                    y = y0 + (r + 1) * step
                    draw.line([(x0 + c * step - thick / 2, y), (x0 + (c + 1) * step + thick / 2, y)], fill=ink, width=thick)
    else:
        _draw_lattice(draw, x0, y0, step, step, 9, 9, thin, thick, lambda r: r % 3 == 0,
                      lambda c: c % 3 == 0, ink)
    solution = _sudoku_solution(rng)
    given = rng.random((9, 9)) < rng.uniform(0.25, 0.42)
    font = glyphs.pick_font(rng, step * rng.uniform(0.5, 0.72))
    style = hand_style(rng)
    small = glyphs.pick_font(rng, step * 0.26)
    cells = []
    for r in range(9):
        for c in range(9):
            cx, cy = x0 + (c + 0.5) * step, y0 + (r + 0.5) * step
            t = ""
            if given[r, c] or fill == "full":
                t = str(solution[r, c])
                glyphs.print_text(draw, t, cx, cy, font, print_ink)
            elif fill == "hand-filled" and rng.random() < 0.7:
                t = str(solution[r, c])
                glyphs.hand_number(rng, img, t, cx, cy, int(step * rng.uniform(0.5, 0.72)), style[0], style[1], style[2])
            elif fill == "candidates" and rng.random() < 0.5:
                t = "?"
                for k in rng.choice(9, int(rng.integers(1, 4)), replace=False):
                    qx, qy = (k % 3 - 1) * step * 0.3, (k // 3 - 1) * step * 0.3
                    draw.text((cx + qx, cy + qy), str(k + 1), fill=glyphs.PENCIL, font=small, anchor="mm")
            cells.append(t)
    region = _grid_region(x0, y0, step, step, 9, 9, cells)
    variants = ["jigsaw" if jigsaw else "boxes", fill] + (["newspaper"] if newspaper else [])
    return Doc(img, [region], "sudoku", variants)


def page_number(rng, size):
    """Digits written on paper with no box, the paper filling the photo (a 'page' region)."""
    w = size
    h = int(w * 0.75)
    img = paper(rng, w, h)
    lines = int(rng.choice([1, 1, 2]))
    stroke, source, colour = hand_style(rng)
    text = ""
    height = int(h * rng.uniform(0.12, 0.22))
    for k in range(lines):
        t = digits_text(rng, 2, 6)
        text += t
        # the page is framed from its middle, enlarged past the photo's edges: a portrait
        # photo of this landscape page keeps only its middle 43 % of the width (scene.place
        # with fills_frame), so the number is kept within its middle 30 % and every digit
        # the truth names is in the photo
        glyphs.hand_number(rng, img, t, w * rng.uniform(0.47, 0.53), h * (0.5 if lines == 1 else 0.33 + 0.34 * k),
                           height, stroke, source, colour, max_width=0.3 * w)
    corners = rect(0, 0, w, h)
    return Doc(img, [{"kind": "page", "corners": corners, "text": text}], "page", fills_frame=True)


MAKERS = {
    "sticky-note": sticky_note, "blank-sheet": blank_sheet_digit, "form": form, "comb": comb,
    "table": table, "sudoku": sudoku, "page": page_number,
}
# The corpus's mix of document types (weights).
MIX = {"sticky-note": 14, "blank-sheet": 9, "form": 16, "comb": 12, "table": 14, "sudoku": 25,
       "page": 10}


def show_through(rng, doc: Doc) -> None:
    """Faint mirrored writing from the other side of the sheet."""
    w, h = doc.image.size
    ghost = Image.new("L", (w, h), 0)
    for _ in range(int(rng.integers(3, 9))):
        m = glyphs.hand_digit_mask(rng, int(rng.integers(10)), int(h * rng.uniform(0.04, 0.1)), 0.1, "strokes")
        ghost.paste(m, (int(rng.uniform(0, w * 0.9)), int(rng.uniform(0, h * 0.9))), m)
    ghost = ghost.transpose(Image.FLIP_LEFT_RIGHT).filter(ImageFilter.GaussianBlur(max(1, w / 400)))
    a = np.asarray(doc.image).astype(np.float32)
    g = np.asarray(ghost).astype(np.float32)[..., None] / 255
    doc.image = Image.fromarray(np.clip(a * (1 - 0.12 * g), 0, 255).astype(np.uint8))
