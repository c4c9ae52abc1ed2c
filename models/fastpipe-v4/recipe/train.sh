#!/usr/bin/env bash
# models/fastpipe-v4: v3's data and recipe (../../fastpipe-v3/recipe: build_data.sh, then train.sh),
# trained as an ensemble of three networks side by side (their probabilities averaged), 10 epochs,
# the epoch with the best validation accuracy kept. See ../MODEL.md for why.
# env: as ../../fastpipe-v3/recipe/train.sh (T, D, SEED, LR, SKIP_ARTIFACTS); OUT defaults to $T/fastpipe-v4.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
T=${T:-/work/v3data}
OUT=${OUT:-$T/fastpipe-v4} ENSEMBLE=3 EPOCHS=${EPOCHS:-10} T=$T exec bash "$here/../../fastpipe-v3/recipe/train.sh"
