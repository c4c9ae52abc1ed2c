package dev.fastpipe.streaming.callvariants;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.postprocess.CallResult;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The classic path's CALLS file carries the pileup likelihoods, and a file from before them still reads. */
class CallsFileTest {
  @Test
  void pileupLikelihoodsRoundTripAndTheirAbsenceIsADot(@TempDir Path dir) throws Exception {
    Path calls = dir.resolve("c.calls.gz");
    float[] gl = {-4.4375f, 0f, -40.1f};
    List<CallResult> back = roundTrip(calls,
        new CallResult(0, 99, "A", List.of("G"), new int[] {0}, new float[] {0.1f, 0.8f, 0.1f}, 1, 13,
            new int[] {11, 2}, gl),
        new CallResult(0, 120, "A", List.of("AT"), new int[] {0}, new float[] {0.1f, 0.8f, 0.1f}, 1, 13,
            new int[] {11, 2}));
    assertArrayEquals(gl, back.get(0).pileupLikelihoods());
    assertNull(back.get(1).pileupLikelihoods());
  }

  @Test
  void aMultiAllelicSitesLikelihoodsHaveOneValuePerGenotype(@TempDir Path dir) throws Exception {
    Path calls = dir.resolve("m.calls.gz");
    float[] gl = {-21.5f, -9.75f, -6f, -14.25f, 0f, -11f};
    List<CallResult> back = roundTrip(calls,
        new CallResult(0, 99, "A", List.of("AAAG", "AAAGAAG"), new int[] {1}, new float[] {0.8f, 0.1f, 0.1f}, 3,
            24, new int[] {7, 14, 3}, gl));
    assertArrayEquals(gl, back.get(0).pileupLikelihoods());
    // Three values for two alts is one line naming the column.
    IllegalArgumentException e = rejected(calls, "0\t99\tA\tAAAG,AAAGAAG\t1\t3\t24\t7,14,3\t0.8\t0.1\t0.1\t-1,0,-2\n");
    assertTrue(e.getMessage().contains("pileup_gl") && e.getMessage().contains("expected 6"), e.getMessage());
  }

  /** A site of a SNP and an indel alt: the genotypes with the indel are unmeasured, NaN, and read back so. */
  @Test
  void unmeasuredGenotypesRoundTripAsNaN(@TempDir Path dir) throws Exception {
    Path calls = dir.resolve("n.calls.gz");
    float[] gl = {-1.8f, 0f, -30.1f, Float.NaN, Float.NaN, Float.NaN};
    List<CallResult> back = roundTrip(calls,
        new CallResult(0, 99, "A", List.of("G", "AT"), new int[] {0}, new float[] {0.1f, 0.8f, 0.1f}, 3, 24,
            new int[] {12, 10, 2}, gl));
    assertArrayEquals(gl, back.get(0).pileupLikelihoods());
    IllegalArgumentException e = rejected(calls, "0\t99\tA\tG,AT\t0\t3\t24\t12,10,2\t0.1\t0.8\t0.1\t-1,0,-2,Infinity,NaN,NaN\n");
    assertTrue(e.getMessage().contains("must be numbers <= 0"), e.getMessage());
  }

  @Test
  void aFileWithoutThePileupColumnReadsWithoutLikelihoods(@TempDir Path dir) throws Exception {
    Path calls = dir.resolve("old.calls.gz");
    assertNull(firstResult(calls, "0\t99\tA\tG\t0\t1\t13\t11,2\t0.1\t0.8\t0.1\n").pileupLikelihoods());
  }

  /**
   * The slips flag of an indel example and the sample's envelope flag go through the classic path; a
   * file from before either reads as 0.
   */
  @Test
  void theSlipsAndEnvelopeFlagsRoundTripAndAFileWithoutThemReadsAsNo(@TempDir Path dir) throws Exception {
    Path calls = dir.resolve("s.calls.gz");
    float[] p = {0.25f, 0.7f, 0.05f};
    List<CallResult> back = roundTrip(calls,
        new CallResult(0, 99, "AT", List.of("A"), new int[] {0}, p, 1, 9, new int[] {6, 3}, null, true, false),
        new CallResult(0, 120, "AT", List.of("A"), new int[] {0}, p, 1, 9, new int[] {6, 3}, null, false, true));
    assertTrue(back.get(0).slipsBeyondEnvelope());
    assertFalse(back.get(0).sampleWithinEnvelope());
    assertFalse(back.get(1).slipsBeyondEnvelope());
    assertTrue(back.get(1).sampleWithinEnvelope());
    assertFalse(firstResult(calls, "0\t99\tAT\tA\t0\t1\t9\t6,3\t0.25\t0.7\t0.05\t.\n").slipsBeyondEnvelope());
    assertFalse(firstResult(calls, "0\t99\tAT\tA\t0\t1\t9\t6,3\t0.25\t0.7\t0.05\t.\t1\n").sampleWithinEnvelope());
    for (String bad : new String[] {".\tyes", ".\t0\t2"}) {
      IllegalArgumentException e = rejected(calls, "0\t99\tAT\tA\t0\t1\t9\t6,3\t0.25\t0.7\t0.05\t" + bad + "\n");
      assertTrue(e.getMessage().contains(bad.endsWith("2") ? "sample_within 2" : "slips yes") && e.getMessage().contains("line 3"),
          e.getMessage());
    }
  }

  /** The overpromise column round trips; a file of 14 columns (before it) reads as 0; a bad value is one line naming it. */
  @Test
  void theOverpromiseFlagRoundTripsAndAFileWithoutItReadsAsNo(@TempDir Path dir) throws Exception {
    Path calls = dir.resolve("o.calls.gz");
    float[] p = {0.25f, 0.7f, 0.05f};
    List<CallResult> back = roundTrip(calls,
        new CallResult(0, 99, "C", List.of("T"), new int[] {0}, p, 1, 14, new int[] {12, 2}, null, false, true, true),
        new CallResult(0, 120, "C", List.of("T"), new int[] {0}, p, 1, 14, new int[] {12, 2}, null, false, true, false));
    assertTrue(back.get(0).sampleQualitiesOverpromise());
    assertTrue(back.get(0).sampleWithinEnvelope());
    assertFalse(back.get(1).sampleQualitiesOverpromise());
    assertFalse(firstResult(calls, "0\t99\tC\tT\t0\t1\t14\t12,2\t0.25\t0.7\t0.05\t.\t0\t1\n").sampleQualitiesOverpromise());
    IllegalArgumentException e = rejected(calls, "0\t99\tC\tT\t0\t1\t14\t12,2\t0.25\t0.7\t0.05\t.\t0\t1\tyes\n");
    assertTrue(e.getMessage().contains("overpromise yes") && e.getMessage().contains("line 3"), e.getMessage());
    e = rejected(calls, "0\t99\tC\tT\t0\t1\t14\t12,2\t0.25\t0.7\t0.05\t.\t0\t1\t0\t0\n");
    assertTrue(e.getMessage().contains("expected 15 columns"), e.getMessage());
  }

  @Test
  void aBrokenPileupColumnIsOneLineNamingIt(@TempDir Path dir) throws Exception {
    Path calls = dir.resolve("bad.calls.gz");
    IllegalArgumentException e = rejected(calls, "0\t99\tA\tG\t0\t1\t13\t11,2\t0.1\t0.8\t0.1\t-1,0\n");
    assertTrue(e.getMessage().contains("pileup_gl") && e.getMessage().contains("line 3"), e.getMessage());
    e = rejected(calls, "0\t99\tA\tG\t0\t1\t13\t11,2\t0.1\t0.8\t0.1\t-1,0,NaN\n");
    assertTrue(e.getMessage().contains("<= 0"), e.getMessage());
  }

  /** Writes {@code results} to {@code calls} and reads them back. */
  private static List<CallResult> roundTrip(Path calls, CallResult... results) throws Exception {
    try (CallsFile.Writer w = new CallsFile.Writer(calls, Map.of())) {
      for (CallResult r : results) w.accept(r);
    }
    return CallsFile.read(calls).results();
  }

  /** The first result of a CALLS file holding {@code line} under the header. */
  private static CallResult firstResult(Path calls, String line) throws Exception {
    write(calls, line);
    return CallsFile.read(calls).results().get(0);
  }

  /** The error that reading a CALLS file holding {@code line} under the header throws. */
  private static IllegalArgumentException rejected(Path calls, String line) throws Exception {
    write(calls, line);
    return assertThrows(IllegalArgumentException.class, () -> CallsFile.read(calls));
  }

  private static void write(Path file, String line) throws Exception {
    try (Writer w = new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(file)), StandardCharsets.US_ASCII)) {
      w.write(CallsFile.MAGIC + "\n" + CallsFile.COLUMNS + "\n" + line);
    }
  }
}
