package dev.fastpipe.streaming.evaluate;

import dev.fastpipe.streaming.testing.TestGenome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A hand-made truth/calls pair on a {@link TestGenome}, site by site: each site says what the truth
 * holds there, what the calls hold (GQ, DP, FILTER) and where it lies; {@link #write} makes the
 * reference, both VCFs and a BED that leaves out everything after {@link #BED_END}.
 */
public final class CalibrationPair {
  /** The contig's length, and the end of the BED (0-based exclusive): sites after it are outside. */
  public static final int LENGTH = 3000;

  public static final int BED_END = 2500;

  public final TestGenome genome;
  private final List<String> truth = new ArrayList<>();
  private final List<String> calls = new ArrayList<>();

  public CalibrationPair(long seed) {
    genome = new TestGenome("chrC", LENGTH, seed);
  }

  /** The reference base at 1-based {@code pos}. */
  public String base(int pos) {
    return genome.refString(pos - 1, pos);
  }

  /** A base other than the reference's at {@code pos}; {@code which} 0..2 picks one of the three. */
  public String other(int pos, int which) {
    String others = "ACGT".replace(base(pos), "");
    return others.substring(which, which + 1);
  }

  /** A truth record. */
  public CalibrationPair truth(int pos, String ref, String alt, String gt) {
    truth.add(genome.contig + "\t" + pos + "\t.\t" + ref + "\t" + alt + "\t50\tPASS\t.\tGT\t" + gt);
    return this;
  }

  /** A call with FORMAT GT:GQ:DP ({@code gq}, {@code dp} may be "."), INFO {@code info}. */
  public CalibrationPair call(int pos, String ref, String alt, String filter, String gt, String gq, String dp, String info) {
    calls.add(genome.contig + "\t" + pos + "\t.\t" + ref + "\t" + alt + "\t30\t" + filter + "\t" + info + "\tGT:GQ:DP\t"
        + gt + ":" + gq + ":" + dp);
    return this;
  }

  /** A PASS call with a GQ and no depth. */
  public CalibrationPair call(int pos, String ref, String alt, String gt, String gq) {
    return call(pos, ref, alt, "PASS", gt, gq, ".", ".");
  }

  /** The files: reference (+.fai), truth.vcf, calls.vcf and confident.bed, in {@code dir}. */
  public record Files4(Path ref, Path truth, Path calls, Path bed) {}

  public Files4 write(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path ref = genome.writeFasta(dir);
    Path bed = Files.writeString(dir.resolve("confident.bed"), genome.contig + "\t0\t" + BED_END + "\n");
    return new Files4(ref, vcf(dir.resolve("truth.vcf"), truth), vcf(dir.resolve("calls.vcf"), calls), bed);
  }

  private Path vcf(Path p, List<String> records) throws IOException {
    StringBuilder sb = new StringBuilder("##fileformat=VCFv4.2\n##contig=<ID=" + genome.contig + ",length=" + LENGTH + ">\n"
        + "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS\n");
    for (String r : records) sb.append(r).append('\n');
    return Files.writeString(p, sb.toString(), StandardCharsets.US_ASCII);
  }

  /**
   * The pair whose GQ table {@code CalibrationTest} asserts cell by cell: sites 30 bp apart from
   * 100; see the comments for what each call is.
   */
  public static CalibrationPair gqBins() {
    CalibrationPair p = new CalibrationPair(17);
    int[] at = {100};
    java.util.function.IntSupplier next = () -> at[0] += 30;
    // ---- SNPs ----
    // GQ 0-9: 4 calls, 3 errors
    int s = next.getAsInt();
    p.call(s, p.base(s), p.other(s, 0), "0/1", "3"); // not in the truth: FP
    s = next.getAsInt();
    p.truth(s, p.base(s), p.other(s, 0), "0/1").call(s, p.base(s), p.other(s, 0), "1/1", "5"); // wrong genotype
    s = next.getAsInt();
    p.truth(s, p.base(s), p.other(s, 0), "0/1").call(s, p.base(s), p.other(s, 1), "0/1", "9"); // wrong allele
    s = next.getAsInt();
    p.truth(s, p.base(s), p.other(s, 2), "1|1").call(s, p.base(s), p.other(s, 2), "1/1", "0"); // right
    // GQ 10-19: 10 calls, 1 error (observed 0.1 = promised 0.1: within it)
    for (String gq : new String[] {"10", "11", "12", "13", "14", "15", "16", "18", "12.7"}) { // 12.7: a float GQ, bin 10-19
      s = next.getAsInt();
      p.truth(s, p.base(s), p.other(s, 1), "0/1").call(s, p.base(s), p.other(s, 1), "0|1", gq);
    }
    s = next.getAsInt();
    p.call(s, p.base(s), p.other(s, 1), "0/1", "19"); // FP
    // GQ 20-29: 5 calls, no error; two of them are one MNP record, atomised into two SNPs
    for (String gq : new String[] {"20", "29", "22"}) {
      s = next.getAsInt();
      p.truth(s, p.base(s), p.other(s, 0), "1/1").call(s, p.base(s), p.other(s, 0), "1/1", gq);
    }
    s = next.getAsInt();
    p.truth(s, p.base(s), p.other(s, 0), "0/1").truth(s + 2, p.base(s + 2), p.other(s + 2, 0), "0/1");
    p.call(s, p.genome.refString(s - 1, s + 2), p.other(s, 0) + p.base(s + 1) + p.other(s + 2, 0), "0/1", "25");
    // GQ 30-39: 2 calls, 1 error (0.5 > 0.001: not within)
    s = next.getAsInt();
    p.truth(s, p.base(s), p.other(s, 2), "0/1").call(s, p.base(s), p.other(s, 2), "0/1", "30");
    s = next.getAsInt();
    p.truth(s, p.base(s), p.other(s, 2), "1/1").call(s, p.base(s), p.other(s, 2), "0/1", "39"); // wrong genotype
    // GQ 40-49: none counts: one filtered, one outside the BED
    s = next.getAsInt();
    p.truth(s, p.base(s), p.other(s, 0), "0/1").call(s, p.base(s), p.other(s, 1), "LowQual", "0/1", "45", ".", ".");
    p.call(2700, p.base(2700), p.other(2700, 0), "0/1", "42");
    // GQ >= 50: 3 right calls
    for (String gq : new String[] {"50", "60", "99"}) {
      s = next.getAsInt();
      p.truth(s, p.base(s), p.other(s, 1), "0/1").call(s, p.base(s), p.other(s, 1), "0/1", gq);
    }
    // no GQ: 1 right call
    s = next.getAsInt();
    p.truth(s, p.base(s), p.other(s, 1), "0/1").call(s, p.base(s), p.other(s, 1), "0/1", ".");
    // two missed SNPs
    s = next.getAsInt();
    p.truth(s, p.base(s), p.other(s, 0), "0/1");
    s = next.getAsInt();
    p.truth(s, p.base(s), p.other(s, 0), "1/1");
    // ---- indels ----
    // GQ 0-9: 2 calls, 2 errors
    s = next.getAsInt();
    p.call(s, p.base(s), p.base(s) + "GA", "0/1", "4"); // insertion not in the truth
    s = next.getAsInt();
    p.truth(s, p.genome.refString(s - 1, s + 2), p.base(s), "0/1").call(s, p.genome.refString(s - 1, s + 2), p.base(s), "1/1", "7");
    // GQ 10-19: 3 right calls
    for (String gq : new String[] {"10", "15", "19"}) {
      s = next.getAsInt();
      p.truth(s, p.base(s), p.base(s) + "CT", "0/1").call(s, p.base(s), p.base(s) + "CT", "0/1", gq);
    }
    // GQ 30-39: 1 right call
    s = next.getAsInt();
    p.truth(s, p.genome.refString(s - 1, s + 1), p.base(s), "1/1").call(s, p.genome.refString(s - 1, s + 1), p.base(s), "1/1", "33");
    // GQ 40-49: 1 call, wrong genotype
    s = next.getAsInt();
    p.truth(s, p.base(s), p.base(s) + "TTG", "1/1").call(s, p.base(s), p.base(s) + "TTG", "0/1", "41");
    // one missed indel
    s = next.getAsInt();
    p.truth(s, p.base(s), p.base(s) + "A", "0/1");
    if (at[0] >= BED_END) throw new IllegalStateException("sites run past the BED");
    return p;
  }
}
