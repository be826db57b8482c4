"""Trains the glyph-turn model: which quarter turn a glyph crop shows.

    pip install -r Training/requirements.txt
    python3 Training/train_turn.py        # a few minutes on 2 cores

`--orientation auto` asks it of a sample of the crops a reading cut, and adds up the
answers (Sources/ScanReader/OrientationVote.swift). The input is the digit classifier's
own 28x28 input (Training/preprocess.py); the output is five classes: k = 0..3, the crop
is an upright glyph turned k quarter turns clockwise, and 4, the crop shows no turn
(ruling pieces and crosses, with or without small digits in their corners, specks,
show-through), whose probability a vote spreads evenly over the four turns.

Every glyph sample is an upright crop (MNIST digits, printed digits from the training
fonts, groups of two or three digits, letters, a solver's candidate clusters, words and
lines of print merged into one crop — a bar along its line), augmented
like the digit classifier's, then turned a uniformly drawn k. Trained with the plain
label k, the model learns the posterior: a glyph that looks the same in two turns (0, 8,
6 against 9) gets the probability shared between them and adds little to a vote, while
2, 3, 4, 5 and 7 decide. The no-turn crops are turned too, and keep their label.

Writes Models/glyph-turn.safetensors (fp16), Models/glyph-turn-report.json and the Swift
equivalence fixture Tests/DigitClassifierTests/Fixtures/turn_fixture.json.
"""
import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

import data
from PIL import Image, ImageDraw, ImageFilter, ImageFont
from preprocess import normalize_crop, to_model_input
from train import LeNet, augment, base64_of, batches, logits_of, seed_everything, write_safetensors

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "Models" / "glyph-turn.safetensors"
REPORT = ROOT / "Models" / "glyph-turn-report.json"
FIXTURE = ROOT / "Tests" / "DigitClassifierTests" / "Fixtures" / "turn_fixture.json"
WIDTHS = (8, 16, 64)  # about 1/17 of the digit classifier's arithmetic per crop
TURNS = 4
NO_TURN = 4  # the fifth class
# data.non_digits makes its kinds in turn: these show no turn (line pieces, specks,
# show-through); the others (candidates, letters, digit groups) are glyphs
NON_DIGIT_KINDS = 6
NO_TURN_KINDS = (0, 1, 4)


TEXT_CHARS = "abcdefghijklmnopqrstuvwxyzabcdeeeinorstu0123456789ABCDEFGHIKLMNOPRSTUW.,-"


def text_piece(rng: np.random.Generator, fonts) -> np.ndarray:
    """A word (2 to 10 characters) or a stretch of a line (11 to 30) of print merged into
    one crop, as segmentation cuts text photographed small (4 to 24 px tall): a bar of
    ink running along its line, a glyph (label: its turn) that tells which way lines run."""
    n = int(rng.integers(2, 11)) if rng.random() < 0.7 else int(rng.integers(11, 31))
    text = "".join(TEXT_CHARS[rng.integers(len(TEXT_CHARS))] for _ in range(n))
    font = ImageFont.truetype(str(fonts[rng.integers(len(fonts))]), 48)
    img = Image.new("L", (40 * len(text) + 80, 120), 0)
    ImageDraw.Draw(img).text((40, 60), text, fill=255, font=font, anchor="lm")
    img = img.rotate(rng.uniform(-3, 3), resample=Image.BILINEAR)
    ink = np.asarray(img, dtype=np.float64) / 255.0
    ys, xs = np.nonzero(ink > 0.02)
    crop = Image.fromarray((np.pad(ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1], 4) * 255).astype(np.uint8))
    f = rng.uniform(4, 24) / crop.height
    small = crop.resize((max(1, round(crop.width * f)), max(1, round(crop.height * f))), Image.BILINEAR)
    small = small.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.2)))
    a = np.asarray(small, dtype=np.float64) / 255.0
    cut = rng.uniform(0.05, 0.4) * a.max()
    return normalize_crop(np.where(a > cut, (a - cut) / (a.max() - cut), 0.0))


def ruling_cross(rng: np.random.Generator, fonts) -> np.ndarray:
    """What a cell cut from a misplaced lattice holds: a ruling cross, T or corner with
    small digits in its corners, normalized like a crop (label: no turn)."""
    img = Image.new("L", (90, 90), 0)
    d = ImageDraw.Draw(img)
    width = int(rng.integers(1, 5))
    cx, cy = (int(v) for v in rng.integers(25, 65, size=2))
    kind = rng.integers(0, 3)
    d.line([(0 if kind != 2 else cx, cy), (89, cy)], fill=255, width=width)
    d.line([(cx, 0 if kind == 0 else cy), (cx, 89)], fill=255, width=width)
    font = ImageFont.truetype(str(fonts[rng.integers(len(fonts))]), int(rng.integers(14, 26)))
    for qx, qy in [(-1, -1), (1, -1), (-1, 1), (1, 1)]:
        if rng.random() < 0.5:
            d.text((cx + qx * int(rng.integers(10, 22)), cy + qy * int(rng.integers(10, 22))),
                   str(rng.integers(0, 10)), fill=int(rng.integers(120, 256)), font=font, anchor="mm")
    img = img.rotate(rng.uniform(-10, 10) + 90 * int(rng.integers(0, 4)), resample=Image.BILINEAR)
    return normalize_crop(data._downsample(np.asarray(img, dtype=np.float64) / 255.0, rng))


def turned(x: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """Each crop of x (N,1,28,28) turned k[i] quarter turns clockwise."""
    out = x.clone()
    for t in range(1, TURNS):
        m = k == t
        if m.any():
            out[m] = torch.rot90(x[m], -t, dims=(2, 3))
    return out


def all_turns(x_u8: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every crop in each of the four turns, with its label."""
    xs = np.concatenate([np.rot90(x_u8, -t, axes=(1, 2)) for t in range(TURNS)])
    ys = np.repeat(np.arange(TURNS), len(x_u8))
    return np.ascontiguousarray(xs), ys


def turn_evidence(model, xs: np.ndarray) -> np.ndarray:
    """(N, 4): log(p_k + p_no_turn / 4), what a vote adds up (as OrientationVote)."""
    p = torch.softmax(torch.from_numpy(logits_of(model, xs)), 1).numpy()
    return np.log(p[:, :TURNS] + p[:, NO_TURN:] / TURNS)


def turn_report(model, name: str, x_u8: np.ndarray, labels: np.ndarray, group: int, seed: int) -> dict:
    """Per-crop accuracy over the four turns, per digit; and the accuracy of a vote
    over `group` crops drawn together (summed evidence), as a photo's vote."""
    xs, ks = all_turns(x_u8)
    logp = turn_evidence(model, xs)
    right = logp.argmax(1) == ks
    per_digit = {}
    lab4 = np.tile(labels, TURNS)
    for d in np.unique(labels):
        per_digit[str(int(d))] = round(float(right[lab4 == d].mean()), 4)
    rng = np.random.default_rng(seed)
    n = len(x_u8)
    votes_right = 0
    trials = 2000
    for i in range(trials):
        k = i % TURNS
        idx = rng.choice(n, group, replace=False) + k * n
        votes_right += int(logp[idx].sum(0).argmax() == k)
    return {f"{name}_crop_turn_accuracy": round(float(right.mean()), 4),
            f"{name}_crop_turn_accuracy_per_label": per_digit,
            f"{name}_vote_of_{group}_accuracy": round(votes_right / trials, 4)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=20261123)
    args = ap.parse_args()
    t0 = time.time()
    seed_everything(args.seed)

    mx, my, mtx, mty = data.load_mnist()
    cache = data.CACHE / f"turn-data-v3-{args.seed}.npz"
    if cache.exists():
        z = np.load(cache)
        px, py, rx, ry, fx, fy, cx, tx = (z[k] for k in "px py rx ry fx fy cx tx".split())
    else:
        train_fonts, eval_fonts = data.training_fonts(), data.held_out_fonts()
        px, py = data.render_digits(train_fonts, 20, args.seed + 1)
        rx, ry = data.non_digits(12000, train_fonts, args.seed + 2, handwritten=mx)
        fx, fy = data.render_digits(eval_fonts, 10, args.seed + 3)
        rng = np.random.default_rng(args.seed + 4)
        cx = np.stack([ruling_cross(rng, train_fonts) for _ in range(3000)])
        tx = np.stack([text_piece(rng, train_fonts) for _ in range(6000)])
        cache.parent.mkdir(exist_ok=True)
        np.savez_compressed(cache, px=px, py=py, rx=rx, ry=ry, fx=fx, fy=fy, cx=cx, tx=tx)
    no_turn_kind = np.isin(np.arange(len(rx)) % NON_DIGIT_KINDS, NO_TURN_KINDS)
    print(f"data: mnist {len(mx)}, printed {len(px)}, other glyphs {int((~no_turn_kind).sum())}, "
          f"text pieces {len(tx)}, "
          f"no-turn crops {int(no_turn_kind.sum()) + len(cx)}; held-out fonts {len(fx)}; "
          f"{time.time() - t0:.0f}s", flush=True)

    x = torch.from_numpy(to_model_input(np.concatenate([mx, px, rx, tx, cx]))).unsqueeze(1)
    handwritten = torch.zeros(len(x), dtype=torch.bool)
    handwritten[:len(mx)] = True
    no_turn = torch.from_numpy(np.concatenate([np.zeros(len(mx) + len(px), bool), no_turn_kind,
                                               np.zeros(len(tx), bool), np.ones(len(cx), bool)]))
    model = LeNet(batchnorm=True, widths=WIDTHS, classes=TURNS + 1)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    steps = args.epochs * ((len(x) + 127) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    g = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for idx in batches(len(x), g):
            k = torch.randint(0, TURNS, (len(idx),), generator=g)
            xb = turned(augment(x[idx], g, handwritten[idx]), k)
            loss = F.cross_entropy(model(xb), torch.where(no_turn[idx], NO_TURN, k))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss) * len(idx)
        print(f"epoch {epoch + 1}/{args.epochs} loss {total / len(x):.4f} ({time.time() - t0:.0f}s)", flush=True)

    model.eval()
    model = model.folded()
    model.load_state_dict({k: v.half().float() for k, v in model.state_dict().items()})  # what ships
    report = {}
    for name, xs, ys in [("mnist_test", mtx, mty), ("heldout_fonts", fx, fy)]:
        for group in (1, 3, 8):
            report.update(turn_report(model, name, xs, ys, group, args.seed + 7))
    # held-out crops that show no turn: how many are called so, in any of the turns
    rng = np.random.default_rng(args.seed + 8)
    junk, _ = all_turns(np.stack([ruling_cross(rng, data.held_out_fonts()) for _ in range(500)]))
    report["heldout_ruling_crosses_no_turn"] = round(float((logits_of(model, junk).argmax(1) == NO_TURN).mean()), 4)
    report["mnist_test_called_no_turn"] = round(float((logits_of(model, all_turns(mtx)[0]).argmax(1) == NO_TURN).mean()), 4)
    report.update(seed=args.seed, epochs=args.epochs, widths=list(WIDTHS),
                  train_samples=len(x), seconds=round(time.time() - t0))
    print(json.dumps(report, indent=2))

    write_safetensors(MODEL, {k: model.state_dict()[k] for k in
                              ["conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias",
                               "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]},
                      {"architecture": "lenet-tf-tutorial-" + "-".join(map(str, WIDTHS)),
                       "classes": "0123 (quarter turns clockwise), N (no turn shown)",
                       "preprocessing": "fit20-com28-v1", "seed": str(args.seed)})
    REPORT.write_text(json.dumps(report, indent=2) + "\n")
    rng = np.random.default_rng(args.seed + 9)
    xs, _ = all_turns(np.concatenate([mtx[:12], fx[rng.choice(len(fx), 12, replace=False)]]))
    FIXTURE.write_text(json.dumps({
        "model": "Models/glyph-turn.safetensors",
        "inputs": [base64_of(a) for a in xs],
        "logits": [[round(float(v), 7) for v in row] for row in logits_of(model, xs)],
    }) + "\n")


if __name__ == "__main__":
    main()
