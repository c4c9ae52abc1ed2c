package dev.fastpipe.streaming.makeexamples.realign;

import static org.junit.jupiter.api.Assertions.*;

import dev.fastpipe.streaming.makeexamples.AlleleCounter;
import dev.fastpipe.streaming.makeexamples.Candidate;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.makeexamples.realign.StrLocus.SimRead;
import dev.fastpipe.streaming.makeexamples.realign.StrLocus.Variant;
import htsjdk.samtools.SAMRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Short tandem repeats ((AC)n, (A)n, (AAG)n) with expansions and contractions, het, hom and 1/2,
 * some with a SNP a few bases away, read at 15x and 30x in 100 and 150 bp reads with and without
 * errors, the reads aligned as a mapper would ({@link MapperLikeAligner}). The window over the
 * repeat must assemble each truth haplotype exactly (its bases over the window, and its variants,
 * left-aligned, as the truth writes them), and after realignment the reads must give the truth
 * alleles as candidates, supported by most reads that span the repeat, and no other allele there.
 */
class StrRealignTest {
  static final StrLocus.Reads[] SETTINGS = {
    new StrLocus.Reads(30, 100, 0, 11), new StrLocus.Reads(30, 150, 0, 12),
    new StrLocus.Reads(15, 100, 0, 13), new StrLocus.Reads(15, 150, 0, 14),
    new StrLocus.Reads(30, 100, 0.01, 15), new StrLocus.Reads(30, 150, 0.01, 16),
    new StrLocus.Reads(15, 100, 0.01, 17), new StrLocus.Reads(15, 150, 0.01, 18),
  };

  static List<StrLocus> loci() {
    List<StrLocus> out = new ArrayList<>();
    long seed = 100;
    for (int n = 8; n <= 20; n += 2) {
      out.add(new StrLocus("(AC)" + n + " +1 het", "AC", n, seed++).repeatChange(0, 1));
      out.add(new StrLocus("(AC)" + n + " -1 het", "AC", n, seed++).repeatChange(0, -1));
      out.add(new StrLocus("(AC)" + n + " +2 hom", "AC", n, seed++).repeatChange(0, 2).repeatChange(1, 2));
      out.add(new StrLocus("(AC)" + n + " +1/-1", "AC", n, seed++).repeatChange(0, 1).repeatChange(1, -1));
      out.add(new StrLocus("(AC)" + n + " +1/+3", "AC", n, seed++).repeatChange(0, 1).repeatChange(1, 3));
      out.add(new StrLocus("(AC)" + n + " -2/+2", "AC", n, seed++).repeatChange(0, -2).repeatChange(1, 2));
    }
    for (int n = 8; n <= 20; n += 3) {
      out.add(new StrLocus("(A)" + n + " +1 het", "A", n, seed++).repeatChange(0, 1));
      out.add(new StrLocus("(A)" + n + " -1 het", "A", n, seed++).repeatChange(0, -1));
      out.add(new StrLocus("(A)" + n + " +1/-2", "A", n, seed++).repeatChange(0, 1).repeatChange(1, -2));
    }
    for (int n = 5; n <= 11; n += 3) {
      out.add(new StrLocus("(AAG)" + n + " +1 het", "AAG", n, seed++).repeatChange(0, 1));
      out.add(new StrLocus("(AAG)" + n + " -1/+1", "AAG", n, seed++).repeatChange(0, -1).repeatChange(1, 1));
    }
    for (int n : new int[] {10, 14, 18}) {
      StrLocus a = new StrLocus("(AC)" + n + " +1 and a SNP 3 bp after, same haplotype", "AC", n, seed++);
      out.add(a.repeatChange(0, 1).snp(0, a.repeatEnd() + 3));
      StrLocus b = new StrLocus("(AC)" + n + " -1 and a SNP 4 bp after, other haplotype", "AC", n, seed++);
      out.add(b.repeatChange(0, -1).snp(1, b.repeatEnd() + 4));
      StrLocus c = new StrLocus("(AC)" + n + " +2/-1 and a SNP 3 bp before", "AC", n, seed++);
      out.add(c.repeatChange(0, 2).repeatChange(1, -1).snp(1, c.anchor() - 3));
    }
    return out;
  }

  /** The variants of an assembled haplotype, from its alignment, each left-aligned against the reference. */
  static List<Variant> variants(Haplotype h, byte[] ref) {
    List<Variant> out = new ArrayList<>();
    int j = 0;
    int prevRef = h.regionStart - 1;
    while (j < h.bases.length) {
      int p = h.refOf[j];
      if (p < 0) {
        int e = j;
        while (e < h.bases.length && h.refOf[e] < 0) e++;
        String ins = new String(h.bases, j, e - j, StandardCharsets.US_ASCII);
        out.add(leftAlign(new Variant(prevRef, String.valueOf((char) ref[prevRef]), (char) ref[prevRef] + ins), ref));
        j = e;
        continue;
      }
      if (p > prevRef + 1) {
        String del = new String(ref, prevRef, p - prevRef, StandardCharsets.US_ASCII);
        out.add(leftAlign(new Variant(prevRef, del, del.substring(0, 1)), ref));
      }
      if (h.bases[j] != ref[p]) out.add(new Variant(p, String.valueOf((char) ref[p]), String.valueOf((char) h.bases[j])));
      prevRef = p;
      j++;
    }
    out.sort((a, b) -> Integer.compare(a.pos(), b.pos()));
    return out;
  }

  /** Shifts an indel left while it stays equivalent (its last base equals the base before it). */
  static Variant leftAlign(Variant v, byte[] ref) {
    String r = v.ref();
    String a = v.alt();
    int pos = v.pos();
    while (pos > 0 && r.charAt(r.length() - 1) == a.charAt(a.length() - 1)) {
      char before = (char) ref[pos - 1];
      r = before + r.substring(0, r.length() - 1);
      a = before + a.substring(0, a.length() - 1);
      pos--;
    }
    return new Variant(pos, r, a);
  }

  /** What went wrong at one locus with one read setting; empty when nothing. */
  static List<String> check(StrLocus l, StrLocus.Reads s) {
    List<String> problems = new ArrayList<>();
    List<SimRead> sim = l.reads(s);
    List<SAMRecord> reads = new ArrayList<>();
    for (SimRead r : sim) reads.add(r.record());
    byte[] ref = l.g.ref;
    int len = ref.length;

    // The assembly, window by window, as the realigner runs it.
    WindowSelector selector = new WindowSelector();
    List<WindowSelector.Window> windows = selector.select(reads, ref, 0, 0, len, len);
    HaplotypeAssembler assembler = new HaplotypeAssembler();
    boolean covered = false;
    for (WindowSelector.Window w : windows) {
      if (w.last() < l.anchor() - 10 || w.first() > l.repeatEnd() + 10) continue;
      int widest = HaplotypeAssembler.widest();
      int from = w.first() - widest;
      int to = w.last() + 1 + widest;
      List<SAMRecord> windowReads = new ArrayList<>();
      List<Integer> bases = new ArrayList<>();
      for (SAMRecord r : reads) {
        if (r.getAlignmentStart() - 1 < to && r.getAlignmentEnd() > from) {
          windowReads.add(r);
          bases.add(selector.facts(r).firstBase());
        }
      }
      HaplotypeAssembler.Result res = assembler.assemble(ref, 0, w, windowReads,
          bases.stream().mapToInt(Integer::intValue).toArray(), Realigner.Limits.DEFAULT);
      if (res.status() != HaplotypeAssembler.Status.ASSEMBLED) {
        problems.add("window " + w + " not assembled: " + res.status());
        continue;
      }
      Haplotype h0 = res.haplotypes().get(0);
      int rs = h0.regionStart;
      int re = h0.regionEnd;
      List<String> found = new ArrayList<>();
      for (Haplotype h : res.haplotypes()) found.add(variants(h, ref).toString());
      for (int hap = 0; hap < 2; hap++) {
        if (!l.varies(hap, rs, re)) continue;
        covered = true;
        byte[] want = l.haplotype(hap, rs, re).getBytes(StandardCharsets.US_ASCII);
        List<Variant> wantVariants = new ArrayList<>();
        for (Variant v : l.truth.get(hap)) if (v.pos() >= rs && v.end() <= re) wantVariants.add(v);
        boolean exact = false;
        for (Haplotype h : res.haplotypes()) {
          if (java.util.Arrays.equals(h.bases, want)) {
            exact = true;
            if (!variants(h, ref).equals(wantVariants)) {
              problems.add("haplotype " + hap + " assembled but aligned as " + variants(h, ref) + ", truth " + wantVariants);
            }
          }
        }
        if (!exact) problems.add("haplotype " + hap + " " + wantVariants + " not assembled (" + StrLocus.spanning(sim, l, hap, 6, 0) + " reads span it); got " + found);
      }
    }
    if (!covered) problems.add("no window assembled the repeat; windows " + windows);

    // Realignment, then the candidates.
    List<SAMRecord> realigned = new ArrayList<>(reads);
    new Realigner(Realigner.Limits.DEFAULT).realign(new ArrayList<>(reads), realigned, ref, 0, 0, len, len, 0, len);
    ExampleSettings.Builder o = ExampleSettings.builder();
    AlleleCounter counter = new AlleleCounter(o.readFilters(), o.candidates());
    counter.reset(0, l.g.contig, 0, len, ref, 0);
    for (int i = 0; i < realigned.size(); i++) counter.add(realigned.get(i), i);
    List<Variant> truth = l.truthAlleles();
    List<Variant> seen = new ArrayList<>();
    for (Candidate c : counter.candidates()) {
      if (c.position < l.anchor() - 8 || c.position > l.repeatEnd() + 8) continue;
      for (int a = 0; a < c.alts.length; a++) {
        Variant v = new Variant(c.position, c.minimalRef[a], c.minimalAlt[a]);
        int support = c.alleleDepths[a + 1];
        int t = truth.indexOf(v);
        if (t < 0) {
          // Sequencing errors can pile up on a base at 15x; an indel or an error-free SNP cannot.
          boolean indel = v.ref().length() != v.alt().length();
          if ((indel || s.errorRate() == 0) && support >= Math.max(3, 0.15 * c.depth)) {
            problems.add("false allele " + v + " in " + support + " of " + c.depth + " reads");
          }
          continue;
        }
        seen.add(v);
        int carriers = 0;
        for (int hap = 0; hap < 2; hap++) if (l.truth.get(hap).contains(v)) carriers += StrLocus.spanning(sim, l, hap, 6, o.minBaseQuality());
        if (support < 0.75 * carriers) {
          problems.add(v + " supported by " + support + " of the " + carriers + " reads of its haplotypes that span the repeat");
        }
      }
    }
    for (Variant v : truth) {
      int carriers = 0;
      for (int hap = 0; hap < 2; hap++) if (l.truth.get(hap).contains(v)) carriers += StrLocus.spanning(sim, l, hap, 6, 0);
      if (!seen.contains(v)) problems.add("truth allele " + v + " not a candidate (" + carriers + " reads span it)");
    }
    return problems;
  }

  static StrLocus locus(String name) {
    return loci().stream().filter(l -> l.name.equals(name)).findFirst().orElseThrow();
  }

  /** The failures over every locus at the given settings, one line each. */
  static List<String> failures(StrLocus.Reads... settings) {
    List<String> failures = new ArrayList<>();
    for (StrLocus l : loci()) {
      for (StrLocus.Reads s : settings) {
        List<String> p = check(l, s);
        if (!p.isEmpty()) failures.add(l.name + " @ " + s + ": " + String.join("; ", p));
      }
    }
    return failures;
  }

  /**
   * The case: an (AC)n het expansion read at 15x. The alt haplotype's (AC)19 is a cycle at
   * k = 35, but with one read on its cycle edge pruning hid it and the window was assembled at that k
   * as the reference alone; at the k past the repeat (37), one edge had its second read only over a
   * base below Q10. The alt reads kept their aligner's soft clips and mismatches.
   */
  @Test
  void anStrLocusWhoseRealignedHaplotypeMustMatchTheTruthAllele() {
    assertEquals(List.of(), check(locus("(AC)18 +1 het"), SETTINGS[2]));
  }

  /** A SNP 3 bp past the repeat fell inside the region's last k-mer: its haplotype was no path. */
  @Test
  void aSnpNextToTheRepeatStaysOnTheIndelsHaplotype() {
    StrLocus l = locus("(AC)18 +1 and a SNP 3 bp after, same haplotype");
    assertEquals(List.of(), check(l, SETTINGS[0]));
    assertEquals(List.of(), check(locus("(AC)18 -1 and a SNP 4 bp after, other haplotype"), SETTINGS[0]));
  }

  /**
   * At the k an (AC)18 +2 / -1 site needs (39), every read over one edge of the -1 haplotype had a
   * base below Q10 in it: the edge was missing, the haplotype lost, at 30x.
   */
  @Test
  void lowQualityBasesThatAgreeWithOtherReadsSupportTheirEdges() {
    assertEquals(List.of(), check(locus("(AC)18 +2/-1 and a SNP 3 bp before"), SETTINGS[4]));
  }

  /** At 30x, 100 and 150 bp, with and without errors: every locus, every haplotype, every allele. */
  @Test
  void atThirtyXEveryTruthHaplotypeIsAssembledAndEveryTruthAlleleIsACandidate() {
    assertEquals(List.of(), failures(SETTINGS[0], SETTINGS[1], SETTINGS[4], SETTINGS[5]));
  }

  /**
   * At 15x a haplotype has 2-9 reads across its repeat, some with a low-quality base or an error
   * in it, and an edge needs two: some loci cannot be assembled. 264 of the 288 runs come out right
   * (182 with the assembler as it was before the three commits before this test); the rest have
   * too few reads.
   */
  @Test
  void atFifteenXNineLociInTenComeOutRight() {
    StrLocus.Reads[] low = {SETTINGS[2], SETTINGS[3], SETTINGS[6], SETTINGS[7]};
    List<String> failures = failures(low);
    int runs = loci().size() * low.length;
    assertTrue(failures.size() <= runs / 10, failures.size() + " of " + runs + " failed:\n" + String.join("\n", failures));
  }
}
