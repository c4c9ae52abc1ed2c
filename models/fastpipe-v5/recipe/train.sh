#!/usr/bin/env bash
# The training half of models/fastpipe-v5 (see ../MODEL.md): labelled, realigned examples of every
# training and validation BAM of build_data.sh's manifest-samples.tsv (each sample at every depth of
# its ladder), then one `fastpipe train` that fits the CNN ensemble and the small model on them, then
# `fastpipe calibrate` on the validation samples (GQ calibration and the FILTER thresholds).
# Nothing here comes from the evaluation band 20:9,000,000-12,000,000 (build_data.sh refuses such a
# training or validation sample), nor from ../shared/data.
# Run from the repository root after `mvn -B -q -DskipTests package` and
#   models/fastpipe-v5/recipe/build_data.sh models/fastpipe-v5/recipe/samples.tsv
# env: T (data, default /work/v5data), OUT (model dir, default $T/fastpipe-v5), SEED (default 1),
#      EPOCHS (default 8; the epoch with the best validation accuracy is kept), LR (default 0.0015),
#      ENSEMBLE (default 3), HEAP (default 15g: the examples are held in memory, ~130 kB each),
#      JOBS (make-examples runs at once, default 2).
set -euo pipefail
T=${T:-/work/v5data}
OUT=${OUT:-$T/fastpipe-v5}
SEED=${SEED:-1}
EPOCHS=${EPOCHS:-8}
LR=${LR:-0.0015}
ENSEMBLE=${ENSEMBLE:-3}
HEAP=${HEAP:-15g}
JOBS=${JOBS:-2}
R=$T/bwaidx/20.fa
M=$T/manifest-samples.tsv
[ -f "$M" ] || { echo "train.sh: $M missing: run build_data.sh samples.tsv first" >&2; exit 2; }
mkdir -p "$T/ex"

me() { # NAME BAM TRUTH BED: in the background, at most JOBS at once
  [ -s "$T/ex/$1.tfrecord.gz" ] && return 0
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  bin/fastpipe make-examples --ref "$R" --reads "$2" --truth-vcf "$3" --confident-bed "$4" --bed "$4" \
    --output "$T/ex/$1.tfrecord.gz" > "$T/ex/$1.log" 2>&1 &
}
train=() val=()
while IFS=$'\t' read -r name parent role profile len cov artifact bam truth bed; do
  [ "$name" = name ] && continue
  case $role in
    train) me "$name" "$bam" "$truth" "$bed"; train+=("$T/ex/$name.tfrecord.gz") ;;
    validation) me "$name" "$bam" "$truth" "$bed"; val+=("$T/ex/$name.tfrecord.gz") ;;
    *) echo "train.sh: $name: role $role is not trained on" >&2 ;;
  esac
done < "$M"
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n; done
for f in "${train[@]}" "${val[@]}"; do [ -s "$f" ] || { echo "train.sh: $f not made: see ${f%.tfrecord.gz}.log" >&2; exit 1; }; done

FASTPIPE_JAVA_OPTS="${FASTPIPE_JAVA_OPTS:--Xmx$HEAP}" bin/fastpipe train --examples "${train[@]}" --validation "${val[@]}" \
  --output "$OUT" --epochs "$EPOCHS" --batch-size 32 --learning-rate "$LR" --seed "$SEED" --ensemble "$ENSEMBLE" --keep-best-epoch
