#!/usr/bin/env bash
# Fits the reads' likelihood of the model's calibration (AlleleCountLikelihood: per type a weight W
# and a per-read error E for the read counts, or a weight W of the pileup's per-read likelihoods,
# snp=W:pileup, indel=W:pileup) on the validation samples of manifest-samples.tsv, before calibrate.sh:
# every validation BAM is called with the raw model (--no-gq-calibration) and each spec
# (--count-likelihood SPEC), and `fastpipe compare --manifest` scores the pooled calls.
# Prints one line per spec and type (SNP part, indel part, type, pooled TP FP FN F1) and, last, the
# spec with the best pooled F1 per type (ties: the first spec tried, so list smaller weights first),
# for calibrate.sh's COUNTS. The validation samples are off the evaluation band and never trained on.
# Run from the repository root.
# env: T (default /work/v5data), MODEL (default models/fastpipe-v5), FIT_DIR (default $T/counts-fit),
#      SPECS (the specs to try, space-separated; default: the grid WEIGHTS x ERRORS of read counts for
#      both types, snp=W:E,indel=W:E), e.g. the SNP pileup weights beside a fixed indel part:
#      SPECS="snp=0:0.005,indel=0.5:0.005 snp=0.25:pileup,indel=0.5:0.005 snp=0.5:pileup,indel=0.5:0.005"
set -euo pipefail
T=${T:-/work/v5data}
MODEL=${MODEL:-models/fastpipe-v5}
WEIGHTS=${WEIGHTS:-"0 0.1 0.2 0.35 0.5 0.75 1"}
ERRORS=${ERRORS:-"0.01 0.03"}
R=$T/bwaidx/20.fa
M=$T/manifest-samples.tsv
out=${FIT_DIR:-$T/counts-fit}
mkdir -p "$out"
table=$out/grid.tsv
touch "$table" # specs of earlier runs stay (a rerun of one replaces its rows)
if [ -z "${SPECS:-}" ]; then
  SPECS=""
  for w in $WEIGHTS; do
    for e in $ERRORS; do
      [ "$w" = 0 ] && [ "$e" != "${ERRORS%% *}" ] && continue # weight 0 is the same for every E
      SPECS="$SPECS snp=$w:$e,indel=$w:$e"
    done
  done
fi
part() { # SPEC TYPE: the spec's part for snp or indel, "off" when it has none
  local p; p=$(echo "$1" | sed -n "s/.*$2=\([^,]*\).*/\1/p"); echo "${p:-off}"
}
for spec in $SPECS; do
  snp=$(part "$spec" snp)
  indel=$(part "$spec" indel)
  d=$out/$(echo "$spec" | tr ',:=' '_-_')
  mkdir -p "$d"
  pairs=$d/pairs.tsv
  : > "$pairs.tmp"
  while IFS=$'\t' read -r name parent role profile len cov artifact bam truth bed; do
    [ "$role" = validation ] || continue
    [ -s "$d/$name.vcf.gz" ] || bin/fastpipe call --ref "$R" --reads "$bam" --bed "$bed" --model "$MODEL" \
      --no-gq-calibration --count-likelihood "$spec" --no-progress --no-journal --output "$d/$name.vcf.gz" 2> "$d/$name.log"
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$R" "$truth" "$d/$name.vcf.gz" "$bed" >> "$pairs.tmp"
  done < "$M"
  mv "$pairs.tmp" "$pairs"
  bin/fastpipe compare --manifest "$pairs" > "$d/compare.txt"
  # the pooled rows: type truth TP FP FN precision recall F1
  { awk -v s="$snp" -v i="$indel" '!($1==s && $2==i)' "$table"
    awk -v s="$snp" -v i="$indel" 'p && ($1=="SNP" || $1=="INDEL") {print s"\t"i"\t"$1"\t"$3"\t"$4"\t"$5"\t"$8} /^pooled/ {p=1}' \
      "$d/compare.txt" | tee -a /dev/stderr; } > "$table.tmp"
  mv "$table.tmp" "$table"
done
# The best part per type among the specs of this run, in the order tried (the first of equal F1s).
best() { # TYPE COLUMN
  for spec in $SPECS; do
    local p; p=$(part "$spec" "$2")
    awk -v t="$1" -v c="$2" -v p="$p" -F'\t' '$3==t && ((c=="snp" && $1==p) || (c=="indel" && $2==p)) {print $7"\t"p; exit}' "$table"
  done | awk -F'\t' '$1 > f || f == "" {f=$1; p=$2} END {print p}'
}
echo "best: snp=$(best SNP snp),indel=$(best INDEL indel)"
