#!/usr/bin/env python3
"""Classifier speed: the Swift engine vs onnxruntime on the same weights, one thread.

    pip install -r Training/requirements.txt      # torch (CPU), onnx, onnxruntime
    python3 Training/train.py                      # or any run that wrote Training/out/
    python3 Benchmarks/classifier_speed.py [--digits 10000]

Exports Models/digits-lenet.safetensors to ONNX (via the training code's network),
classifies the first MNIST test images repeatedly in batches of 1 and 64 with
onnxruntime (intra- and inter-op threads 1) and with `scanreader-bench classify`
(its own AVX-512/AVX2 kernels, one thread), and prints digits per second and the ratio:
first the network alone (the same work as onnxruntime), then the classifier's whole
answer (softmax and the second look at unsure digits, DigitClassifier.classify).
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Training"))
os.environ.setdefault("OMP_NUM_THREADS", "1")


def load_safetensors(path: Path) -> dict:
    raw = path.read_bytes()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    data = raw[8 + n:]
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        a, b = t["data_offsets"]
        dtype = {"F16": np.float16, "F32": np.float32}[t["dtype"]]
        out[name] = np.frombuffer(data[a:b], dtype=dtype).reshape(t["shape"]).astype(np.float32)
    return out


def read_idx(path: Path) -> np.ndarray:
    raw = path.read_bytes()
    dims = raw[3]
    shape = struct.unpack(">" + "I" * dims, raw[4:4 + 4 * dims])
    return np.frombuffer(raw[4 + 4 * dims:], dtype=np.uint8).reshape(shape)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--digits", type=int, default=10000)
    args = ap.parse_args()
    images = ROOT / "Training/out/mnist-test-images.idx3-ubyte"
    if not images.exists():
        sys.exit(f"{images} missing: run python3 Training/train.py first (it writes the evaluation sets)")
    import torch
    import onnxruntime as ort
    from train import LeNet

    torch.set_num_threads(1)
    model = LeNet()
    model.load_state_dict({k: torch.from_numpy(v) for k, v in load_safetensors(ROOT / "Models/digits-lenet.safetensors").items()})
    model.eval()
    onnx_path = Path(tempfile.gettempdir()) / "digits-lenet.onnx"
    torch.onnx.export(model, torch.zeros(1, 1, 28, 28), str(onnx_path), input_names=["x"], output_names=["logits"],
                      dynamic_axes={"x": {0: "n"}, "logits": {0: "n"}}, dynamo=False)
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])
    x = read_idx(images).astype(np.float32)[:, None, :, :] / 255.0
    subprocess.run(["swift", "build", "-c", "release", "--product", "scanreader-bench"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    print(f"{args.digits} digits, one thread each")
    for batch in (1, 64):
        session.run(None, {"x": x[:batch]})
        done, start = 0, time.perf_counter()
        while done < args.digits:
            i = done % len(x)
            n = min(batch, args.digits - done, len(x) - i)
            session.run(None, {"x": x[i:i + n]})
            done += n
        ort_rate = args.digits / (time.perf_counter() - start)
        out = subprocess.run([str(ROOT / ".build/release/scanreader-bench"), "classify", str(images), str(args.digits), str(batch)],
                             cwd=ROOT, check=True, capture_output=True, text=True).stdout
        swift_rate, answer_rate = (float(r) for r in re.findall(r"([0-9.]+) digits/s", out)[:2])
        print(f"batch {batch:3d}: scanreader {swift_rate:8.0f} digits/s   onnxruntime {ort_rate:8.0f} digits/s   "
              f"ratio {swift_rate / ort_rate:.2f}")
        print(f"           with softmax and the second look at unsure digits: {answer_rate:8.0f} digits/s   "
              f"ratio {answer_rate / ort_rate:.2f}")


if __name__ == "__main__":
    main()
