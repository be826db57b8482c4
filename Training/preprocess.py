"""The preprocessing contract: how an ink crop becomes the classifier's 28x28 input.

This is the one definition. The Swift twin is `DigitInput.normalized(ink:width:height:)`
in Sources/DigitClassifier/DigitInput.swift; the fixture
Tests/DigitClassifierTests/Fixtures/preprocess_fixture.json (written by export.py)
proves both give the same bytes.

Input: a 2-D array of ink intensity in [0, 1], ink high, background 0 (the caller has
already thresholded, inverted and masked away other components).

1. Bounding box of the pixels > 0. No ink: the result is all zeros.
2. Scale factor s = 20 / max(w, h); the new size is (max(1, floor(w*s + 0.5)),
   max(1, floor(h*s + 0.5))): the long side becomes 20, the aspect is kept.
3. Area resampling (a box filter): each output pixel is the mean of the source over its
   footprint, fractional overlaps weighted, computed in float64, separably.
4. Quantize to bytes: floor(v * 255 + 0.5), clamped to 0...255.
5. Centre of mass (cx, cy) of those bytes, in pixel-index coordinates; the digit is
   placed at offset floor(13.5 - cx + 0.5), clamped so it stays inside 28x28 (and the
   same for y): the centre of mass lands on the centre of the 28x28 frame.
6. The model's input is byte / 255 (float32), ink 1, paper 0: MNIST's polarity.
"""
import math

import numpy as np

SIDE = 28
FIT = 20


def _area_weights(src: int, dst: int) -> np.ndarray:
    """(dst, src) matrix: row i averages source cells overlapping [i*src/dst, (i+1)*src/dst)."""
    w = np.zeros((dst, src), dtype=np.float64)
    step = src / dst
    for i in range(dst):
        lo, hi = i * step, (i + 1) * step
        j = int(math.floor(lo))
        while j < src and j < hi:
            overlap = min(hi, j + 1) - max(lo, j)
            if overlap > 0:
                w[i, j] = overlap / step
            j += 1
    return w


def normalize_crop(ink: np.ndarray) -> np.ndarray:
    """Returns the 28x28 uint8 image defined above for an ink array (H, W) in [0, 1]."""
    ink = np.asarray(ink, dtype=np.float64)
    ys, xs = np.nonzero(ink > 0)
    out = np.zeros((SIDE, SIDE), dtype=np.uint8)
    if len(xs) == 0:
        return out
    crop = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h, w = crop.shape
    s = FIT / max(w, h)
    nw = max(1, int(math.floor(w * s + 0.5)))
    nh = max(1, int(math.floor(h * s + 0.5)))
    small = _area_weights(h, nh) @ crop @ _area_weights(w, nw).T
    q = np.clip(np.floor(small * 255 + 0.5), 0, 255).astype(np.uint8)
    total = float(q.sum())
    if total > 0:
        cx = float((q.sum(axis=0) * np.arange(nw)).sum()) / total
        cy = float((q.sum(axis=1) * np.arange(nh)).sum()) / total
    else:
        cx, cy = (nw - 1) / 2, (nh - 1) / 2
    ox = min(max(int(math.floor(13.5 - cx + 0.5)), 0), SIDE - nw)
    oy = min(max(int(math.floor(13.5 - cy + 0.5)), 0), SIDE - nh)
    out[oy:oy + nh, ox:ox + nw] = q
    return out


def to_model_input(bytes_28: np.ndarray) -> np.ndarray:
    """uint8 (..., 28, 28) -> float32 in [0, 1], ink high."""
    return bytes_28.astype(np.float32) / 255.0
