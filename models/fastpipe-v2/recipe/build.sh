#!/usr/bin/env bash
# The exact recipe of models/fastpipe-v2 (see ../MODEL.md). Run from the repository root after
# `mvn -B -q -DskipTests package`. Needs: art_illumina, bwa, samtools, bgzip/tabix, python3
# (Debian: art-nextgen-simulation-tools bwa samtools tabix). Works under $T (outside the repo).
# Never uses ../shared/data/sim30x_eval (evaluation only) nor ../shared/data/na12878_tiny.
set -euo pipefail
D=${D:-/work/shared/data}
T=${T:-/tmp/fastpipe-train}
R=$D/ref/chr20.fa.gz
tools=$(cd "$D/../tools" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$T/ex"

# 1. Extra simulated samples, same recipe as sim30x (ART HS25, 2x150, 15x per haplotype), new seeds.
bash "$tools/make_dataset.sh" "$T/s11" 11 art 15 150 SIMTRAIN11
export BWA_INDEX=$T/s11/bwaidx/chr20.fa
bash "$tools/make_dataset.sh" "$T/s13" 13 art 15 150 SIMTRAIN13
# The same script with the ART profile, quality shift (-qs/-qs2) and fragment size as parameters.
sed -e "s#^here=.*#here=$tools#" \
    -e 's#art_illumina -ss HS25 \(.*\) -m 400 -s 100 -rs $((seed + h)) -na -q#art_illumina -ss ${ART_PROFILE:?} \1 -m ${FRAG_MEAN:?} -s ${FRAG_SD:?} -rs $((seed + h)) -qs ${QSHIFT:?} -qs2 ${QSHIFT:?} -na -q#' \
    "$tools/make_dataset.sh" > "$T/make_dataset_art.sh"
grep -q 'ART_PROFILE' "$T/make_dataset_art.sh" || { echo "make_dataset.sh changed: the sed above no longer applies" >&2; exit 1; }
# art DIR SEED PROFILE QSHIFT FRAG_MEAN FRAG_SD SAMPLE
art() { ART_PROFILE=$3 QSHIFT=$4 FRAG_MEAN=$5 FRAG_SD=$6 bash "$T/make_dataset_art.sh" "$T/$1" "$2" art 15 150 "$7"; }
# seed 17: HiSeq 2500 with every base quality shifted down by 8 (more, lower-quality errors).
art s17q 17 HS25 -8 400 100 SIMNOISY17
# HiSeq X samples (v2): ART's HiSeq X profiles (TruSeq HSXt, PCR-free HSXn), quality shifts 0 to -9
# and fragments N(310, 70), so that the training data spans the base-quality spectrum of
# HiSeq X runs (a sample's fraction of bases under Q25 runs from about 6% at shift 0 to 13% at -9).
art s21 21 HSXt -9 310 70 SIMHSX21
art s23 23 HSXn -6 310 70 SIMHSX23
art s29 29 HSXt 0 310 70 SIMHSX29
art s31 31 HSXt -9 310 70 SIMHSX31
art s41 41 HSXn 0 310 70 SIMHSX41
art s43 43 HSXt -3 310 70 SIMHSX43
art s47 47 HSXn -9 310 70 SIMHSX47
art s53 53 HSXt -6 310 70 SIMHSX53
art s37 37 HSXt -6 310 70 SIMHSX37   # validation only
art s59 59 HSXt -3 310 70 SIMHSX59   # held-out test only (MODEL.md figures), never trained or selected on
# A second held-out test, from another simulator the model never saw (Debian package dwgsim).
if command -v dwgsim >/dev/null; then
  bash "$tools/make_dataset.sh" "$T/d61" 61 dwgsim 15 150 SIMDWG61
  bash "$tools/make_dataset.sh" "$T/d67" 67 dwgsim 15 150 SIMDWG67
fi

# 2. Strand-specific, low-quality systematic errors (a real-data error mode ART lacks), 1000 sites
#    per BAM, away from truth variants, so the model sees hom-ref candidates that look like them.
inject() { samtools view -h "$1" | python3 "$here/inject_strand_errors.py" "$R" "$2" chr20 9996000 11094000 1000 "$3" \
           | samtools view -b -o "$4" - && samtools index "$4"; }
inject "$D/sim30x/SIM30X.bam" "$D/sim30x/SIM30X.truth.vcf.gz" 301 "$T/sim30x.strand2.bam"
inject "$T/s11/SIMTRAIN11.bam" "$T/s11/SIMTRAIN11.truth.vcf.gz" 111 "$T/s11/SIMTRAIN11.strand2.bam"
inject "$T/s13/SIMTRAIN13.bam" "$T/s13/SIMTRAIN13.truth.vcf.gz" 113 "$T/s13/SIMTRAIN13.strand2.bam"
inject "$T/s17q/SIMNOISY17.bam" "$T/s17q/SIMNOISY17.truth.vcf.gz" 317 "$T/s17q/strand2.bam"
for s in 21 23 29 31 37 41 43 47 53; do
  inject "$T/s$s/SIMHSX$s.bam" "$T/s$s/SIMHSX$s.truth.vcf.gz" $((s + 400)) "$T/s$s/strand2.bam"
done
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
for s in 21 23 29 31 37 41 43 47 53; do
  me "$T/s$s/strand2.bam" "$T/s$s/SIMHSX$s.truth.vcf.gz" "$T/s$s/SIMHSX$s.confident.bed" "$T/ex/s$s.hsx.strand2.tfrecord.gz"
done

# 5. Train (3-network ensemble) and export.
bin/fastpipe train \
  --examples "$T/ex/sim30x.train.strand2.tfrecord.gz" "$T/ex/s11.strand2.tfrecord.gz" "$T/ex/s13.strand2.tfrecord.gz" \
             "$T/ex/s17q.strand2.tfrecord.gz" "$T/ex/s11.half.strand2.tfrecord.gz" "$T/ex/s13.half.strand2.tfrecord.gz" \
             "$T"/ex/s{21,23,29,31,41,43,47,53}.hsx.strand2.tfrecord.gz \
  --validation "$T/ex/sim30x.val.strand2.tfrecord.gz" "$T/ex/s37.hsx.strand2.tfrecord.gz" \
  --output "$T/fastpipe-v2" --epochs 10 --batch-size 32 --learning-rate 0.002 --seed 1 --ensemble 3
# The SavedModel files only (MODEL.md and recipe/ stay).
rm -rf models/fastpipe-v2/variables
cp -r "$T/fastpipe-v2/saved_model.pb" "$T/fastpipe-v2/variables" models/fastpipe-v2/
