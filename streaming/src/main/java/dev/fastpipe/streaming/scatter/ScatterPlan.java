package dev.fastpipe.streaming.scatter;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.RootCause;
import dev.fastpipe.streaming.genome.ContigExclusion;
import dev.fastpipe.streaming.genome.ReadsIndex;
import dev.fastpipe.streaming.genome.SampleNames;
import dev.fastpipe.streaming.plan.InputFiles;
import dev.fastpipe.streaming.plan.Region;
import dev.fastpipe.streaming.plan.Regions;
import htsjdk.samtools.SAMFileHeader;
import htsjdk.samtools.SAMSequenceDictionary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code fastpipe plan}: checks samples against a reference as {@code call} would, then cuts the
 * regions into chunks balanced by the bytes of their reads ({@link ChunkPlanner}) and writes one
 * BED per chunk, {@code chunk-0001-of-0004.bed} and so on, for {@code call --bed}.
 *
 * <p>Each sample is checked with {@code call}'s own checks before anything is written: the
 * reference and its indexes, the reads and their index (read through where it places reads, which
 * also finds a CRAM of another reference), contig lengths against the reference, the sample's read
 * groups ({@code --sample NAME}, as the workflow calls it), and the regions. Samples must share the
 * contigs they are called on. A failure names the sample and the file.
 */
public final class ScatterPlan {
  private ScatterPlan() {}

  /** The chunks, the regions they cover and what is suspicious but not wrong (one line each). */
  public record Result(List<ChunkPlanner.Chunk> chunks, List<Region> regions, List<String> warnings) {}

  /**
   * Checks every sample, sums their reads' bytes over the regions ({@code bed}, or every contig of
   * the reference the reads have, less what {@code exclude} leaves out, as {@code call} resolves
   * them) and cuts them into {@code chunks}. A sample's name may be null (reads called under their
   * own sample name, as {@code call} without --sample).
   */
  public static Result plan(Path reference, List<SampleSheet.Sample> samples, Path bed, ContigExclusion exclude,
      int chunks) {
    if (chunks < 1) throw new InputException("--chunks must be at least 1, got " + chunks);
    ChunkPlanner planner = null;
    SampleSheet.Sample first = null;
    Set<String> firstContigs = null;
    List<String> warnings = new ArrayList<>();
    for (SampleSheet.Sample s : samples) {
      try (InputFiles in = new InputFiles(reference, s.reads())) {
        SAMFileHeader header = in.reads.getFileHeader();
        SampleNames.select(in.readsPath, header, s.name());
        List<Region> regions = Regions.resolve(in.dictionary, in.readContigs, in.readsPath, List.of(), bed, exclude);
        if (regions.isEmpty()) throw new InputException((bed != null ? bed + ": " : "") + "no region to call: the regions are empty");
        Set<String> contigs = contigs(regions);
        if (first == null) {
          first = s;
          firstContigs = contigs;
          planner = new ChunkPlanner(regions);
        } else if (!contigs.equals(firstContigs)) {
          throw new InputException(differentContigs(s, contigs, first, firstContigs));
        }
        in.probeReadsIndex(regions);
        in.requireSameBases(regions);
        ReadsIndex index = in.readsIndex;
        SAMSequenceDictionary dict = in.dictionary;
        planner.addBytes((contig, start, end) ->
            index.bytesIn(header.getSequenceIndex(dict.getSequence(contig).getSequenceName()), start, end));
        for (String w : in.warnings) warnings.add(prefix(s) + w);
      } catch (InputException e) {
        throw new InputException(prefix(s) + e.getMessage(), e);
      }
      if (s == first) planner.checkChunks(chunks); // before the other samples are read
    }
    if (planner == null) throw new InputException("no sample to plan");
    return new Result(planner.cut(chunks), planner.regions(), warnings);
  }

  private static String prefix(SampleSheet.Sample s) {
    return s.name() == null ? "" : "sample " + s.name() + ": ";
  }

  private static Set<String> contigs(List<Region> regions) {
    Set<String> out = new LinkedHashSet<>();
    for (Region r : regions) out.add(r.contig());
    return out;
  }

  private static String differentContigs(SampleSheet.Sample s, Set<String> contigs, SampleSheet.Sample first,
      Set<String> firstContigs) {
    for (String c : contigs) {
      if (!firstContigs.contains(c)) {
        return "the reads " + s.reads() + " have contig " + c + " of the reference, but those of sample " + first.name()
            + " (" + first.reads() + ") do not: were they aligned to other references? (call both on a --bed"
            + " of the contigs they share)";
      }
    }
    for (String c : firstContigs) {
      if (!contigs.contains(c)) {
        return "the reads " + s.reads() + " lack contig " + c + " of the reference, which those of sample " + first.name()
            + " (" + first.reads() + ") have: were they aligned to other references? (call both on a --bed"
            + " of the contigs they share)";
      }
    }
    throw new IllegalStateException("contig sets differ but no contig tells them apart");
  }

  /** The name of chunk {@code k} (1-based) of {@code n}: {@code chunk-0001-of-0004.bed}. */
  public static String fileName(int k, int n) {
    return String.format(Locale.ROOT, "chunk-%04d-of-%04d.bed", k, n);
  }

  /**
   * Writes each chunk as {@code dir/}{@link #fileName}: a comment line, then its intervals (0-based,
   * half-open, in reference order). Each file appears complete or not at all (written under a
   * temporary name, then renamed). Returns the files.
   */
  public static List<Path> write(Path dir, List<ChunkPlanner.Chunk> chunks) {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new InputException("--output-dir " + dir + ": exists and is not a directory");
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new InputException("--output-dir " + dir + ": cannot create it (" + RootCause.of(e) + ")", e);
    }
    List<Path> files = new ArrayList<>();
    try (OutputFiles.Transaction tx = new OutputFiles.Transaction()) { // every chunk's BED, or none
      for (ChunkPlanner.Chunk c : chunks) {
        Path out = dir.resolve(fileName(c.number(), chunks.size()));
        OutputFiles.checkWritable(out, "--output-dir");
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
            "# fastpipe plan: chunk %d of %d, %d bp in %d interval%s, ~%.1f MB of reads%n", c.number(), chunks.size(),
            c.bases(), c.intervals().size(), c.intervals().size() == 1 ? "" : "s", c.bytes() / 1e6));
        for (Region r : c.intervals()) text.append(r.contig()).append('\t').append(r.start()).append('\t').append(r.end()).append('\n');
        tx.writeString(out, ".bed", text.toString(), "chunk BED");
        files.add(out);
      }
      tx.commit();
    } catch (IOException e) {
      throw new InputException(e.getMessage(), e);
    }
    return files;
  }
}
