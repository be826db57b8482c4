"""One corpus photo from (seed, index): a document, its scene and its truth line."""
import numpy as np
from PIL import Image

from . import documents, scene

# Shares of photos under each condition (the rest get a mild version of it).
P_UNEVEN_LIGHT = 0.35
P_HARD_SHADOW = 0.25
P_BLUR = 0.3
P_NOISE = 0.3
P_CLUTTER = 0.45
P_SHEET_BELOW = 0.15
P_CURL = 0.2
P_SHOW_THROUGH = 0.15
P_CLOSE_UP = 0.35         # of the types below: photographed close, the page past the frame
CLOSE_UP_TYPES = ("sudoku", "table", "form", "comb")
P_TURNED = 0.4            # stored a quarter or half turn from upright
P_TAGGED = 0.5            # of the turned ones: the EXIF tag says so
LOW_JPEG_QUALITY = 60
# How much of the photo a document spans (of what would fit): people photograph a form
# or a puzzle to fill the frame, a sticky note from further away.
COVERAGE = {"sticky-note": (0.3, 0.85), "blank-sheet": (0.45, 0.95), "form": (0.6, 0.95),
            "comb": (0.45, 0.95), "table": (0.5, 0.95), "sudoku": (0.45, 0.95), "page": (1, 1)}


def make(seed: int, index: int):
    """(file name, JPEG bytes, truth dict) of photo `index` of the corpus `seed`.

    Depends on nothing but (seed, index): photos can be made in any order, in parallel.
    """
    rng = np.random.default_rng([seed, index])
    w, h = scene.photo_size(rng)
    kind = scene.choose(rng, documents.MIX)
    conditions = []
    fills = kind == "page"
    tilt = rng.uniform(0, 12) if fills else scene.tilt_angle(rng)
    rotation = rng.uniform(-5, 5) if fills else scene.rotation_angle(rng)
    # the document's proportions are known only once it is drawn; draw at the size it
    # will appear: a first outline at the right aspect is enough to know that size
    draft = documents.MAKERS[kind](np.random.default_rng([seed, index, 1]), 200)
    aspect = draft.image.size[0] / draft.image.size[1]
    outline = scene.place(rng, scene.projected_outline(rng, aspect, tilt, rotation), w, h, fills,
                          COVERAGE[kind])
    sides = np.linalg.norm(outline - np.roll(outline, -1, axis=0), axis=1)
    long_side = int(min(scene.MAX_DRAW_SIDE, max(sides) * scene.DRAW_OVERSAMPLE))
    doc = documents.MAKERS[kind](np.random.default_rng([seed, index, 1]), max(200, long_side))
    dw, dh = doc.image.size
    if rng.random() < P_SHOW_THROUGH and kind in ("sudoku", "table", "form", "blank-sheet"):
        documents.show_through(rng, doc)
        conditions.append("show-through")
    closeup = kind in CLOSE_UP_TYPES and rng.random() < P_CLOSE_UP
    if closeup:   # the page runs past the frame; its regions stay inside
        outline = scene.close_up(rng, outline, (dw, dh), [r["corners"] for r in doc.regions], w, h)
        conditions.append("close-up")
    hm = scene.homography([(0, 0), (dw, 0), (dw, dh), (0, dh)], outline)
    img, bg_kind = scene.background(rng, w, h)
    conditions.append(f"on-{bg_kind}")
    if rng.random() < P_CLUTTER and not fills and not closeup:
        scene.place_clutter(rng, img)
        conditions.append("clutter")
    if rng.random() < P_SHEET_BELOW and not fills:
        below = documents.paper(rng, dw, dh, (238, 238, 234)).convert("RGBA")
        shift = scene.homography([(0, 0), (dw, 0), (dw, dh), (0, dh)],
                                 outline + rng.normal(0, 0.02, (4, 2)) * max(w, h))
        scene.warp_onto(img, below, shift)
        conditions.append("sheet-below")
    doc_rgba = doc.image.convert("RGBA")
    to_doc = lambda pts: np.asarray(pts, float)
    if rng.random() < P_CURL and not fills and not closeup:
        doc_rgba, to_doc = scene.curl(rng, doc.image)
        conditions.append("curl")
    scene.warp_onto(img, doc_rgba, hm)
    if tilt > 20:
        conditions.append("perspective>20")
    if abs(rotation) > 15:
        conditions.append("rotated>15")

    a = np.asarray(img).astype(np.float32)
    strong_light = rng.random() < P_UNEVEN_LIGHT
    light = scene.uneven_light(rng, w, h, strong_light)
    if strong_light:
        conditions.append("uneven-light")
    if rng.random() < P_HARD_SHADOW:
        light = light * scene.hard_shadow(rng, w, h, outline)
        conditions.append("hard-shadow")
    cast = np.array([rng.uniform(0.95, 1.05), 1.0, rng.uniform(0.9, 1.05)], np.float32)
    a = a * light[..., None] * cast
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    scale = max(w, h) / 1600
    if rng.random() < P_BLUR:
        radius = rng.uniform(0.8, 2.2) * max(1.0, scale)
        conditions.append("blur")
    else:
        radius = rng.uniform(0.2, 0.6) * max(1.0, scale)
    img = img.filter(scene.ImageFilter.GaussianBlur(float(radius)))
    noisy = rng.random() < P_NOISE
    sigma = rng.uniform(5, 12) if noisy else rng.uniform(1, 3)
    if noisy:
        conditions.append("noise")
    a = np.asarray(img).astype(np.int16) + rng.normal(0, sigma, (h, w, 1)).astype(np.int16)
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))

    quality = int(rng.integers(40, 96))
    if quality < LOW_JPEG_QUALITY:
        conditions.append(f"jpeg<{LOW_JPEG_QUALITY}")
    if w * h <= 500_000:
        conditions.append("<=0.5MP")
    elif w * h >= 12_000_000:
        conditions.append(">=12MP")
    orientation, tagged = 1, False
    if rng.random() < P_TURNED:
        orientation = int(rng.choice([6, 3, 8]))
        tagged = bool(rng.random() < P_TAGGED)
        conditions.append("turned-tagged" if tagged else "turned-untagged")
    data = scene.encode(img, quality, orientation, tagged)

    regions = []
    for r in doc.regions:
        # the page is the whole photo; every other region's corners go through the
        # homography, which maps pixel edges (PIL's convention), then move to pixel centres
        # (the reader's convention: (0, 0) is the middle of the top-left pixel)
        corners = [[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]] if r["kind"] == "page" \
            else (scene.apply(hm, to_doc(r["corners"])) - 0.5).tolist()
        out = {"kind": r["kind"], "corners": [[round(x, 1), round(y, 1)] for x, y in corners],
               "text": r["text"]}
        for key in ("rows", "cols", "cells"):
            if key in r:
                out[key] = r[key]
        regions.append(out)
    name = f"images/{index:05d}.jpg"
    truth = {"file": name, "type": kind, "variants": doc.variants, "conditions": sorted(set(conditions)), "width": w,
             "height": h, "orientation": orientation, "tagged": tagged,
             "tilt": round(float(tilt), 1), "rotation": round(float(rotation), 1),
             "jpeg_quality": quality, "regions": regions}
    return name, data, truth
