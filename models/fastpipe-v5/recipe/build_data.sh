#!/usr/bin/env bash
# Samples for models/fastpipe-v5 (issue 22): every sample of a table (samples.tsv: training and
# validation; blind.tsv: the blind matrix; probe_*.tsv: held-out samples off the band, outside the
# blind matrices' envelope) simulated on the whole GRCh37 chromosome 20 of Debian's
# vt-examples (contig 20), in the table's slice, and aligned with bwa mem against the WHOLE
# chromosome, so that repeats and segmental duplications give low-MAPQ alignments as in real data.
# Each sample is also downsampled to the table's ladder of fractions (samtools view -s), so the
# training data spans 10-60x as DeepVariant's does.
#
# Per sample, under $T/NAME/: NAME.bam (+.bai), NAME.truth.vcf.gz (+.tbi), NAME.confident.bed, and
# for each ladder fraction f: NAME_dF.bam (F = round(100 f)); $T/manifest-TABLE.tsv lists every BAM.
# Training and validation BAMs carry v2's strand-specific low-quality errors (1,000 sites per Mb),
# injected before downsampling; blind and probe BAMs are left as aligned. Only blind samples may lie
# in the evaluation band.
#
# usage: build_data.sh TABLE.tsv                 every sample of the table (skips finished ones)
#        build_data.sh TABLE.tsv sample NAME      one sample
#        build_data.sh TABLE.tsv manifest         only $T/manifest-TABLE.tsv, of the samples built
# env:   T (output, default /work/v5data), JOBS (samples at once, default 2), BWA_THREADS (default 1),
#        VT_REF (default /usr/share/doc/vt/examples/ref/20.fa.gz), BWA_INDEX (default $T/bwaidx/20.fa)
# Needs art_illumina, dwgsim, bwa, samtools, bgzip/tabix, python3 (stdlib only): Debian packages
# vt-examples art-nextgen-simulation-tools dwgsim bwa samtools tabix; for the simulators no training
# sample uses (blind18.tsv), wgsim (samtools' package; its qualities are one constant) and Mason 2
# (seqan-apps' mason_simulator, its default Illumina error model; env MASON) and pIRS (Debian's
# pirs: error profiles measured on real runs, GC bias; env PIRS_PROFILES).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
T=${T:-/work/v5data}
JOBS=${JOBS:-2}
BWA_THREADS=${BWA_THREADS:-1}
VT_REF=${VT_REF:-/usr/share/doc/vt/examples/ref/20.fa.gz}
export BWA_INDEX=${BWA_INDEX:-$T/bwaidx/20.fa}
MASON=${MASON:-/usr/lib/seqan/bin/mason_simulator}
PIRS_PROFILES=${PIRS_PROFILES:-/usr/share/pirs/Base-Calling_Profiles}
tools=$(cd "$here/../../../../shared/tools" 2>/dev/null && pwd || echo /work/shared/tools)
v2=$(cd "$here/../../fastpipe-v2/recipe" && pwd)
v3=$(cd "$here/../../fastpipe-v3/recipe" && pwd)
CONTIG=20
BAND_LO=9000000 BAND_HI=12000000   # the evaluation band: never a training or validation sample
STRAND_SITES_PER_MB=1000
STUTTER_RATE=0.15

die() { echo "build_data.sh: $*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: build_data.sh TABLE.tsv [sample NAME | manifest]"
TABLE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -f "$TABLE" ] || die "$1: no such table"
rows() { grep -v '^#' "$TABLE" | grep -v '^[[:space:]]*$'; }

art_reads() { # FASTA SEED PROFILE LEN COV FRAG SD QSHIFT PREFIX [extra]
  art_illumina -ss "$3" -i "$1" -p -l "$4" -f "$5" -m "$6" -s "$7" -qs "$8" -qs2 "$8" -rs "$2" -q -o "$9" "${@:10}" >/dev/null
}

sample() {
  local name=$1 role start end sim prof len cov fm fs q art seed ladder
  IFS=$'\t' read -r _ role start end sim prof len cov fm fs q art seed ladder < <(rows | awk -F'\t' -v n="$name" '$1 == n') \
    || die "no sample $name in $TABLE"
  [ "$seed" != 7 ] || die "$name: seed 7 is sim30x_eval's"
  if [ "$role" != blind ] && [ "$end" -ge "$BAND_LO" ] && [ "$start" -le "$BAND_HI" ]; then
    die "$name: $role sample overlaps the evaluation band $CONTIG:$BAND_LO-$BAND_HI"
  fi
  local dir=$T/$name
  if [ -f "$dir/done" ]; then echo "$name: done already" >&2; return; fi
  local t0=$SECONDS
  rm -rf "$dir"; mkdir -p "$dir"; cd "$dir"
  # Haplotypes and truth (no known variants: the known zone 0-0 is empty).
  python3 "$tools/simulate_sample.py" "$VT_REF" "$CONTIG" "$start" "$end" "$tools/../data/ref/giab_chr20_10mb_100kb.vcf.gz" \
    0 0 "$seed" "$name" 2>sim.log
  bgzip -f "$name.truth.vcf"; tabix -f -p vcf "$name.truth.vcf.gz"
  printf '%s\t%d\t%d\n' "$CONTIG" $((start + 999)) $((end - 1000)) > "$name.confident.bed"
  local h
  for h in 1 2; do
    if [ "$sim" = art ]; then
      if [ "$art" = stutter ]; then
        art_reads "$name.hap$h.fa" $((seed + h)) "$prof" "$len" "$cov" "$fm" "$fs" "$q" "r$h." -sam -na 2>/dev/null
      else
        art_reads "$name.hap$h.fa" $((seed + h)) "$prof" "$len" "$cov" "$fm" "$fs" "$q" "r$h." -na
      fi
    elif [ "$sim" = pirs ]; then
      # pIRS: substitution errors and qualities from a base-calling profile measured on real runs
      # (PROFILE is its name under /usr/share/pirs/Base-Calling_Profiles, e.g. humNew.PE100: 2x100
      # at most), indel errors from its phiX profile, and GC coverage bias, which no other
      # simulator here models. One thread, so that the seed makes the reads. PROFILE/ALGO picks
      # pIRS's substitution algorithm (default qtrans): the 1000 Genomes profiles (HG00513.PE76,
      # HG00702.PE91) need dist, since with qtrans they give 9 % errors at Q32 (their own runs had
      # 0.06-0.27 %).
      local algo=qtrans
      case $prof in */*) algo=${prof#*/} ;; esac
      pirs simulate -l "$len" -x "$cov" -m "$fm" -v "$fs" -S $((seed + h)) -t 1 -q -A "$algo" \
        -B "$PIRS_PROFILES/${prof%%/*}.matrix.gz" -o "r$h" "$name.hap$h.fa" >/dev/null 2>&1
      sed "1~4s/^@/@hap$h./" "r${h}_${len}_${fm}_1.fq" > "r$h.1.fq"
      sed "1~4s/^@/@hap$h./" "r${h}_${len}_${fm}_2.fq" > "r$h.2.fq"
      rm -f "r${h}_${len}_${fm}"_[12].fq "r${h}_${len}_${fm}".*
    elif [ "$sim" = wgsim ] || [ "$sim" = mason ]; then
      # Read pairs for COV x of this haplotype; wgsim's -d is the outer distance (the fragment).
      local pairs; pairs=$(awk -v c="$cov" -v n="$(grep -v '>' "$name.hap$h.fa" | tr -d '\n' | wc -c)" -v l="$len" \
        'BEGIN {printf "%d", c * n / (2 * l) + 0.5}')
      if [ "$sim" = wgsim ]; then
        wgsim -e "$q" -d "$fm" -s "$fs" -N "$pairs" -1 "$len" -2 "$len" -r 0 -R 0 -S $((seed + h)) \
          "$name.hap$h.fa" "r$h.1.fq" "r$h.2.fq" >/dev/null 2>&1
        sed -i "1~4s/^@/@hap$h./" "r$h.1.fq" "r$h.2.fq" # the two haplotypes' runs name reads alike
      else
        "$MASON" -ir "$name.hap$h.fa" -n "$pairs" --seed $((seed + h)) --illumina-read-length "$len" \
          --fragment-mean-size "$fm" --fragment-size-std-dev "$fs" --read-name-prefix "hap$h." -o "r$h.1.fq" -or "r$h.2.fq" -q >/dev/null 2>&1
      fi
    else
      dwgsim -e "$q" -E "$q" -d "$fm" -s "$fs" -C "$cov" -1 "$len" -2 "$len" -r 0 -z $((seed + h)) "$name.hap$h.fa" "r$h" >/dev/null 2>&1
      mv "r$h.bwa.read1.fastq.gz" "r$h.1.fq.gz" 2>/dev/null || mv "r$h.bwa.read1.fastq" "r$h.1.fq"
      mv "r$h.bwa.read2.fastq.gz" "r$h.2.fq.gz" 2>/dev/null || mv "r$h.bwa.read2.fastq" "r$h.2.fq"
      if [ -f "r$h.1.fq.gz" ]; then gunzip -f "r$h.1.fq.gz" "r$h.2.fq.gz"; fi
    fi
  done
  case $art in
    stutter)
      python3 "$v3/stutter.py" "$STUTTER_RATE" $((seed + 3)) R1.fq R2.fq \
        "$name.hap1.fa" r1..sam r1.1.fq r1.2.fq "$name.hap2.fa" r2..sam r2.1.fq r2.2.fq 2>stutter.log ;;
    -) cat r1.1.fq r2.1.fq > R1.fq; cat r1.2.fq r2.2.fq > R2.fq ;;
    binned) # the four quality bins of NovaSeq-era instruments (2, 12, 23, 37), which no simulator writes
      cat r1.1.fq r2.1.fq | python3 "$here/bin_qualities.py" > R1.fq
      cat r1.2.fq r2.2.fq | python3 "$here/bin_qualities.py" > R2.fq ;;
    *) die "$name: unknown artifact $art" ;;
  esac
  bwa mem -t "$BWA_THREADS" -R "@RG\tID:$name\tSM:$name\tPL:ILLUMINA" "$BWA_INDEX" R1.fq R2.fq 2>bwa.log \
    | samtools sort -o "$name.raw.bam" - 2>/dev/null
  if [ "$role" = blind ] || [ "$role" = probe ]; then
    mv "$name.raw.bam" "$name.bam"
  else
    local sites=$(( (end - start + 1) * STRAND_SITES_PER_MB / 1000000 ))
    samtools view -h "$name.raw.bam" \
      | python3 "$v2/inject_strand_errors.py" "$VT_REF" "$name.truth.vcf.gz" "$CONTIG" $((start + 999)) $((end - 1000)) \
          "$sites" $((seed + 400)) \
      | samtools view -b -o "$name.bam" -
    rm -f "$name.raw.bam"
  fi
  samtools index "$name.bam"
  # The coverage ladder: copies at each fraction, seed s+10+k (samtools view -s SEED.FRACTION).
  local k=0 f
  for f in ${ladder//,/ }; do
    [ "$f" = - ] && continue
    local tag; tag=$(awk -v f="$f" 'BEGIN {printf "%d", f * 100 + 0.5}')
    samtools view -b -s "$((seed + 10 + k))${f#0}" -o "${name}_d$tag.bam" "$name.bam"
    samtools index "${name}_d$tag.bam"
    k=$((k + 1))
  done
  rm -f r1.* r2.* r1..sam r2..sam R1.fq R2.fq "$name.hap1.fa" "$name.hap2.fa"
  echo "$name	$((SECONDS - t0))" > seconds
  touch done
  echo "$name: $((SECONDS - t0)) s" >&2
}

manifest() {
  local out=$T/manifest-$(basename "$TABLE" .tsv).tsv m
  m=$out.tmp
  printf 'name\tparent\trole\tprofile\tread_length\tcoverage\tartifact\tbam\ttruth\tbed\n' > "$m"
  local name role start end sim prof len cov fm fs q art seed ladder
  while IFS=$'\t' read -r name role start end sim prof len cov fm fs q art seed ladder; do
    [ "${BUILT_ONLY:-0}" = 1 ] && [ ! -f "$T/$name/done" ] && continue
    local p="$sim:$prof"; [ "$sim" = dwgsim ] && p="dwgsim:$q"; [ "$sim" = wgsim ] && p="wgsim:$q"
    local d=$T/$name
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$name" "$role" "$p" "$len" \
      "$(awk -v c="$cov" 'BEGIN {printf "%g", 2 * c}')" "$art" "$d/$name.bam" "$d/$name.truth.vcf.gz" "$d/$name.confident.bed" >> "$m"
    local f
    for f in ${ladder//,/ }; do
      [ "$f" = - ] && continue
      local tag; tag=$(awk -v f="$f" 'BEGIN {printf "%d", f * 100 + 0.5}')
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${name}_d$tag" "$name" "$role" "$p" "$len" \
        "$(awk -v c="$cov" -v f="$f" 'BEGIN {printf "%.0f", 2 * c * f}')" "$art" "$d/${name}_d$tag.bam" \
        "$d/$name.truth.vcf.gz" "$d/$name.confident.bed" >> "$m"
    done
  done < <(rows)
  mv "$m" "$out"
  echo "$out"
}

bwa_index() { # the whole chromosome's index, built once (a sample alone needs it too)
  [ -f "$BWA_INDEX.bwt" ] && return
  mkdir -p "$(dirname "$BWA_INDEX")"; zcat "$VT_REF" > "$BWA_INDEX"; samtools faidx "$BWA_INDEX"
  bwa index "$BWA_INDEX" >/dev/null 2>&1
}

if [ "${2:-}" = sample ]; then bwa_index; sample "$3"; exit; fi
if [ "${2:-}" = manifest ]; then BUILT_ONLY=1 manifest; exit; fi
[ $# -eq 1 ] || die "usage: build_data.sh TABLE.tsv [sample NAME | manifest]"
mkdir -p "$T"
bwa_index
t0=$SECONDS
rows | cut -f1 | xargs -P "$JOBS" -I{} bash "$0" "$TABLE" sample {}
manifest
echo "build_data.sh: $(basename "$TABLE"): all samples in $((SECONDS - t0)) s" >&2
