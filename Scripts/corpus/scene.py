"""A document photographed: a desk or fabric under it, other sheets beside it, a camera
tilted up to 35 degrees and turned any way, uneven light, hard shadows, curl, blur,
sensor noise, a quarter turn with or without an EXIF tag, JPEG compression.

Lengths are fractions of the photo's size; `camera` returns the homography that the
truth corners go through, so the truth is exact whatever the conditions.
"""
import io
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from . import glyphs
from .documents import paper

# Photo sizes (width, height) of phones and webcams, 0.3 to 16 MP, and their weights.
SIZES = [((640, 480), 14), ((1024, 768), 14), ((1280, 960), 14), ((1600, 1200), 16),
         ((2048, 1536), 12), ((3264, 2448), 12), ((4032, 3024), 12), ((4608, 3456), 6)]
MAX_TILT_DEGREES = 35
# Documents are drawn a little larger than they appear, then warped down (no aliasing).
DRAW_OVERSAMPLE = 1.1
MAX_DRAW_SIDE = 4200


def choose(rng, weighted):
    """A key of `weighted` (value -> weight) drawn by weight."""
    keys = list(weighted)
    p = np.array([weighted[k] for k in keys], float)
    return keys[int(rng.choice(len(keys), p=p / p.sum()))]


def photo_size(rng):
    """(width, height) of the upright photo: landscape or portrait."""
    (w, h) = choose(rng, dict(SIZES))
    return (w, h) if rng.random() < 0.5 else (h, w)


def background(rng, w, h):
    """A desk (wood grain, plain laminate), fabric (woven threads) or a dark surface."""
    kind = choose(rng, {"wood": 4, "fabric": 3, "laminate": 3, "dark": 1})
    lw, lh = max(8, w // 4), max(8, h // 4)
    y, x = np.mgrid[0:lh, 0:lw].astype(np.float32)
    if kind == "wood":
        period = lw * rng.uniform(0.01, 0.03)
        grain = np.sin((x + 6 * np.sin(y / (lh * 0.1) + rng.uniform(0, 6))) / period)
        tone = np.array([rng.uniform(120, 190), rng.uniform(80, 130), rng.uniform(40, 80)])
        a = tone[None, None] * (0.85 + 0.08 * grain[..., None]) + rng.normal(0, 4, (lh, lw, 1))
    elif kind == "fabric":
        period = max(2.0, lw * rng.uniform(0.004, 0.01))
        weave = np.sign(np.sin(x / period)) * np.sign(np.sin(y / period))
        tone = rng.uniform(40, 200, 3)
        a = tone[None, None] * (0.9 + 0.06 * weave[..., None]) + rng.normal(0, 6, (lh, lw, 1))
    elif kind == "laminate":
        tone = rng.uniform(150, 225) * np.array([1.0, rng.uniform(0.95, 1.0), rng.uniform(0.88, 1.0)])
        a = tone[None, None] + rng.normal(0, 3, (lh, lw, 1))
    else:
        a = rng.uniform(25, 60) + rng.normal(0, 4, (lh, lw, 3))
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).resize((w, h), Image.BILINEAR)
    return img, kind


def other_sheet(rng, w, h):
    """Another sheet on the desk: printed lines of words, no digits."""
    sw, sh = int(w * rng.uniform(0.25, 0.5)), int(h * rng.uniform(0.3, 0.6))
    s = paper(rng, sw, sh, (236, 236, 232))
    d = ImageDraw.Draw(s)
    line_h = max(6, sh * rng.uniform(0.025, 0.05))
    font = glyphs.pick_font(rng, line_h * 0.7)
    y = line_h
    while y < sh - line_h:
        d.text((sw * 0.08, y), glyphs.words(rng, 10), fill=(50, 50, 56), font=font)
        y += line_h
    return s


def place_clutter(rng, img):
    """1–3 other sheets, turned at random, under where the document will lie."""
    w, h = img.size
    for _ in range(int(rng.integers(1, 4))):
        s = other_sheet(rng, w, h).convert("RGBA")
        s = s.rotate(rng.uniform(0, 360), resample=Image.BICUBIC, expand=True)
        img.paste(s, (int(rng.uniform(-0.2, 0.8) * w), int(rng.uniform(-0.2, 0.8) * h)), s)


def homography(src, dst):
    """The 3x3 matrix taking the four points `src` to `dst`."""
    a, b = [], []
    for (x, y), (u, v) in zip(src, dst):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    m = np.linalg.solve(np.array(a, float), np.array(b, float))
    return np.append(m, 1).reshape(3, 3)


def apply(hm, pts):
    """`pts` (n x 2) through the homography `hm`."""
    p = np.hstack([np.asarray(pts, float), np.ones((len(pts), 1))]) @ hm.T
    return p[:, :2] / p[:, 2:3]


def tilt_angle(rng):
    """Camera tilt against the document's normal, degrees: mostly mild, up to 35."""
    band = choose(rng, {"mild": 40, "medium": 35, "strong": 25})
    lo, hi = {"mild": (0, 10), "medium": (10, 25), "strong": (25, MAX_TILT_DEGREES)}[band]
    return rng.uniform(lo, hi)


def rotation_angle(rng):
    """In-plane rotation, degrees: mostly near upright, any angle allowed."""
    band = choose(rng, {"small": 60, "medium": 28, "any": 12})
    return {"small": rng.uniform(-8, 8), "medium": rng.uniform(-45, 45), "any": rng.uniform(-180, 180)}[band]


def projected_outline(rng, aspect, tilt, rotation):
    """The four corners (TL TR BR BL) of a document of width/height `aspect`, seen by a
    pinhole camera tilted `tilt` degrees about a random in-plane axis, after turning it
    `rotation` degrees in its plane. Unit-free; placed into the photo later."""
    w, h = (aspect, 1.0) if aspect >= 1 else (1.0, 1 / aspect)
    corners = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    r = math.radians(rotation)
    rot = np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])
    p = corners @ rot.T
    axis = rng.uniform(0, math.pi)
    t = math.radians(tilt)
    ax = np.array([math.cos(axis), math.sin(axis)])
    along = p @ ax                       # coordinate along the tilt axis
    across = p @ np.array([-ax[1], ax[0]])
    z = across * math.sin(t)
    across = across * math.cos(t)
    distance = rng.uniform(1.2, 2.2)     # camera distance in document heights
    flat = np.outer(along, ax) + np.outer(across, [-ax[1], ax[0]])
    return flat / (distance + z)[:, None]


def place(rng, quad, w, h, fills_frame, coverage=(0.35, 0.9)):
    """Scales and moves the unit-free `quad` into a w x h photo: fully inside, its
    extent a fraction in `coverage` of what fits, or past every edge."""
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    size = hi - lo
    if fills_frame:
        s = max(w / size[0], h / size[1]) * rng.uniform(1.15, 1.3)
        centre = np.array([w, h]) / 2
    else:
        s = rng.uniform(*coverage) * min(w / size[0], h / size[1])
        free = np.array([w, h]) - size * s
        centre = free * rng.uniform(0.1, 0.9, 2) + size * s / 2
    return (quad - (lo + hi) / 2) * s + centre


def close_up(rng, outline, doc_size, regions, w, h):
    """Enlarges the placed document `outline` 1.2–2.2 times about a point of it, then
    shrinks and moves it until every corner of `regions` (document pixels) lies inside
    the photo with a margin of 3 % of its shorter side."""
    dw, dh = doc_size
    margin = 0.03 * min(w, h)
    pivot = outline.mean(axis=0)
    outline = (outline - pivot) * rng.uniform(1.2, 2.2) + pivot
    src = [(0, 0), (dw, 0), (dw, dh), (0, dh)]
    for _ in range(60):
        pts = np.vstack([apply(homography(src, outline), r) for r in regions])
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        if (lo >= margin).all() and (hi <= np.array([w, h]) - margin).all():
            break
        centre = (lo + hi) / 2
        outline = (outline - centre) * 0.96 + centre + (np.array([w, h]) / 2 - centre) * 0.25
    return outline


def curl(rng, doc_img):
    """Lifts one side of the sheet: columns past u0 sag down by up to `amount` of the
    height. Returns the curled RGBA image and the map of document points."""
    w, h = doc_img.size
    u0 = w * rng.uniform(0.4, 0.75)
    amount = h * rng.uniform(0.015, 0.05)
    u = np.arange(w, dtype=np.float32)
    sag = amount * np.clip((u - u0) / (w - u0), 0, None) ** 2
    extra = int(math.ceil(sag.max())) + 1
    src = np.asarray(doc_img.convert("RGBA")).astype(np.float32)
    src = np.vstack([src, np.zeros((extra, w, 4), np.float32)])
    v = np.arange(h + extra, dtype=np.float32)[:, None] - sag[None, :]
    v0 = np.floor(v).astype(int)
    f = (v - v0)[..., None]
    cols = np.arange(w)[None, :]
    ok = (v0 >= 0) & (v0 + 1 < h + extra)
    v0c = np.clip(v0, 0, h + extra - 2)
    out = src[v0c, cols] * (1 - f) + src[v0c + 1, cols] * f
    out[~ok] = 0
    slope = np.gradient(sag)[None, :, None]
    out[..., :3] *= 1 - 0.6 * np.clip(slope, 0, 0.3)   # the lifted part turns from the light
    img = Image.fromarray(np.clip(out, 0, 255).astype(np.uint8), "RGBA")
    return img, (lambda pts: np.array([[x, y + amount * max(0.0, (x - u0) / (w - u0)) ** 2] for x, y in pts]))


def warp_onto(canvas, doc_rgba, hm):
    """Draws the RGBA document onto `canvas` through the homography `hm` (doc -> photo),
    with a soft contact shadow under its edge."""
    inv = np.linalg.inv(hm)
    inv = inv / inv[2, 2]
    coeffs = tuple(inv.flatten()[:8])
    warped = doc_rgba.transform(canvas.size, Image.PERSPECTIVE, coeffs, Image.BICUBIC)
    alpha = warped.getchannel("A")
    # the shadow is soft: blurred at a quarter of the size, then enlarged
    small = alpha.resize((max(1, canvas.size[0] // 4), max(1, canvas.size[1] // 4)), Image.BILINEAR)
    shadow = small.filter(ImageFilter.GaussianBlur(max(1.0, canvas.size[0] / 1200)))
    shadow = shadow.resize(canvas.size, Image.BILINEAR).point(lambda v: int(v * 0.35))
    offset = max(1, canvas.size[0] // 600)
    canvas.paste(Image.new("RGB", canvas.size, (0, 0, 0)), (offset, offset), shadow)
    canvas.paste(warped.convert("RGB"), (0, 0), alpha)


def smooth_field(w, h, values):
    """A smooth float32 field of size w x h from a coarse array `values`."""
    f = Image.fromarray(values.astype(np.float32), "F")
    return np.asarray(f.resize((w, h), Image.BILINEAR))


def uneven_light(rng, w, h, strong):
    """A multiplicative light field: exposure, a gradient, a vignette."""
    gy, gx = np.mgrid[0:17, 0:17].astype(np.float32) / 16 - 0.5
    theta = rng.uniform(0, 2 * math.pi)
    gradient = (gx * math.cos(theta) + gy * math.sin(theta)) * (rng.uniform(0.3, 0.7) if strong else rng.uniform(0, 0.15))
    vignette = 1 - (gx ** 2 + gy ** 2) * (rng.uniform(0.3, 0.8) if strong else rng.uniform(0, 0.3))
    exposure = rng.uniform(0.7, 1.05) if strong else rng.uniform(0.88, 1.05)
    return smooth_field(w, h, exposure * (1 + gradient) * vignette)


def hard_shadow(rng, w, h, target):
    """A hard-edged shadow (a hand, a phone, a lamp's arm) over part of the document:
    a multiplicative field, 1 outside the shadow."""
    s = 4
    mask = Image.new("L", (w // s, h // s), 0)
    d = ImageDraw.Draw(mask)
    c = target.mean(axis=0) / s
    span = (target.max(axis=0) - target.min(axis=0)).max() / s
    theta = rng.uniform(0, 2 * math.pi)
    normal = np.array([math.cos(theta), math.sin(theta)])
    offset = rng.uniform(-0.3, 0.3) * span
    p = c + normal * offset
    t = np.array([-normal[1], normal[0]])
    far = 4 * max(w, h) / s
    if rng.random() < 0.5:       # a straight edge: a wall, a book
        poly = [p + t * far, p - t * far, p - t * far + normal * far, p + t * far + normal * far]
    else:                        # a rounded blob: a hand or a head
        r = span * rng.uniform(0.25, 0.5)
        q = p + normal * r
        poly = [q + r * np.array([math.cos(a), math.sin(a)]) * (1 + 0.25 * math.sin(3 * a + theta))
                for a in np.linspace(0, 2 * math.pi, 40)]
    d.polygon([tuple(x) for x in poly], fill=255)
    mask = mask.filter(ImageFilter.GaussianBlur(float(max(0.6, span * rng.uniform(0.003, 0.02)))))
    m = np.asarray(mask.resize((w, h), Image.BILINEAR)).astype(np.float32) / 255
    return 1 - m * rng.uniform(0.3, 0.6)


def encode(img, quality, orientation, tagged):
    """JPEG bytes of the stored photo: `img` turned so that the EXIF `orientation`
    (1, 3, 6 or 8) makes it upright, the tag written only when `tagged`."""
    turn = {1: None, 6: Image.Transpose.ROTATE_90, 3: Image.Transpose.ROTATE_180,
            8: Image.Transpose.ROTATE_270}[orientation]
    stored = img.transpose(turn) if turn is not None else img
    buf = io.BytesIO()
    kwargs = {}
    if tagged:
        exif = Image.Exif()
        exif[0x0112] = orientation
        kwargs["exif"] = exif.tobytes()
    stored.save(buf, "JPEG", quality=int(quality), **kwargs)
    return buf.getvalue()
