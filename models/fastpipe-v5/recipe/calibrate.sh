#!/usr/bin/env bash
# The last step of models/fastpipe-v5 (after train.sh): call every validation BAM of
# manifest-samples.tsv with the trained model and its own GQs (--no-gq-calibration), then
# `fastpipe calibrate` on those calls, which writes MODEL/calibration.json (the GQ map and the
# per-type PASS thresholds). The validation samples are off the evaluation band, never trained on.
# The calls are made with the reads' likelihood COUNTS (fit_counts.sh's best spec; default none;
# the shipped v5: snp=0.5:pileup,indel=0.5:pileup), which calibrate stores beside the GQ map, since
# the map is fitted on calls made with it.
# Run from the repository root.  env: T (default /work/v5data), MODEL (default $T/fastpipe-v5), COUNTS
set -euo pipefail
T=${T:-/work/v5data}
MODEL=${MODEL:-$T/fastpipe-v5}
COUNTS=${COUNTS:-none}
R=$T/bwaidx/20.fa
M=$T/manifest-samples.tsv
out=$T/calibration-calls
mkdir -p "$out"
pairs=$out/pairs.tsv
: > "$pairs.tmp"
while IFS=$'\t' read -r name parent role profile len cov artifact bam truth bed; do
  [ "$role" = validation ] || continue
  bin/fastpipe call --ref "$R" --reads "$bam" --bed "$bed" --model "$MODEL" --no-gq-calibration --count-likelihood "$COUNTS" --no-progress \
    --output "$out/$name.vcf.gz" 2> "$out/$name.log"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$R" "$truth" "$out/$name.vcf.gz" "$bed" "$bam" >> "$pairs.tmp"
done < "$M"
mv "$pairs.tmp" "$pairs"
bin/fastpipe compare --manifest "$pairs" > "$out/before.txt"
bin/fastpipe calibrate --model "$MODEL" --manifest "$pairs" --count-likelihood "$COUNTS"
