package dev.fastpipe.streaming.testing;

import htsjdk.samtools.Cigar;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMFileWriter;
import htsjdk.samtools.SAMFileWriterFactory;
import htsjdk.samtools.SAMRecord;
import htsjdk.samtools.SAMSequenceRecord;
import htsjdk.samtools.TextCigarCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A hand-built genome for tests: one contig of seeded random bases, reads built in code from a
 * CIGAR, written to a temporary FASTA (+.fai) and a coordinate-sorted BAM (+.bai) when a test
 * needs files.
 */
public final class TestGenome {
  public final String contig;
  public final byte[] ref;
  public final SAMFileHeader header;
  public final List<SAMRecord> reads = new ArrayList<>();
  private int serial;

  public TestGenome(String contig, int length, long seed) {
    this.contig = contig;
    this.ref = new byte[length];
    Random rnd = new Random(seed);
    for (int i = 0; i < length; i++) ref[i] = (byte) "ACGT".charAt(rnd.nextInt(4));
    header = new SAMFileHeader();
    header.addSequence(new SAMSequenceRecord(contig, length));
    header.setSortOrder(SAMFileHeader.SortOrder.coordinate);
  }

  /**
   * A genome whose reads match the reference: 100 bp, one every {@code step} bases from {@code from}
   * to 200 bases before the contig's end.
   */
  public static TestGenome tiled(String contig, int length, long seed, int from, int step) {
    TestGenome g = new TestGenome(contig, length, seed);
    for (int s = from; s < length - 200; s += step) g.add(g.refRead(s, 100));
    return g;
  }

  public String refString(int start0, int end0) {
    return new String(ref, start0, end0 - start0, StandardCharsets.US_ASCII);
  }

  /** A read at 0-based {@code start0} with the given CIGAR and bases (quality 30, MAPQ 60). */
  public SAMRecord read(int start0, String cigar, String bases) {
    SAMRecord r = new SAMRecord(header);
    r.setReadName("r" + (serial++));
    r.setReferenceName(contig);
    r.setAlignmentStart(start0 + 1);
    Cigar c = TextCigarCodec.decode(cigar);
    r.setCigar(c);
    r.setReadBases(bases.getBytes(StandardCharsets.US_ASCII));
    byte[] q = new byte[bases.length()];
    Arrays.fill(q, (byte) 30);
    r.setBaseQualities(q);
    r.setMappingQuality(60);
    return r;
  }

  /** A read matching the reference over [start0, start0 + length), with {@code edits} applied. */
  public SAMRecord refRead(int start0, int length) {
    return read(start0, length + "M", refString(start0, start0 + length));
  }

  /** Adds a read to {@link #reads} and returns it. */
  public SAMRecord add(SAMRecord r) {
    reads.add(r);
    return r;
  }

  /** Writes {@code dir/NAME.fa} + .fai; returns the FASTA path. */
  public Path writeFasta(Path dir) throws IOException {
    Path fa = dir.resolve(contig + ".fa");
    StringBuilder sb = new StringBuilder(">" + contig + "\n");
    int lineLen = 60;
    for (int i = 0; i < ref.length; i += lineLen) {
      sb.append(new String(ref, i, Math.min(lineLen, ref.length - i), StandardCharsets.US_ASCII)).append('\n');
    }
    Files.writeString(fa, sb.toString());
    long offset = contig.length() + 2;
    Files.writeString(dir.resolve(contig + ".fa.fai"),
        contig + "\t" + ref.length + "\t" + offset + "\t" + lineLen + "\t" + (lineLen + 1) + "\n");
    return fa;
  }

  /** A FASTA (+.fai) and a sorted, indexed BAM of one genome. */
  public record Written(Path fasta, Path bam) {}

  /** Writes the FASTA and the reads as {@code dir/bamName}. */
  public Written write(Path dir, String bamName) throws IOException {
    return new Written(writeFasta(dir), writeBam(dir, bamName));
  }

  /** Writes the reads as a sorted, indexed BAM {@code dir/name}; returns its path. */
  public Path writeBam(Path dir, String name) {
    Path bam = dir.resolve(name);
    List<SAMRecord> sorted = new ArrayList<>(reads);
    sorted.sort((a, b) -> Integer.compare(a.getAlignmentStart(), b.getAlignmentStart()));
    try (SAMFileWriter w = new SAMFileWriterFactory().setCreateIndex(true)
        .makeBAMWriter(header, true, bam)) {
      for (SAMRecord r : sorted) w.addAlignment(r);
    }
    return bam;
  }

  /** Replaces one base of a string. */
  public static String mutate(String s, int i, char base) {
    return s.substring(0, i) + base + s.substring(i + 1);
  }
}
