"""Trains the digit classifier and writes the model, the Swift fixtures and the eval sets.

    pip install -r Training/requirements.txt
    python3 Training/train.py            # ~32 min on 2 idle cores (28 epochs)

Writes Models/digits-lenet.safetensors (fp16), Models/training-report.json, the Swift
equivalence fixtures under Tests/DigitClassifierTests/Fixtures/, and IDX evaluation sets
under Training/out/ (for `scanreader model evaluate`).
"""
import argparse
import json
import random
import struct
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import data
from preprocess import normalize_crop, to_model_input

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Training" / "out"
MODEL = ROOT / "Models" / "digits-lenet.safetensors"
FIXTURES = ROOT / "Tests" / "DigitClassifierTests" / "Fixtures"
CLASSES = 11  # 0-9 and REJECT


class LeNet(nn.Module):
    """TensorFlow's MNIST tutorial network, with an 11th "not a digit" output (`widths`
    and `classes` shrink it for other jobs: the glyph-turn model, Training/train_turn.py).

    With `batchnorm`, each convolution is followed by batch normalization while training;
    `folded()` merges it into the convolution, so what ships is the plain network."""

    def __init__(self, batchnorm: bool = False, widths: tuple = (32, 64, 1024), classes: int = CLASSES):
        super().__init__()
        c1, c2, hidden = widths
        self.widths, self.classes = widths, classes
        self.conv1 = nn.Conv2d(1, c1, 5, padding=2)
        self.conv2 = nn.Conv2d(c1, c2, 5, padding=2)
        self.fc1 = nn.Linear(7 * 7 * c2, hidden)
        self.fc2 = nn.Linear(hidden, classes)
        self.drop = nn.Dropout(0.5)
        self.bn1 = nn.BatchNorm2d(c1) if batchnorm else nn.Identity()
        self.bn2 = nn.BatchNorm2d(c2) if batchnorm else nn.Identity()

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        x = self.drop(F.relu(self.fc1(x.flatten(1))))
        return self.fc2(x)

    @torch.no_grad()
    def folded(self) -> "LeNet":
        """The same function without batch normalization (inference statistics folded
        into the convolution weights and biases)."""
        plain = LeNet(widths=self.widths, classes=self.classes)
        plain.load_state_dict({k: v for k, v in self.state_dict().items()
                               if not k.startswith("bn")}, strict=False)
        for conv, bn in [(plain.conv1, self.bn1), (plain.conv2, self.bn2)]:
            if isinstance(bn, nn.BatchNorm2d):
                scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
                conv.weight.mul_(scale.view(-1, 1, 1, 1))
                conv.bias.copy_((conv.bias - bn.running_mean) * scale + bn.bias)
        return plain.eval()


def elastic_field(n: int, g: torch.Generator, alpha=34.0, sigma=4.0) -> torch.Tensor:
    """Smooth random displacements (Simard et al. 2003), in grid_sample's normalized
    units, shape (N,28,28,2): uniform noise blurred by a Gaussian of `sigma` pixels and
    scaled by `alpha`, about 1.4 px RMS with the defaults: the wobble of a pen stroke."""
    r = int(3 * sigma)
    t = torch.arange(-r, r + 1, dtype=torch.float32)
    k = torch.exp(-t * t / (2 * sigma * sigma))
    k = k / k.sum()
    d = torch.rand(n * 2, 1, 28, 28, generator=g) * 2 - 1
    d = F.conv2d(d, k.view(1, 1, 1, -1), padding=(0, r))
    d = F.conv2d(d, k.view(1, 1, -1, 1), padding=(r, 0))
    return (d.view(n, 2, 28, 28) * alpha * 2 / 28).permute(0, 2, 3, 1)


def augment(x: torch.Tensor, g: torch.Generator, handwritten: torch.Tensor, elastic: float = 0.0,
            printed: torch.Tensor | None = None, lowres: float = 0.0,
            elastic_printed: float = 0.0) -> torch.Tensor:
    """What segmentation of phone photos hands the model: geometry, stroke, blur, noise,
    low contrast and ruling-line fragments at the crop edges; handwritten samples
    (`handwritten`, a bool per row) also get elastic distortion with probability `elastic`,
    and printed ones (`printed`) are, with probability `lowres`, shrunk to 45-75 % and
    blown up again: print photographed from afar at low resolution; with probability
    `elastic_printed` they are distorted elastically too.
    x: (N,1,28,28) in [0,1]."""
    n = x.shape[0]

    def u(lo, hi, size=(n,)):
        return lo + (hi - lo) * torch.rand(size, generator=g)

    keep = torch.rand(n, generator=g) < 0.2  # a fifth stays untouched
    ang = u(-0.21, 0.21)  # about +-12 degrees
    sc = u(0.85, 1.12)
    sh = u(-0.25, 0.25)
    tx, ty = u(-0.14, 0.14), u(-0.14, 0.14)
    cos, sin = torch.cos(ang), torch.sin(ang)
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = cos / sc
    theta[:, 0, 1] = (-sin + sh * cos) / sc
    theta[:, 1, 0] = sin / sc
    theta[:, 1, 1] = (cos + sh * sin) / sc
    theta[:, 0, 2], theta[:, 1, 2] = tx, ty
    theta[keep] = torch.tensor([[1.0, 0, 0], [0, 1.0, 0]])
    grid = F.affine_grid(theta, x.shape, align_corners=False)
    if elastic > 0:  # (no draws from g when off: the shipped model's stream is unchanged)
        wobble = handwritten & ~keep & (torch.rand(n, generator=g) < elastic)
        if elastic_printed > 0 and printed is not None:
            wobble |= printed & ~keep & (torch.rand(n, generator=g) < elastic_printed)
        grid = grid + elastic_field(n, g) * wobble.view(n, 1, 1, 1).float()
    y = F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
    if lowres > 0 and printed is not None:  # (no draws from g when off)
        chosen = printed & ~keep & (torch.rand(n, generator=g) < lowres)
        for i in torch.nonzero(chosen).flatten().tolist():
            side = int(28 * float(u(0.45, 0.75, (1,))))
            small = F.interpolate(y[i:i + 1], size=(side, side), mode="bilinear", antialias=True, align_corners=False)
            y[i:i + 1] = F.interpolate(small, size=(28, 28), mode="bilinear", align_corners=False)

    def pick(p):
        return ((torch.rand(n, generator=g) < p) & ~keep).view(n, 1, 1, 1).float()

    dil = F.max_pool2d(y, 3, 1, 1)
    ero = -F.max_pool2d(-y, 3, 1, 1)
    m = pick(0.15)
    y = y * (1 - m) + dil * m
    m = pick(0.07)
    y = y * (1 - m) + ero * m
    k = torch.tensor([[1.0, 2, 1], [2, 4, 2], [1, 2, 1]]).view(1, 1, 3, 3) / 16
    m = pick(0.2)
    y = y * (1 - m) + F.conv2d(y, k, padding=1) * m
    # ruling-line fragments hugging an edge
    m = pick(0.12).view(n)
    for i in torch.nonzero(m).flatten().tolist():
        pos = int(torch.randint(0, 3, (1,), generator=g))
        side = int(torch.randint(0, 4, (1,), generator=g))
        lo = int(torch.randint(0, 14, (1,), generator=g))
        hi = int(torch.randint(14, 29, (1,), generator=g))
        v = float(u(0.4, 1.0, (1,)))
        if side == 0:
            y[i, 0, pos, lo:hi] = torch.clamp(y[i, 0, pos, lo:hi], min=v)
        elif side == 1:
            y[i, 0, 27 - pos, lo:hi] = torch.clamp(y[i, 0, 27 - pos, lo:hi], min=v)
        elif side == 2:
            y[i, 0, lo:hi, pos] = torch.clamp(y[i, 0, lo:hi, pos], min=v)
        else:
            y[i, 0, lo:hi, 27 - pos] = torch.clamp(y[i, 0, lo:hi, 27 - pos], min=v)
    m = pick(0.3)
    y = y * (1 - m) + y * u(0.45, 1.0).view(n, 1, 1, 1) * m
    m = pick(0.3)
    y = y + torch.randn(y.shape, generator=g) * u(0.0, 0.08).view(n, 1, 1, 1) * m
    # the deployed input is bytes / 255: quantize the same way
    return torch.round(torch.clamp(y, 0, 1) * 255) / 255


def seed_everything(seed: int):
    """Python's, NumPy's and PyTorch's generators seeded; two threads (this machine's cores)."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(2)


BATCH = 128


def batches(count: int, g: torch.Generator):
    """One epoch's batches: indices into `count` samples, shuffled by `g`, BATCH at a time
    (what train.py's own loop draws)."""
    perm = torch.randperm(count, generator=g)
    for i in range(0, count, BATCH):
        yield perm[i:i + BATCH]


def logits_of(model, x_u8: np.ndarray, batch=1000) -> np.ndarray:
    model.eval()
    outs = []
    with torch.no_grad():
        for i in range(0, len(x_u8), batch):
            xb = torch.from_numpy(to_model_input(x_u8[i:i + batch])).unsqueeze(1)
            outs.append(model(xb).numpy())
    return np.concatenate(outs)


def ece(probs: np.ndarray, labels: np.ndarray, bins=15) -> float:
    conf = probs.max(1)
    right = probs.argmax(1) == labels
    edges = np.linspace(0, 1, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (conf > lo) & (conf <= hi)
        if m.any():
            total += m.mean() * abs(right[m].mean() - conf[m].mean())
    return float(total)


def write_idx(path: Path, arr: np.ndarray):
    """IDX (LeCun's MNIST format): magic 0x08 ubyte, dims big-endian."""
    arr = np.ascontiguousarray(arr, dtype=np.uint8)
    header = struct.pack(">BBBB", 0, 0, 0x08, arr.ndim) + b"".join(
        struct.pack(">I", d) for d in arr.shape)
    path.write_bytes(header + arr.tobytes())


def write_safetensors(path: Path, tensors: dict, metadata: dict):
    """safetensors: u64 little-endian header length, JSON header, raw little-endian data."""
    header, blobs, offset = {"__metadata__": metadata}, [], 0
    for name, t in tensors.items():
        a = np.ascontiguousarray(t.detach().numpy().astype(np.float16))
        blob = a.astype("<f2").tobytes()
        header[name] = {"dtype": "F16", "shape": list(a.shape),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    hj = json.dumps(header, separators=(",", ":")).encode()
    hj += b" " * (-len(hj) % 8)
    path.write_bytes(struct.pack("<Q", len(hj)) + hj + b"".join(blobs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=28)
    ap.add_argument("--seed", type=int, default=20261121)
    ap.add_argument("--elastic", type=float, default=0.0,
                    help="share of the augmented MNIST digits also distorted elastically "
                         "(0.5: MNIST 99.64 %%, but fewer wichtounet grids exact; see the model card)")
    ap.add_argument("--lowres", type=float, default=0.0,
                    help="share of the augmented printed digits also shrunk and blown up again "
                         "(low-resolution print; 0: the shipped model)")
    ap.add_argument("--elastic-printed", type=float, default=0.0,
                    help="share of the augmented printed digits distorted elastically too "
                         "(with --elastic; 0: the shipped model)")
    ap.add_argument("--clean-epochs", type=int, default=0,
                    help="the last N epochs without elastic distortion (with --elastic; "
                         "0: the shipped model)")
    ap.add_argument("--printed-weight", type=float, default=1.0,
                    help="weight of the rendered printed digits in the loss, relative to "
                         "MNIST and non-digits (1: the shipped model)")
    ap.add_argument("--flagged-ones", type=int, default=0,
                    help="this many handwritten 1s with a flag added to the training digits, and "
                         "ruling corners kept to long arms (0: the shipped model; see the model card)")
    ap.add_argument("--words", action="store_true",
                    help="printed words in any quarter turn among the non-digits (data._word)")
    args = ap.parse_args()
    t0 = time.time()
    seed_everything(args.seed)

    mx, my, mtx, mty = data.load_mnist()
    train_fonts, eval_fonts = data.training_fonts(), data.held_out_fonts()
    flagged = args.flagged_ones > 0
    cache = data.CACHE / (f"synthetic-v4-{args.seed}-{args.flagged_ones}.npz" if flagged else f"synthetic-v3-{args.seed}.npz")
    if args.words:
        cache = cache.with_name(cache.stem + "-words.npz")
    if cache.exists():
        z = np.load(cache)
        px, py, rx, ry, fx, fy, nx, ny = (z[k] for k in "px py rx ry fx fy nx ny".split())
    else:
        px, py = data.render_digits(train_fonts, 40, args.seed + 1)
        rx, ry = data.non_digits(18000, train_fonts, args.seed + 2, handwritten=mx, long_arms=flagged, words=args.words)
        fx, fy = data.render_digits(eval_fonts, 40, args.seed + 3)
        nx, ny = data.non_digits(6000, eval_fonts, args.seed + 4, handwritten=mtx, long_arms=flagged, words=args.words)
        if flagged:   # drawn, not MNIST: they train with the printed digits' augmentation
            ox, oy = data.flagged_ones(args.flagged_ones, args.seed + 5)
            px, py = np.concatenate([px, ox]), np.concatenate([py, oy])
        np.savez_compressed(cache, px=px, py=py, rx=rx, ry=ry, fx=fx, fy=fy, nx=nx, ny=ny)
    print(f"data: mnist {len(mx)}, printed {len(px)} from {len(train_fonts)} fonts, "
          f"non-digits {len(rx)}; held-out fonts {len(fx)}, held-out non-digits {len(nx)}; "
          f"{time.time() - t0:.0f}s", flush=True)

    x = torch.from_numpy(to_model_input(np.concatenate([mx, px, rx]))).unsqueeze(1)
    y = torch.from_numpy(np.concatenate([my, py, ry]))
    weight = torch.ones(len(x))
    weight[len(mx):len(mx) + len(px)] = args.printed_weight
    model = LeNet(batchnorm=True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    steps = args.epochs * ((len(x) + 127) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=steps)
    g = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(x), generator=g)
        total = 0.0
        elastic = args.elastic if epoch < args.epochs - args.clean_epochs else 0.0
        for i in range(0, len(x), 128):
            idx = perm[i:i + 128]
            xb = augment(x[idx], g, idx < len(mx), elastic,
                         (idx >= len(mx)) & (idx < len(mx) + len(px)), args.lowres, args.elastic_printed)
            if args.printed_weight == 1:  # (the shipped model's arithmetic, unchanged)
                loss = F.cross_entropy(model(xb), y[idx])
            else:
                w = weight[idx]
                loss = (F.cross_entropy(model(xb), y[idx], reduction="none") * w).sum() / w.sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss) * len(idx)
        acc = (logits_of(model, mtx).argmax(1) == mty).mean()
        print(f"epoch {epoch + 1}/{args.epochs} loss {total / len(x):.4f} "
              f"mnist-test {acc * 100:.2f}% ({time.time() - t0:.0f}s)", flush=True)

    # fp16 storage: measure with the rounded weights, which is what ships.
    model.eval()
    model = model.folded()
    state = {k: v.clone() for k, v in model.state_dict().items()}
    acc32 = (logits_of(model, mtx).argmax(1) == mty).mean()
    model.load_state_dict({k: v.half().float() for k, v in state.items()})
    report = evaluate(model, mtx, mty, fx, fy, nx, ny)
    report["mnist_test_accuracy_fp32_weights"] = float(acc32)
    if flagged:
        hx, hy = data.flagged_ones(1000, args.seed + 6)   # held out, only for measuring
        report["heldout_flagged_ones_accuracy"] = float((logits_of(model, hx).argmax(1) == hy).mean())
    report.update(seed=args.seed, epochs=args.epochs, elastic=args.elastic,
                  printed_weight=args.printed_weight, lowres=args.lowres,
                  elastic_printed=args.elastic_printed, clean_epochs=args.clean_epochs, train_fonts=len(train_fonts),
                  flagged_ones=args.flagged_ones, words=args.words,
                  train_samples=len(x), seconds=round(time.time() - t0))
    print(json.dumps(report, indent=2))

    MODEL.parent.mkdir(exist_ok=True)
    write_safetensors(MODEL, {k: model.state_dict()[k] for k in
                              ["conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias",
                               "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]},
                      {"architecture": "lenet-tf-tutorial", "classes": "0123456789R",
                       "preprocessing": "fit20-com28-v1", "seed": str(args.seed)})
    (ROOT / "Models" / "training-report.json").write_text(json.dumps(report, indent=2) + "\n")
    export_eval_sets(mtx, mty, fx, fy, nx, ny)
    export_fixtures(model, mtx, fx, nx, args.seed)


SECOND_LOOK_BELOW = 0.9  # DigitClassifier.secondLookBelow
SHIFTS = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def shifted(x_u8: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """(N, 28, 28) bytes moved dx right and dy down, paper (0) coming in at the edges."""
    out = np.zeros_like(x_u8)
    h, w = x_u8.shape[1:]
    out[:, max(0, dy):h + min(0, dy), max(0, dx):w + min(0, dx)] = \
        x_u8[:, max(0, -dy):h + min(0, -dy), max(0, -dx):w + min(0, -dx)]
    return out


def second_look(model, x_u8: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """What the Swift engine's classify returns (DigitClassifier.swift): rows whose top
    probability is under SECOND_LOOK_BELOW get the mean softmax of the input and its four
    one-pixel shifts."""
    unsure = np.nonzero(probs.max(1) < SECOND_LOOK_BELOW)[0]
    out = probs.copy()
    if len(unsure):
        total = probs[unsure].copy()
        for dx, dy in SHIFTS:
            z = logits_of(model, shifted(x_u8[unsure], dx, dy))
            total += torch.softmax(torch.from_numpy(z), 1).numpy()
        out[unsure] = total / (len(SHIFTS) + 1)
    return out


def evaluate(model, mtx, mty, fx, fy, nx, ny) -> dict:
    pm = torch.softmax(torch.from_numpy(logits_of(model, mtx)), 1).numpy()
    pf = torch.softmax(torch.from_numpy(logits_of(model, fx)), 1).numpy()
    pn = torch.softmax(torch.from_numpy(logits_of(model, nx)), 1).numpy()
    digits10 = lambda p: p[:, :10].argmax(1)  # noqa: E731  (reading with rejection off)
    sm, sf, sn = second_look(model, mtx, pm), second_look(model, fx, pf), second_look(model, nx, pn)
    return {
        "mnist_test_accuracy_second_look": float((sm.argmax(1) == mty).mean()),
        "mnist_test_ece_second_look": ece(sm, mty),
        "heldout_fonts_accuracy_second_look": float((sf.argmax(1) == fy).mean()),
        "heldout_nondigits_rejected_second_look": float((sn.argmax(1) == data.REJECT).mean()),
        "mnist_test_accuracy": float((pm.argmax(1) == mty).mean()),
        "mnist_test_accuracy_reject_off": float((digits10(pm) == mty).mean()),
        "mnist_test_rejected": float((pm.argmax(1) == data.REJECT).mean()),
        "mnist_test_ece": ece(pm, mty),
        "heldout_fonts_accuracy": float((pf.argmax(1) == fy).mean()),
        "heldout_fonts_accuracy_reject_off": float((digits10(pf) == fy).mean()),
        "heldout_fonts_rejected": float((pf.argmax(1) == data.REJECT).mean()),
        "heldout_nondigits_rejected": float((pn.argmax(1) == data.REJECT).mean()),
    }


def export_eval_sets(mtx, mty, fx, fy, nx, ny):
    OUT.mkdir(parents=True, exist_ok=True)
    for name, xs, ys in [("mnist-test", mtx, mty), ("fonts-heldout", fx, fy),
                         ("nondigits-heldout", nx, ny)]:
        write_idx(OUT / f"{name}-images.idx3-ubyte", xs)
        write_idx(OUT / f"{name}-labels.idx1-ubyte", ys.astype(np.uint8))


def export_fixtures(model, mtx, fx, nx, seed):
    """Inputs (bytes) and PyTorch's logits, for the Swift equivalence test; and raw crops
    with their normalized bytes, for the preprocessing-contract test."""
    FIXTURES.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed + 9)
    inputs = np.concatenate([mtx[:60], fx[rng.choice(len(fx), 40, replace=False)],
                             nx[rng.choice(len(nx), 28, replace=False)]])
    logits = logits_of(model, inputs)
    (FIXTURES / "logits_fixture.json").write_text(json.dumps({
        "model": "Models/digits-lenet.safetensors",
        "inputs": [base64_of(a) for a in inputs],
        "logits": [[round(float(v), 7) for v in row] for row in logits],
    }) + "\n")
    crops = []
    for i in range(24):
        h, w = int(rng.integers(1, 70)), int(rng.integers(1, 70))
        ink = rng.random((h, w)) * (rng.random((h, w)) < 0.5)
        if i % 4 == 0:
            ink = np.pad(ink, 3)
        q = np.floor(ink * 255 + 0.5).astype(np.uint8)  # crops travel as bytes
        crops.append({"width": w + (6 if i % 4 == 0 else 0), "height": q.shape[0],
                      "ink": base64_of(q), "normalized": base64_of(normalize_crop(q / 255.0))})
    (FIXTURES / "preprocess_fixture.json").write_text(json.dumps({"crops": crops}) + "\n")


def base64_of(a: np.ndarray) -> str:
    import base64
    return base64.b64encode(np.ascontiguousarray(a, dtype=np.uint8).tobytes()).decode()


if __name__ == "__main__":
    main()
