#!/usr/bin/env bash
# The main job on the bundled samples: installs what a fresh Debian machine lacks,
# builds scanreader (release) and reads SampleImages/ into results.csv, then prints it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
swift build -c release --product scanreader
.build/release/scanreader SampleImages --out results.csv
cat results.csv
