#!/usr/bin/env bash
# Scores the frozen v4 once on the blind samples build_blind.sh made: bin/compare-callers (fastpipe
# v4, bcftools, freebayes), fastpipe with v3 (the model before), and v4 with --no-realign-reads, then
# ../../fastpipe-v3/recipe/realign_effect.py on both v4 VCFs. Run from the repository root.
# usage: score_blind.sh OUTDIR       env: T (blind samples, default /work/blind16), D (../shared/data)
set -euo pipefail
out=$1
D=${D:-/work/shared/data}
T=${T:-/work/blind16}
R=$D/ref/chr20.fa.gz
v3recipe=$(cd "$(dirname "$0")/../../fastpipe-v3/recipe" && pwd)
mkdir -p "$out"
printf 'sample\trealign\tindel_fp\tindel_fp_near_call\ttruth_indels_ge5\tfound_indels_ge5\n' > "$out/realign_effect.tsv"
for name in E461_HS20_100 E463_NS50_75 E465_MSv1_250 E467_DWG_125; do
  bam=$T/$name/$name.bam truth=$T/$name/$name.truth.vcf.gz bed=$T/$name/$name.confident.bed
  echo "== $name"
  bin/compare-callers --ref "$R" --reads "$bam" --truth "$truth" --bed "$bed" --model models/fastpipe-v4 \
    --out "$out/$name" | tee "$out/$name.txt"
  bin/compare-callers --ref "$R" --reads "$bam" --truth "$truth" --bed "$bed" --model models/fastpipe-v3 \
    --skip bcftools,freebayes --out "$out/$name.v3" | tee "$out/$name.v3.txt"
  bin/compare-callers --ref "$R" --reads "$bam" --truth "$truth" --bed "$bed" --model models/fastpipe-v4 \
    --fastpipe-args '--no-realign-reads' --skip bcftools,freebayes --out "$out/$name.norealign" | tee "$out/$name.norealign.txt"
  for v in "on:$out/$name/fastpipe.vcf.gz" "off:$out/$name.norealign/fastpipe.vcf.gz"; do
    printf '%s\t%s\t%s\n' "$name" "${v%%:*}" "$(python3 "$v3recipe/realign_effect.py" "$R" "$truth" "${v#*:}" "$bed")" >> "$out/realign_effect.tsv"
  done
done
cat "$out/realign_effect.tsv"
