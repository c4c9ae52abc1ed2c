#!/usr/bin/env bash
# The exact recipe of models/fastpipe-v1 (see ../MODEL.md). Run from the repository root after
# `mvn -B -q -DskipTests package`. Needs: art_illumina, bwa, samtools, bgzip/tabix, python3
# (Debian: art-nextgen-simulation-tools bwa samtools tabix). Works under $T (outside the repo).
# Never uses ../shared/data/sim30x_eval (evaluation only).
set -euo pipefail
D=${D:-/work/shared/data}
T=${T:-/tmp/fastpipe-train}
R=$D/ref/chr20.fa.gz
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$T/ex"

# 1. Extra simulated samples, same recipe as sim30x (ART HS25, 2x150, 15x per haplotype), new seeds.
bash /work/shared/tools/make_dataset.sh "$T/s11" 11 art 15 150 SIMTRAIN11
BWA_INDEX=$T/s11/bwaidx/chr20.fa bash /work/shared/tools/make_dataset.sh "$T/s13" 13 art 15 150 SIMTRAIN13
# seed 17 with every base quality shifted down by 8 (ART -qs/-qs2 -8): more, lower-quality errors.
sed -e 's#^here=.*#here=/work/shared/tools#' \
    -e 's#-rs $((seed + h)) -na -q#-rs $((seed + h)) -qs -8 -qs2 -8 -na -q#' \
    /work/shared/tools/make_dataset.sh > "$T/make_dataset_qshift.sh"
BWA_INDEX=$T/s11/bwaidx/chr20.fa bash "$T/make_dataset_qshift.sh" "$T/s17q" 17 art 15 150 SIMNOISY17

# 2. Strand-specific, low-quality systematic errors (a real-data error mode ART lacks), 1000 sites
#    per BAM, away from truth variants, so the model sees hom-ref candidates that look like them.
inject() { samtools view -h "$1" | python3 "$here/inject_strand_errors.py" "$R" "$2" chr20 9996000 11094000 1000 "$3" \
           | samtools view -b -o "$4" - && samtools index "$4"; }
inject "$D/sim30x/SIM30X.bam" "$D/sim30x/SIM30X.truth.vcf.gz" 301 "$T/sim30x.strand2.bam"
inject "$T/s11/SIMTRAIN11.bam" "$T/s11/SIMTRAIN11.truth.vcf.gz" 111 "$T/s11/SIMTRAIN11.strand2.bam"
inject "$T/s13/SIMTRAIN13.bam" "$T/s13/SIMTRAIN13.truth.vcf.gz" 113 "$T/s13/SIMTRAIN13.strand2.bam"
inject "$T/s17q/SIMNOISY17.bam" "$T/s17q/SIMNOISY17.truth.vcf.gz" 317 "$T/s17q/strand2.bam"
# 3. Half-coverage (15x) copies: more hets at low allele fractions.
for s in 11 13; do
  samtools view -b -s $((s + 200)).5 -o "$T/s$s/half.strand2.bam" "$T/s$s/SIMTRAIN$s.strand2.bam"
  samtools index "$T/s$s/half.strand2.bam"
done

# 4. Labelled examples. sim30x: chr20:9995001-10900000 trains, chr20:10900001-11095000 validates.
me() { bin/fastpipe make-examples --ref "$R" --reads "$1" --truth-vcf "$2" --confident-bed "$3" --output "$4" "${@:5}"; }
me "$T/sim30x.strand2.bam" "$D/sim30x/SIM30X.truth.vcf.gz" "$D/sim30x/SIM30X.confident.bed" "$T/ex/sim30x.train.strand2.tfrecord.gz" --regions chr20:9995001-10900000
me "$T/sim30x.strand2.bam" "$D/sim30x/SIM30X.truth.vcf.gz" "$D/sim30x/SIM30X.confident.bed" "$T/ex/sim30x.val.strand2.tfrecord.gz" --regions chr20:10900001-11095000
for s in 11 13; do
  me "$T/s$s/SIMTRAIN$s.strand2.bam" "$T/s$s/SIMTRAIN$s.truth.vcf.gz" "$T/s$s/SIMTRAIN$s.confident.bed" "$T/ex/s$s.strand2.tfrecord.gz"
  me "$T/s$s/half.strand2.bam" "$T/s$s/SIMTRAIN$s.truth.vcf.gz" "$T/s$s/SIMTRAIN$s.confident.bed" "$T/ex/s$s.half.strand2.tfrecord.gz"
done
me "$T/s17q/strand2.bam" "$T/s17q/SIMNOISY17.truth.vcf.gz" "$T/s17q/SIMNOISY17.confident.bed" "$T/ex/s17q.strand2.tfrecord.gz"

# 5. Train (3-network ensemble) and export.
bin/fastpipe train \
  --examples "$T/ex/sim30x.train.strand2.tfrecord.gz" "$T/ex/s11.strand2.tfrecord.gz" "$T/ex/s13.strand2.tfrecord.gz" \
             "$T/ex/s17q.strand2.tfrecord.gz" "$T/ex/s11.half.strand2.tfrecord.gz" "$T/ex/s13.half.strand2.tfrecord.gz" \
  --validation "$T/ex/sim30x.val.strand2.tfrecord.gz" \
  --output "$T/fastpipe-v1" --epochs 10 --batch-size 32 --learning-rate 0.002 --seed 1 --ensemble 3
# The SavedModel files only (MODEL.md and recipe/ stay).
rm -rf models/fastpipe-v1/variables
cp -r "$T/fastpipe-v1/saved_model.pb" "$T/fastpipe-v1/variables" models/fastpipe-v1/
