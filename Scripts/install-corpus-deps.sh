#!/usr/bin/env bash
# Installs what the corpus generator (Scripts/make-corpus.py) and the classifier's training
# data (Training/data.py) need on Debian: the font packages their printed digits use
# (fonts-noto-mono holds a held-out training face), and numpy + Pillow for Python 3 (run as
# root or with sudo).
set -euo pipefail
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
missing=()
for p in fonts-dejavu fonts-liberation fonts-freefont-ttf fonts-urw-base35 fonts-croscore fonts-noto-core fonts-noto-mono; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! python3 -c "import numpy, PIL" 2>/dev/null; then
  python3 -m pip install -q numpy==2.4.6 pillow==13.0.0
fi
