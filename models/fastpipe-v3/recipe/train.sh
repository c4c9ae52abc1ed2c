#!/usr/bin/env bash
# The training half of models/fastpipe-v3 (see ../MODEL.md): labelled, realigned examples from
# every training and validation sample of build_data.sh's manifest (plus sim30x, as v2), then one
# `fastpipe train` that fits the CNN (one network) and the small model on the same examples.
# Run from the repository root after `mvn -B -q -DskipTests package` and build_data.sh.
# env: T (data, default /work/v3data), D (../shared/data), OUT (model dir, default $T/fastpipe-v3),
#      SEED (training seed, default 1), EPOCHS (default 14; the epoch with the best validation accuracy is kept), LR (default 0.0015),
#      ENSEMBLE (networks trained side by side and averaged, default 1; models/fastpipe-v4 is 3),
#      SKIP_ARTIFACTS (samples with this manifest artifact are left out, default "paralog": see
#      MODEL.md; empty: none).
# Never uses ../shared/data/sim30x_eval (seed 7) nor na12878_tiny, nor the manifest's blind samples.
set -euo pipefail
D=${D:-/work/shared/data}
T=${T:-/work/v3data}
OUT=${OUT:-$T/fastpipe-v3}
SEED=${SEED:-1}
EPOCHS=${EPOCHS:-14}
LR=${LR:-0.0015}
ENSEMBLE=${ENSEMBLE:-1}
SKIP_ARTIFACTS=${SKIP_ARTIFACTS-paralog}
R=$D/ref/chr20.fa.gz
mkdir -p "$T/ex"
[ -f "$T/manifest.tsv" ] || { echo "train.sh: $T/manifest.tsv missing: run build_data.sh first" >&2; exit 2; }

me() { # NAME BAM TRUTH BED [make-examples args...]
  local name=$1 bam=$2 truth=$3 bed=$4; shift 4
  [ -s "$T/ex/$name.tfrecord.gz" ] && return 0
  bin/fastpipe make-examples --ref "$R" --reads "$bam" --truth-vcf "$truth" --confident-bed "$bed" \
    --output "$T/ex/$name.tfrecord.gz" "$@"
}
train=() val=()
# manifest columns: name role simulator profile read_len cov ... bam truth bed (header names them)
while IFS=$'\t' read -r name role bam truth bed artifacts; do
  if [ -n "$SKIP_ARTIFACTS" ] && [[ "$artifacts" == *"$SKIP_ARTIFACTS("* ]]; then
    echo "train.sh: $name left out ($artifacts)" >&2; continue
  fi
  case $role in
    train) me "$name" "$bam" "$truth" "$bed"; train+=("$T/ex/$name.tfrecord.gz") ;;
    validation) me "$name" "$bam" "$truth" "$bed"; val+=("$T/ex/$name.tfrecord.gz") ;;
    blind) ;; # scored once, after the model is frozen: never made into examples here
    *) echo "train.sh: $name: unknown role $role" >&2; exit 2 ;;
  esac
done < <(python3 - "$T/manifest.tsv" <<'PY'
import csv, sys
rows = csv.DictReader(open(sys.argv[1]), delimiter="\t")
for r in rows:
    print("\t".join([r["name"], r["role"], r["bam"], r["truth"], r["bed"], r["artifacts"]]))
PY
)
# sim30x (ART HS25 2x150, the project's first training sample): train on 9,995,001-10,900,000, validate on the rest.
me sim30x.train "$D/sim30x/SIM30X.bam" "$D/sim30x/SIM30X.truth.vcf.gz" "$D/sim30x/SIM30X.confident.bed" --regions chr20:9995001-10900000
me sim30x.val "$D/sim30x/SIM30X.bam" "$D/sim30x/SIM30X.truth.vcf.gz" "$D/sim30x/SIM30X.confident.bed" --regions chr20:10900001-11095000
train+=("$T/ex/sim30x.train.tfrecord.gz"); val+=("$T/ex/sim30x.val.tfrecord.gz")

# The examples are held in memory (about 130 kB each: ~7 GB for ~55,000), hence the heap.
FASTPIPE_JAVA_OPTS="${FASTPIPE_JAVA_OPTS:--Xmx14g}" bin/fastpipe train --examples "${train[@]}" --validation "${val[@]}" --output "$OUT" \
  --epochs "$EPOCHS" --batch-size 32 --learning-rate "$LR" --seed "$SEED" --ensemble "$ENSEMBLE" --keep-best-epoch
