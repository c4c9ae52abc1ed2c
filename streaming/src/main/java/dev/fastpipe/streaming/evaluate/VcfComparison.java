package dev.fastpipe.streaming.evaluate;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.Plural;
import dev.fastpipe.streaming.genome.BedFile;
import dev.fastpipe.streaming.genome.BedInterval;
import dev.fastpipe.streaming.genome.FileFormat;
import dev.fastpipe.streaming.genome.ReferenceIndex;
import dev.fastpipe.streaming.genome.TextInput;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.samtools.reference.ReferenceSequence;
import htsjdk.samtools.reference.ReferenceSequenceFile;
import htsjdk.samtools.reference.ReferenceSequenceFileFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Precision, recall and F1 of a calls VCF against a truth VCF inside a BED, SNPs and indels apart,
 * with the semantics of the project's evaluator {@code shared/tools/vcf_compare.py} (which pipes
 * both files through {@code bcftools view -T BED | norm -m -any -a -f REF | norm -m -any -f REF |
 * norm -d exact}), re-implemented here so that {@code fastpipe demo} needs no external tools:
 *
 * <ol>
 *   <li>records whose FILTER is not PASS or "." are dropped; a record without a sample or GT
 *       counts as 0/1; only the first sample's GT is read;
 *   <li>records whose POS lies inside a BED interval are kept (bcftools' {@code -T}: POS, before
 *       normalisation);
 *   <li>each record is atomised as bcftools 1.16 {@code norm -a} does (greedy, no alignment: trim the
 *       common suffix, then split into SNVs and indels, an indel right after a SNV staying in the
 *       SNV's record as in C>GGG; atoms of different ALTs that
 *       overlap get a "*" allele), split into biallelic records, and left-aligned and trimmed
 *       against the reference; REF must match the reference;
 *   <li>exact duplicates (same position, REF and ALT) keep the first; records whose genotype
 *       carries the allele zero times are ignored, and so are "*" records (the overlapping-deletion
 *       alleles that atomising makes, or that a VCF carries itself): they are no variant of their
 *       own, and hap.py and vcfeval do not count them either;
 *   <li>a call is a TP when (chrom, pos, REF, ALT) is in the truth with the same number of copies
 *       of the allele in the genotype (hap.py's genotype match); an allele match with the wrong
 *       genotype counts as one FP and one FN; with {@code allelesOnly} the genotype is ignored;
 *   <li>SNP = REF and ALT of one base each after normalisation; everything else is an INDEL.
 * </ol>
 *
 * <p>{@link #evaluate} also scores every call and truth site one by one for {@link Calibration}: each
 * normalised call keeps the GQ and depth (FORMAT DP, else INFO DP) of the record it came from.
 */
public final class VcfComparison {

  /** Counts for one variant kind. */
  public record Counts(String kind, int truth, int tp, int fp, int fn) {
    public double precision() {
      return tp + fp == 0 ? 0 : tp / (double) (tp + fp);
    }

    public double recall() {
      return tp + fn == 0 ? 0 : tp / (double) (tp + fn);
    }

    public double f1() {
      double p = precision();
      double r = recall();
      return p + r == 0 ? 0 : 2 * p * r / (p + r);
    }

    /** The counts as vcf_compare.py --json writes them: truth, tp, fp, fn, precision, recall, f1. */
    public Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("truth", truth);
      m.put("tp", tp);
      m.put("fp", fp);
      m.put("fn", fn);
      m.put("precision", precision());
      m.put("recall", recall());
      m.put("f1", f1());
      return m;
    }

    /** One line in vcf_compare.py's format. */
    public String line() {
      return String.format(Locale.ROOT, "%-6s truth=%5d tp=%5d fp=%4d fn=%4d P=%.4f R=%.4f F1=%.4f",
          kind, truth, tp, fp, fn, precision(), recall(), f1());
    }
  }

  /** The comparison's result: SNPs and indels. */
  public record Result(Counts snp, Counts indel) {
    /** The counts of several comparisons added up. */
    public static Result pooled(List<Result> results) {
      int[] s = new int[4];
      int[] i = new int[4];
      for (Result r : results) {
        add(s, r.snp());
        add(i, r.indel());
      }
      return new Result(new Counts("SNP", s[0], s[1], s[2], s[3]), new Counts("INDEL", i[0], i[1], i[2], i[3]));
    }

    private static void add(int[] sum, Counts c) {
      sum[0] += c.truth();
      sum[1] += c.tp();
      sum[2] += c.fp();
      sum[3] += c.fn();
    }

    /** A small aligned table for terminals. */
    public String table() {
      StringBuilder sb = new StringBuilder();
      sb.append(String.format(Locale.ROOT, "%-6s %7s %7s %6s %6s %9s %7s %7s%n",
          "type", "truth", "TP", "FP", "FN", "precision", "recall", "F1"));
      for (Counts c : List.of(snp, indel)) {
        sb.append(String.format(Locale.ROOT, "%-6s %7d %7d %6d %6d %9.4f %7.4f %7.4f%n",
            c.kind(), c.truth(), c.tp(), c.fp(), c.fn(), c.precision(), c.recall(), c.f1()));
      }
      return sb.toString();
    }
  }

  /** A normalised biallelic record: where, which alleles. */
  record Key(String chrom, int pos, String ref, String alt) {
    boolean isSnp() {
      return ref.length() == 1 && alt.length() == 1;
    }

    Locus locus() {
      return new Locus(chrom, pos);
    }
  }

  /** A 1-based position on a contig. */
  record Locus(String chrom, int pos) {}

  /** What a normalised record carries: ALT copies in its GT, and its source record's GQ and depth (-1: none). */
  record Site(int copies, int gq, int depth) {}

  /**
   * One normalised PASS call inside the regions: its kind, GQ (-1: none), depth (-1: unknown),
   * whether it counts as a TP in this comparison's mode ({@code matched}; with alleles-only the
   * genotype is ignored) and whether its genotype is the truth's ({@code genotypeRight}: the
   * allele is in the truth with the same number of copies).
   */
  public record ScoredCall(boolean snp, int gq, int depth, boolean matched, boolean genotypeRight) {}

  /** One normalised truth site inside the regions: its kind, depth (-1: unknown) and whether a call matched it (a TP). */
  public record ScoredTruth(boolean snp, int depth, boolean found) {}

  /** Where the depths of an {@link Evaluation} come from. */
  public enum DepthSource {
    /** reads of a BAM/CRAM counted at each site ({@link SiteDepths}) */
    READS,
    /** the calls' FORMAT DP (else INFO DP); a truth site takes the depth of a call at its position */
    CALLS
  }

  /** {@link #compare}'s counts, and every call and truth site scored for {@link Calibration}. */
  public record Evaluation(Result counts, List<ScoredCall> calls, List<ScoredTruth> truth, DepthSource depthSource) {}

  private static final int ALIGN_WINDOW = 100; // bcftools norm's realignment padding

  /** VCF's allele for "this haplotype is deleted by an overlapping variant". */
  private static final String SPANNING_DELETION = "*";

  private VcfComparison() {}

  /**
   * Compares {@code calls} against {@code truth} inside {@code bed} (null: everywhere), both
   * normalised against {@code reference} (FASTA, plain or bgzipped, with .fai, and .gzi when
   * bgzipped; its contigs as {@link ReferenceIndex} reads them).
   */
  public static Result compare(Path reference, Path truth, Path calls, Path bed, boolean allelesOnly) {
    return evaluate(reference, truth, calls, bed, null, allelesOnly).counts();
  }

  /**
   * {@link #compare}, with every call and truth site scored. Depths come from {@code reads} (a
   * BAM/CRAM, indexed; {@link SiteDepths}) when it is not null, else from the calls (see
   * {@link DepthSource#CALLS}): a truth site with no call at its position then has no depth (-1).
   */
  public static Evaluation evaluate(Path reference, Path truth, Path calls, Path bed, Path reads, boolean allelesOnly) {
    SAMSequenceDictionary contigs = ReferenceIndex.dictionary(reference);
    Map<Key, Site> t;
    Map<Key, Site> q;
    try (ReferenceSequenceFile file = openReference(reference)) {
      Reference ref = new Reference(file, contigs);
      Map<String, List<BedInterval>> regions = bed == null ? null : readBed(bed, contigs, reference);
      t = load(ref, reference, truth, regions);
      q = load(ref, reference, calls, regions);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Result counts = new Result(count("SNP", t, q, true, allelesOnly), count("INDEL", t, q, false, allelesOnly));
    Map<Locus, Integer> readDepth = null;
    if (reads != null) {
      Set<Locus> loci = new HashSet<>();
      for (Key k : t.keySet()) loci.add(k.locus());
      for (Key k : q.keySet()) loci.add(k.locus());
      readDepth = SiteDepths.count(reference, reads, loci);
    }
    Map<Locus, Integer> callDepthAt = new HashMap<>(); // the first call's depth at each position
    for (Map.Entry<Key, Site> e : q.entrySet()) {
      if (e.getValue().depth() >= 0) callDepthAt.putIfAbsent(e.getKey().locus(), e.getValue().depth());
    }
    List<ScoredCall> scoredCalls = new ArrayList<>(q.size());
    for (Map.Entry<Key, Site> e : q.entrySet()) {
      Site tv = t.get(e.getKey());
      boolean right = tv != null && tv.copies() == e.getValue().copies();
      int depth = readDepth != null ? readDepth.get(e.getKey().locus()) : e.getValue().depth();
      scoredCalls.add(new ScoredCall(e.getKey().isSnp(), e.getValue().gq(), depth, tv != null && (allelesOnly || right), right));
    }
    List<ScoredTruth> scoredTruth = new ArrayList<>(t.size());
    for (Map.Entry<Key, Site> e : t.entrySet()) {
      Site qv = q.get(e.getKey());
      boolean found = qv != null && (allelesOnly || qv.copies() == e.getValue().copies());
      int depth = readDepth != null ? readDepth.get(e.getKey().locus()) : callDepthAt.getOrDefault(e.getKey().locus(), -1);
      if (readDepth == null && qv != null && qv.depth() >= 0) depth = qv.depth(); // the matching call's own
      scoredTruth.add(new ScoredTruth(e.getKey().isSnp(), depth, found));
    }
    return new Evaluation(counts, List.copyOf(scoredCalls), List.copyOf(scoredTruth),
        reads != null ? DepthSource.READS : DepthSource.CALLS);
  }

  private static Counts count(String kind, Map<Key, Site> truth, Map<Key, Site> calls, boolean snp,
      boolean allelesOnly) {
    int nTruth = 0;
    for (Key k : truth.keySet()) if (k.isSnp() == snp) nTruth++;
    int nCalls = 0;
    int tp = 0;
    for (Map.Entry<Key, Site> e : calls.entrySet()) {
      if (e.getKey().isSnp() != snp) continue;
      nCalls++;
      Site tv = truth.get(e.getKey());
      if (tv != null && (allelesOnly || tv.copies() == e.getValue().copies())) tp++;
    }
    return new Counts(kind, nTruth, tp, nCalls - tp, nTruth - tp);
  }

  // ---------------------------------------------------------------------------------------------

  private static ReferenceSequenceFile openReference(Path reference) {
    try {
      return ReferenceSequenceFileFactory.getReferenceSequenceFile(reference, true, true);
    } catch (RuntimeException e) {
      throw new InputException(reference + ": cannot open the reference: " + e.getMessage());
    }
  }

  /** BED intervals by contig; each must lie on a contig of the reference (a BED of another one is an error). */
  private static Map<String, List<BedInterval>> readBed(Path bed, SAMSequenceDictionary contigs, Path reference) {
    Map<String, List<BedInterval>> out = new HashMap<>();
    for (BedInterval iv : BedFile.read(bed)) {
      iv.contigIn(contigs, reference.toString());
      out.computeIfAbsent(iv.contig(), c -> new ArrayList<>()).add(iv);
    }
    return out;
  }

  /** bcftools' {@code -T}: is the 1-based POS inside one of the intervals? */
  private static boolean inRegions(Map<String, List<BedInterval>> regions, String chrom, int pos) {
    if (regions == null) return true;
    List<BedInterval> list = regions.get(chrom);
    if (list == null) return false;
    for (BedInterval iv : list) if (pos > iv.start() && pos <= iv.end()) return true;
    return false;
  }

  /** Reads, filters, atomises, splits and normalises one VCF: normalised record -> allele copies, GQ and depth. */
  static Map<Key, Site> load(Reference ref, Path refPath, Path vcf, Map<String, List<BedInterval>> regions) {
    List<Loaded> recs = new ArrayList<>();
    boolean[] header = new boolean[2]; // ##fileformat=VCF seen first; #CHROM seen
    TextInput.forEachLine(vcf, "VCF", (n, line) -> {
      if (n == 1 && !line.startsWith("##fileformat=VCF")) {
        throw new InputException(vcf + ": not a VCF: its first line is not ##fileformat=VCFv4.x (it starts with \""
            + FileFormat.printable(FileFormat.head(vcf, 16), 16) + "\")");
      }
      header[0] = true;
      if (line.startsWith("#CHROM")) header[1] = true;
      if (line.startsWith("#") || line.isEmpty()) return;
      if (!header[1]) throw new InputException(vcf + ": line " + n + ": a record before the #CHROM header line: not a VCF");
      String[] f = line.split("\t", -1);
      if (f.length < 8) {
        throw new InputException(vcf + ": line " + n + ": " + f.length + " tab-separated columns, a VCF record has at least 8");
      }
      if (!f[6].equals("PASS") && !f[6].equals(".")) return;
      String gt = firstSampleGt(f);
      if (gt == null) gt = "0/1";
      int gq = -1;
      int depth = -1;
      if (f.length >= 10) {
        List<String> format = Arrays.asList(f[8].split(":"));
        String[] sample = f[9].split(":", -1);
        gq = wholeNumber(formatValue(format, sample, "GQ", "."));
        depth = wholeNumber(formatValue(format, sample, "DP", "."));
      }
      if (depth < 0) depth = wholeNumber(infoValue(f[7], "DP"));
      int pos;
      try {
        pos = Integer.parseInt(f[1]);
      } catch (NumberFormatException e) {
        throw new InputException(vcf + ": line " + n + ": POS '" + f[1] + "' is not a number");
      }
      if (ref.contigs().getSequence(f[0]) == null) throw new InputException(vcf + ": line " + n + ": contig '" + f[0] + "' is not in " + refPath);
      if (!inRegions(regions, f[0], pos)) return;
      List<String> alleles = new ArrayList<>();
      alleles.add(f[3].toUpperCase(Locale.ROOT));
      if (!f[4].equals(".")) for (String a : f[4].split(",")) alleles.add(a.toUpperCase(Locale.ROOT));
      int[] gtAlleles = parseGenotype(vcf, n, gt, alleles.size());
      for (Normalised rec : atomiseAndSplit(f[0], pos - 1, alleles, gtAlleles)) {
        recs.add(new Loaded(realign(ref, vcf, rec), gq, depth));
      }
    });
    if (!header[0]) throw new InputException(vcf + ": empty file, not a VCF");
    if (!header[1]) throw new InputException(vcf + ": no #CHROM header line: not a VCF");
    // bcftools keeps records sorted by position (stable), then norm -d exact keeps the first
    recs.sort(Comparator.comparingInt(l -> l.rec().pos0())); // List.sort is stable
    Map<Key, Site> out = new LinkedHashMap<>();
    Set<Key> seen = new HashSet<>();
    for (Loaded l : recs) {
      Normalised rec = l.rec();
      Key k = new Key(rec.chrom, rec.pos0 + 1, rec.ref, rec.alt);
      if (!seen.add(k)) continue;
      if (rec.copies > 0 && !rec.alt.equals(SPANNING_DELETION)) out.put(k, new Site(rec.copies, l.gq(), l.depth()));
    }
    return out;
  }

  /** A normalised record with its source record's GQ and depth. */
  private record Loaded(Normalised rec, int gq, int depth) {}

  /** The sample's value of FORMAT key {@code key}, or {@code missing}. */
  private static String formatValue(List<String> format, String[] sample, String key, String missing) {
    int idx = format.indexOf(key);
    return idx >= 0 && idx < sample.length ? sample[idx] : missing;
  }

  /** The value of INFO key {@code key}, or null. */
  private static String infoValue(String info, String key) {
    for (String kv : info.split(";")) {
      if (kv.startsWith(key + "=")) return kv.substring(key.length() + 1);
    }
    return null;
  }

  /** A non-negative number rounded down (GQ may be written as a float), or -1 when missing or not a number. */
  private static int wholeNumber(String s) {
    if (s == null || s.isEmpty() || s.equals(".")) return -1;
    try {
      double d = Double.parseDouble(s);
      return d >= 0 && d < Integer.MAX_VALUE ? (int) Math.floor(d) : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The first sample's GT in the fields {@code f} of a record, or null when the record has none. */
  static String firstSampleGt(String[] f) {
    if (f.length < 10) return null;
    List<String> format = Arrays.asList(f[8].split(":"));
    return format.contains("GT") ? formatValue(format, f[9].split(":", -1), "GT", ".") : null;
  }

  /** REF and the ALTs of a record whose ALT column is {@code alt}. */
  static int alleleCount(String alt) {
    return alt.equals(".") ? 1 : 1 + alt.split(",", -1).length;
  }

  /**
   * The allele indexes of GT {@code gt} of a record of {@code alleles} alleles (REF and the ALTs),
   * missing ones ('.') -1. A GT cut short ("0/", "/1") or naming an allele the record lacks is an
   * error naming {@code vcf}, line {@code n} and the GT: the record would otherwise be dropped or
   * miscounted without a word.
   */
  static int[] parseGenotype(Path vcf, long n, String gt, int alleles) {
    String[] parts = gt.split("[/|]", -1);
    int[] out = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String why = null;
      if (parts[i].equals(".")) {
        out[i] = -1;
      } else if (parts[i].isEmpty()) {
        why = "is cut short (an empty allele)";
      } else {
        try {
          out[i] = Integer.parseInt(parts[i]);
          if (out[i] < 0 || out[i] >= alleles) {
            why = "names allele " + out[i] + ", but the record has " + Plural.of(alleles - 1, "ALT allele");
          }
        } catch (NumberFormatException e) {
          why = "has allele '" + parts[i] + "', neither an allele number nor '.'";
        }
      }
      if (why != null) throw new InputException(vcf + ": line " + n + ": GT '" + gt + "' " + why);
    }
    return out;
  }

  /** A biallelic record on its way through normalisation, with how many GT alleles carry ALT. */
  record Normalised(String chrom, int pos0, String ref, String alt, int copies) {}

  private static final class Atom {
    final StringBuilder ref = new StringBuilder();
    final StringBuilder alt = new StringBuilder();
    final int ial; // 1-based index of the source ALT
    final int beg;
    int end;

    Atom(char r, char a, int beg, int ial) {
      ref.append(r);
      alt.append(a);
      this.beg = beg;
      this.end = beg;
      this.ial = ial;
    }

    int compareTo(Atom o) {
      if (beg != o.beg) return Integer.compare(beg, o.beg);
      int c = ref.toString().compareTo(o.ref.toString());
      if (c != 0) return c;
      return alt.toString().compareTo(o.alt.toString());
    }
  }

  /** bcftools norm -a (star alleles for overlaps) followed by -m -any, keeping the GT copy counts. */
  static List<Normalised> atomiseAndSplit(String chrom, int pos0, List<String> alleles, int[] gt) {
    List<Normalised> out = new ArrayList<>();
    boolean atomisable = alleles.size() >= 2 && alleles.stream().allMatch(VcfComparison::isAcgtn);
    if (!atomisable) {
      for (int i = 1; i < alleles.size(); i++) out.add(new Normalised(chrom, pos0, alleles.get(0), alleles.get(i), copies(gt, i)));
      return out;
    }
    List<Atom> atoms = new ArrayList<>();
    for (int i = 1; i < alleles.size(); i++) atomiseAllele(alleles.get(0), alleles.get(i), i, atoms);
    atoms.sort((a, b) -> {
      int c = a.compareTo(b);
      return c != 0 ? c : Integer.compare(a.ial, b.ial);
    });
    int nori = alleles.size() - 1;
    List<Atom> rows = new ArrayList<>();
    for (int i = 0; i < atoms.size(); i++) {
      if (i > 0 && atoms.get(i - 1).compareTo(atoms.get(i)) == 0) continue;
      rows.add(atoms.get(i));
    }
    int[][] table = new int[rows.size()][nori];
    boolean[] star = new boolean[rows.size()];
    for (int j = 0; j < rows.size(); j++) table[j][rows.get(j).ial - 1] = 1;
    for (Atom atom : atoms) {
      for (int j = 0; j < rows.size(); j++) {
        Atom row = rows.get(j);
        if (atom == row) continue;
        if (atom.beg > row.end) continue;
        if (atom.end < row.beg) break;
        table[j][atom.ial - 1] = atom.compareTo(row) != 0 ? 2 : 1;
        star[j] = true;
      }
    }
    for (int j = 0; j < rows.size(); j++) {
      Atom row = rows.get(j);
      int altCopies = 0;
      int starCopies = 0;
      for (int a : gt) {
        if (a <= 0 || a > nori) continue;
        int mapped = table[j][a - 1];
        if (mapped == 1) altCopies++;
        else if (mapped == 2) starCopies++;
      }
      out.add(new Normalised(chrom, pos0 + row.beg, row.ref.toString(), row.alt.toString(), altCopies));
      if (star[j]) out.add(new Normalised(chrom, pos0 + row.beg, row.ref.toString(), SPANNING_DELETION, starCopies));
    }
    return out;
  }

  private static void atomiseAllele(String ref, String alt, int ial, List<Atom> atoms) {
    int rlen = ref.length();
    int alen = alt.length();
    while (rlen > 1 && alen > 1 && ref.charAt(rlen - 1) == alt.charAt(alen - 1)) {
      rlen--;
      alen--;
    }
    int max = Math.max(rlen, alen);
    Atom atom = null;
    for (int i = 0; i < max; i++) {
      char rb = i < rlen ? ref.charAt(i) : '-';
      char ab = i < alen ? alt.charAt(i) : '-';
      if (rb != ab) {
        if (rb == '-' || ab == '-') {
          if (atom == null) continue; // cannot happen for ACGTN alleles
          if (ab != '-') atom.alt.append(ab);
          if (rb != '-') {
            atom.ref.append(rb);
            atom.end++;
          }
          continue;
        }
        // a SNV; an indel right after it extends this same atom (bcftools 1.16: C>GGG stays whole)
        atom = new Atom(rb, ab, i, ial);
        atoms.add(atom);
        continue;
      }
      if (i + 1 >= rlen || i + 1 >= alen) { // the next base is an indel: this one anchors it
        atom = new Atom(rb, ab, i, ial);
        atoms.add(atom);
      }
    }
  }

  private static int copies(int[] gt, int allele) {
    int n = 0;
    for (int a : gt) if (a == allele) n++;
    return n;
  }

  private static boolean isAcgtn(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != 'A' && c != 'C' && c != 'G' && c != 'T' && c != 'N') return false;
    }
    return !s.isEmpty();
  }

  /** The reference FASTA and its contigs. */
  record Reference(ReferenceSequenceFile file, SAMSequenceDictionary contigs) {}

  private static String fetch(Reference ref, String chrom, int from0, int to0Exclusive) {
    SAMSequenceRecord contig = ref.contigs().getSequence(chrom);
    int to = contig == null ? 0 : Math.min(to0Exclusive, contig.getSequenceLength());
    if (to <= from0) return "";
    ReferenceSequence s = ref.file().getSubsequenceAt(chrom, from0 + 1, to);
    StringBuilder sb = new StringBuilder(new String(s.getBases(), StandardCharsets.US_ASCII).toUpperCase(Locale.ROOT));
    for (int i = 0; i < sb.length(); i++) {
      char c = sb.charAt(i);
      if (c != 'A' && c != 'C' && c != 'G' && c != 'T' && c != 'N') sb.setCharAt(i, 'N');
    }
    return sb.toString();
  }

  /** bcftools norm's realign(): check REF, trim the common suffix (padding from the left), trim the prefix. */
  static Normalised realign(Reference refFile, Path vcf, Normalised rec) {
    String ref = rec.ref();
    String alt = rec.alt();
    String actual = fetch(refFile, rec.chrom(), rec.pos0(), rec.pos0() + ref.length());
    if (!isAcgtn(ref) || !actual.equalsIgnoreCase(ref)) {
      throw new InputException(vcf + ": reference allele mismatch at " + rec.chrom() + ":" + (rec.pos0() + 1)
          + " (REF '" + ref + "', reference '" + actual + "')");
    }
    if (alt.startsWith("<") || alt.startsWith(SPANNING_DELETION) || alt.contains("[") || alt.contains("]")) return rec;
    if (!isAcgtn(alt)) throw new InputException(vcf + ": non-ACGTN alternate allele at " + rec.chrom() + ":" + (rec.pos0() + 1));
    if (alt.equals(ref)) throw new InputException(vcf + ": duplicate alleles at " + rec.chrom() + ":" + (rec.pos0() + 1));
    StringBuilder r = new StringBuilder(ref);
    StringBuilder a = new StringBuilder(alt);
    int pos = rec.pos0();
    while (r.length() > 0 && a.length() > 0 && r.charAt(r.length() - 1) == a.charAt(a.length() - 1)) {
      int minLen = Math.min(r.length(), a.length());
      if (minLen <= 1 && pos == 0) break;
      r.setLength(r.length() - 1);
      a.setLength(a.length() - 1);
      if (r.length() == 0 || a.length() == 0) {
        int pad = Math.min(pos, ALIGN_WINDOW);
        String left = fetch(refFile, rec.chrom(), pos - pad, pos);
        r.insert(0, left);
        a.insert(0, left);
        pos -= pad;
      }
    }
    int trim = 0;
    while (trim < r.length() && trim < a.length() && r.charAt(trim) == a.charAt(trim)
        && Math.min(r.length() - trim, a.length() - trim) > 1) {
      trim++;
    }
    return new Normalised(rec.chrom(), pos + trim, r.substring(trim), a.substring(trim), rec.copies());
  }
}
