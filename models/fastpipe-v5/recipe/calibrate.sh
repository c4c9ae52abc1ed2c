#!/usr/bin/env bash
# The last step of models/fastpipe-v5 (after train.sh): call every off-band validation BAM with the
# trained model and its own GQs (--no-gq-calibration), then `fastpipe calibrate` on those calls,
# which writes MODEL/calibration.json (the GQ map and the per-type PASS thresholds). The validation
# samples are off the evaluation band, never trained on: the validation rows of samples.tsv, and
# indel_fit.tsv, validation2.tsv and validation3.tsv (build_data.sh of each first; validation3 since
# 2026-12-03's blind26, the simulators validation lacked). Samples whose artifact is
# `stutter` (indel_fit's F2521, PCR stutter on 15 % of STR fragments) are left out unless
# STUTTER=1: one GQ map cannot serve both, and with them every indel GQ above 30 fell to 17-21
# (MODEL.md, "GQ calibration"). Since 2026-12-03 (before: samples.tsv's 8 validation BAMs only).
# The calls are made with the reads' likelihood COUNTS (fit_counts.sh's best spec; default none;
# the shipped v5's map was fitted at snp=0.5:pileup,indel=0.5:pileup), which calibrate stores beside
# the GQ map, since the map is fitted on calls made with it. The shipped calibration.json's indel weight
# within the envelope (indel=0.5:pileup:0.85, 2026-12-07) was set after that fit, the map kept
# (MODEL.md, "The indel pileup's weight follows the sample's envelope").
# Run from the repository root.  env: T (default /work/v5data), MODEL (default $T/fastpipe-v5), COUNTS,
#   MANIFESTS (default: the three manifests above), STUTTER (default 0), CALLS (where the validation
#   calls go; default $T/calibration-calls: fits of several COUNTS side by side each need their own)
set -euo pipefail
T=${T:-/work/v5data}
MODEL=${MODEL:-$T/fastpipe-v5}
COUNTS=${COUNTS:-none}
R=$T/bwaidx/20.fa
MANIFESTS=${MANIFESTS:-$T/manifest-samples.tsv $T/manifest-indel_fit.tsv $T/manifest-validation2.tsv $T/manifest-validation3.tsv}
STUTTER=${STUTTER:-0}
for m in $MANIFESTS; do [ -f "$m" ] || { echo "calibrate.sh: $m missing: run build_data.sh on its table first" >&2; exit 2; }; done
out=${CALLS:-$T/calibration-calls}
mkdir -p "$out"
pairs=$out/pairs.tsv
: > "$pairs.tmp"
cat $MANIFESTS | while IFS=$'\t' read -r name parent role profile len cov artifact bam truth bed; do
  [ "$role" = validation ] || continue
  [ "$artifact" = stutter ] && [ "$STUTTER" != 1 ] && continue
  bin/fastpipe call --ref "$R" --reads "$bam" --bed "$bed" --model "$MODEL" --no-gq-calibration --count-likelihood "$COUNTS" --no-progress \
    --output "$out/$name.vcf.gz" 2> "$out/$name.log"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$R" "$truth" "$out/$name.vcf.gz" "$bed" "$bam" >> "$pairs.tmp"
done
mv "$pairs.tmp" "$pairs"
bin/fastpipe compare --manifest "$pairs" > "$out/before.txt"
bin/fastpipe calibrate --model "$MODEL" --manifest "$pairs" --count-likelihood "$COUNTS"
