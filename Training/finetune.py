"""Fine-tunes the shipped digit classifier on what it reads wrong, instead of training anew.

    python3 Training/finetune.py        # 6-9 min on this project's 2-core machine

A full run of train.py is a lottery on MNIST (seed to seed the second-look accuracy moves
by about 0.05 %, the size of the margin to the 99.65 % target); starting from the shipped
weights keeps what they learnt and moves them only as far as the new samples need. The
network is the plain one that ships (batch normalization already folded); it sees the
shipped training mix again (MNIST, printed digits, non-digits with corners and Ts of long
arms), plus handwritten 1s with the flags of hand-filled grids (`data.flagged_ones`,
`wide`), with the same augmentation, at a small learning rate falling to zero.

Writes Training/out/digits-lenet-finetuned.safetensors and its report, for measuring with
`scanreader eval --model` (copy glyph-turn.safetensors beside it for `--orientation auto`).
No fine-tuned model is shipped (see the model card); shipping one would also take the
Swift fixtures and evaluation sets train.py writes.
"""
import argparse
import json
import struct
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

import data
from preprocess import to_model_input
from train import LeNet, MODEL, OUT, augment, batches, evaluate, logits_of, seed_everything, write_safetensors

TENSORS = ["conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias",
           "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]


def read_safetensors(path) -> tuple[dict, dict]:
    """The tensors (as float32 torch tensors) and metadata of a safetensors file."""
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {})
    body = raw[8 + n:]
    kinds = {"F16": "<f2", "F32": "<f4"}
    tensors = {name: torch.from_numpy(np.frombuffer(body[a:b], dtype=kinds[h["dtype"]])
                                      .astype(np.float32).reshape(h["shape"]).copy())
               for name, h in header.items() for a, b in [h["data_offsets"]]}
    return tensors, meta


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default=str(MODEL), help="the weights to start from")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=1e-4, help="Adam's rate at the start, cosine to 0")
    ap.add_argument("--flagged-ones", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--distill", type=float, default=0.0,
                    help="weight of a distillation term: on every sample but the new flagged 1s the "
                         "network is also pulled toward the starting weights' answers (0: off)")
    ap.add_argument("--temperature", type=float, default=2.0, help="the distillation's softmax temperature")
    ap.add_argument("--train-convs", action="store_true",
                    help="also move the convolutions (default: only the fully connected layers learn)")
    args = ap.parse_args()
    t0 = time.time()
    seed_everything(args.seed)

    mx, my, mtx, mty = data.load_mnist()
    train_fonts, eval_fonts = data.training_fonts(), data.held_out_fonts()
    cache = data.CACHE / f"finetune-v2-{args.seed}-{args.flagged_ones}.npz"
    if cache.exists():
        z = np.load(cache)
        px, py, rx, ry, fx, fy, nx, ny, hx, hy = (z[k] for k in "px py rx ry fx fy nx ny hx hy".split())
    else:
        px, py = data.render_digits(train_fonts, 40, args.seed + 1)
        rx, ry = data.non_digits(18000, train_fonts, args.seed + 2, handwritten=mx, long_arms=True)
        fx, fy = data.render_digits(eval_fonts, 40, args.seed + 3)
        nx, ny = data.non_digits(6000, eval_fonts, args.seed + 4, handwritten=mtx, long_arms=True)
        ox, oy = data.flagged_ones(args.flagged_ones, args.seed + 5, wide=True)
        px, py = np.concatenate([px, ox]), np.concatenate([py, oy])
        hx, hy = data.flagged_ones(1000, args.seed + 6, wide=True)   # held out, only for measuring
        np.savez_compressed(cache, px=px, py=py, rx=rx, ry=ry, fx=fx, fy=fy, nx=nx, ny=ny, hx=hx, hy=hy)
    print(f"data: mnist {len(mx)}, printed and drawn {len(px)}, non-digits {len(rx)}; "
          f"{time.time() - t0:.0f}s", flush=True)

    tensors, meta = read_safetensors(Path(args.base))
    model = LeNet()
    model.load_state_dict(tensors)
    before = evaluate(model, mtx, mty, fx, fy, nx, ny)
    before["heldout_flagged_ones_accuracy"] = float((logits_of(model, hx).argmax(1) == hy).mean())
    print("before:", json.dumps(before), flush=True)

    teacher = LeNet()
    teacher.load_state_dict(tensors)
    teacher.eval()
    # the flagged 1s were appended to the printed digits: they alone are taught against the
    # starting weights' answers
    new_start = len(mx) + len(px) - args.flagged_ones
    new_end = len(mx) + len(px)
    x = torch.from_numpy(to_model_input(np.concatenate([mx, px, rx]))).unsqueeze(1)
    y = torch.from_numpy(np.concatenate([my, py, ry]))
    # the convolutions' features are MNIST's and the fonts'; the new shapes are told apart
    # by how the fully connected layers weigh them
    learning = [p for name, p in model.named_parameters() if args.train_convs or name.startswith("fc")]
    opt = torch.optim.Adam(learning, lr=args.lr)
    steps = args.epochs * ((len(x) + 127) // 128)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=steps)
    g = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for idx in batches(len(x), g):
            xb = augment(x[idx], g, idx < len(mx))
            out = model(xb)
            loss = F.cross_entropy(out, y[idx])
            if args.distill > 0:
                keep = ~((idx >= new_start) & (idx < new_end))
                if keep.any():
                    T = args.temperature
                    with torch.no_grad():
                        target = F.softmax(teacher(xb[keep]) / T, dim=1)
                    kd = F.kl_div(F.log_softmax(out[keep] / T, dim=1), target, reduction="batchmean") * T * T
                    loss = loss + args.distill * kd
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        acc = (logits_of(model, mtx).argmax(1) == mty).mean()
        print(f"epoch {epoch + 1}/{args.epochs} loss {total / len(x):.4f} "
              f"mnist-test {acc * 100:.2f}% ({time.time() - t0:.0f}s)", flush=True)

    # fp16 storage: measure with the rounded weights, which is what ships
    model.eval()
    model.load_state_dict({k: v.half().float() for k, v in model.state_dict().items()})
    report = evaluate(model, mtx, mty, fx, fy, nx, ny)
    report["heldout_flagged_ones_accuracy"] = float((logits_of(model, hx).argmax(1) == hy).mean())
    report.update(before=before, base=meta, seed=args.seed, epochs=args.epochs, lr=args.lr,
                  flagged_ones=args.flagged_ones, train_convs=args.train_convs, distill=args.distill,
                  temperature=args.temperature, train_samples=len(x),
                  seconds=round(time.time() - t0))
    print(json.dumps(report, indent=2))

    OUT.mkdir(parents=True, exist_ok=True)
    meta = {"architecture": "lenet-tf-tutorial", "classes": "0123456789R", "preprocessing": "fit20-com28-v1",
            "seed": str(args.seed), "finetuned_from_seed": meta.get("seed", "")}
    weights = {k: model.state_dict()[k] for k in TENSORS}
    write_safetensors(OUT / "digits-lenet-finetuned.safetensors", weights, meta)
    (OUT / "finetune-report.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
