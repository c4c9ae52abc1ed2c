package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.testing.TestGenome;
import dev.fastpipe.testing.SharedData;
import htsjdk.samtools.SAMReadGroupRecord;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad inputs, run as a user runs them ({@code bin/fastpipe call}): each stops with exit status 2
 * and one line on stderr that names the file and the problem, and leaves no output behind. The
 * inputs are built in code ({@link TestGenome}) and broken one way each.
 */
class InputFaultsIT {
  @TempDir static Path dir;
  static TestGenome.Written ok;

  @BeforeAll
  static void inputs() throws IOException {
    TestGenome g = TestGenome.tiled("chrT", 12_000, 17, 0, 3);
    addSamples(g, "S1");
    ok = g.write(dir, "reads.bam");
  }

  /** Read groups of {@code samples} in the header, the reads dealt among them in turn. */
  static void addSamples(TestGenome g, String... samples) {
    for (String s : samples) {
      SAMReadGroupRecord rg = new SAMReadGroupRecord("lane-" + s);
      rg.setSample(s);
      g.header.addReadGroup(rg);
    }
    for (int i = 0; i < g.reads.size(); i++) g.reads.get(i).setAttribute("RG", "lane-" + samples[i % samples.length]);
  }

  /** Runs {@code call} on {@code args} and checks the fault is reported as it should be; returns the line. */
  static String fault(String named, String... args) throws Exception {
    Path out = dir.resolve("out.vcf.gz");
    List<String> cmd = new ArrayList<>(List.of("call", "--no-progress", "--shards", "2", "--output", out.toString()));
    cmd.addAll(List.of(args));
    LauncherIT.Result r = LauncherIT.run(java.util.Map.of(), cmd.toArray(String[]::new));
    String what = String.join(" ", args) + "\n" + r.err();
    assertEquals(2, r.exit(), what);
    // the error's one line (a warning such as --shards 2 on 2 cores being oversubscribed may precede it)
    List<String> lines = r.err().lines().filter(l -> l.startsWith("fastpipe") && !l.startsWith("fastpipe: warning: ")).toList();
    assertEquals(1, lines.size(), what);
    assertTrue(lines.get(0).startsWith("fastpipe call: ") && lines.get(0).contains(named), what);
    assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), what);
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> left = s.filter(p -> p.getFileName().toString().contains("out.vcf.gz")).toList();
      assertTrue(left.isEmpty(), "output left: " + left + " for " + what);
    }
    return lines.get(0);
  }

  /**
   * Writes {@code n} zero bytes at {@code offset} of {@code reads}, keeping its index as new as the
   * reads (damaged before indexing; an index older than its reads is warned about).
   */
  static void zeros(Path reads, long offset, int n) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(reads.toFile(), "rw")) {
      f.seek(offset);
      f.write(new byte[n]);
    }
    Files.setLastModifiedTime(Path.of(reads + ".bai"), Files.getLastModifiedTime(reads));
  }

  static Path copyOfReads(String name) throws IOException {
    Path to = Files.copy(ok.bam(), dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    Files.copy(dir.resolve("reads.bai"), Path.of(to + ".bai"), StandardCopyOption.REPLACE_EXISTING);
    return to;
  }

  @Test
  void anIndexOfAnotherBam() throws Exception {
    Path otherDir = Files.createDirectories(dir.resolve("other"));
    TestGenome.tiled("chrT", 12_000, 17, 2_000, 7).writeBam(otherDir, "other.bam"); // the same contig, other reads
    Path reads = copyOfReads("swapped.bam");
    Files.copy(otherDir.resolve("other.bai"), Path.of(reads + ".bai"), StandardCopyOption.REPLACE_EXISTING);
    String line = fault("swapped.bam.bai does not index " + reads, "--ref", ok.fasta().toString(), "--reads", reads.toString());
    assertTrue(line.endsWith("; re-index with samtools index " + reads), line);
  }

  @Test
  void referenceFaults() throws Exception {
    Path gz = dir.resolve("ref.fa.gz");
    try (var out = new htsjdk.samtools.util.BlockCompressedOutputStream(gz.toFile())) {
      out.write(Files.readAllBytes(ok.fasta()));
    }
    Files.copy(Path.of(ok.fasta() + ".fai"), Path.of(gz + ".fai"));
    fault(gz + ": bgzipped, but no .gzi index", "--ref", gz.toString(), "--reads", ok.bam().toString());
    Path twice = dir.resolve("twice.fa");
    Files.writeString(twice, Files.readString(ok.fasta()) + ">chrT\nACGT\n");
    Files.copy(Path.of(ok.fasta() + ".fai"), Path.of(twice + ".fai"));
    fault(twice + ": contig chrT appears twice", "--ref", twice.toString(), "--reads", ok.bam().toString());
  }

  @Test
  void readsFaults() throws Exception {
    Path truncated = copyOfReads("truncated.bam");
    byte[] b = Files.readAllBytes(truncated);
    Files.write(truncated, Arrays.copyOf(b, b.length - 1000));
    fault(truncated + ": truncated", "--ref", ok.fasta().toString(), "--reads", truncated.toString());
    Path sam = Files.writeString(dir.resolve("reads.sam"), "@HD\tVN:1.6\n");
    fault(sam + ": SAM text, not BAM or CRAM", "--ref", ok.fasta().toString(), "--reads", sam.toString());
  }

  @Test
  void regionAndBedFaults() throws Exception {
    fault("--regions chrT:500-100: the start 500 is after the end 100",
        "--ref", ok.fasta().toString(), "--reads", ok.bam().toString(), "--regions", "chrT:500-100");
    Path bed = Files.writeString(dir.resolve("r.bed"), "chrT\t900\t100\n");
    fault(bed + ":1: the start 900 is after the end 100", "--ref", ok.fasta().toString(), "--reads", ok.bam().toString(),
        "--bed", bed.toString());
  }

  @Test
  void readsOfSeveralSamples() throws Exception {
    TestGenome g = TestGenome.tiled("chrT", 12_000, 17, 0, 5);
    addSamples(g, "S1", "S2");
    Path sub = Files.createDirectories(dir.resolve("two"));
    Path reads = g.writeBam(sub, "two.bam");
    fault(reads + ": read groups name several samples [S1, S2]; pass --sample NAME",
        "--ref", ok.fasta().toString(), "--reads", reads.toString());
    fault(reads + ": no read group of sample S3; the samples of its read groups are [S1, S2]",
        "--ref", ok.fasta().toString(), "--reads", reads.toString(), "--sample", "S3");
  }

  /** Damage that a shard process meets while reading: the run reports the shard's line as bad input. */
  @Test
  void damageAShardMeets() throws Exception {
    Path damaged = copyOfReads("damaged.bam");
    zeros(damaged, Files.size(damaged) / 2, 4096);
    String line = fault(damaged + ": cannot read the reads at chrT:", "--ref", ok.fasta().toString(), "--reads", damaged.toString());
    assertFalse(line.contains("shard"), line);
  }

  /**
   * A BAM written by samtools whose block at byte 7,995,549 ends in zeros: htsjdk reads it as the end
   * of the file without an error, so the run used to call part of chr20 and exit 0.
   */
  @Test
  void damageHtsjdkReadsAsTheEndOfTheFile() throws Exception {
    Path real = SharedData.require("sim30x/SIM30X.bam");
    Path ref = SharedData.require("ref/chr20.fa.gz");
    Path damaged = Files.copy(real, dir.resolve("sim.bam"), StandardCopyOption.REPLACE_EXISTING);
    Files.copy(Path.of(real + ".bai"), Path.of(damaged + ".bai"), StandardCopyOption.REPLACE_EXISTING);
    zeros(damaged, 8_000_000, 20_000);
    fault(damaged + ": make_examples read 202145 reads on the regions' contigs, but its index sim.bam.bai counts 219977",
        "--ref", ref.toString(), "--reads", damaged.toString());
  }
}
