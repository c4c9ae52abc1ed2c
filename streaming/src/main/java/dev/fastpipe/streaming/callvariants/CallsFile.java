package dev.fastpipe.streaming.callvariants;

import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.postprocess.CallResult;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The classic path's call_variants output ("CALLS"): gzipped, tab-separated text, one line per
 * example, in the order the examples were read.
 *
 * <pre>
 * ##fastpipe-calls=1
 * ##model=/path/to/model          (other ##key=value lines: sample, examples, ...)
 * #contig_index  position  ref  alts  alt_subset  examples_at_site  dp  ad  p_hom_ref  p_het  p_hom_alt  pileup_gl  slips  sample_within  overpromise
 * 0              10000146  A    G,T   0,1         3                 31  10,12,9  0.001  0.95  0.049  .          0      1              0
 * </pre>
 *
 * contig_index is the index in the reference's sequence dictionary (postprocess maps it with
 * {@code --ref}); position is 0-based; alt_subset indexes into alts; ad lists ref then each alt
 * ("." when unknown); probabilities are printed with Float.toString (exact round trip); pileup_gl is
 * the example's pileup likelihoods (log10, one per genotype of the site's alleles in VCF order: {0/0, 0/1,
 * 1/1} at a bi-allelic site; {@code pileup.PileupLikelihood}; NaN where unmeasured, {@link
 * CallResult}) or "."
 * (a file without the column, written before it existed, reads as "." throughout); slips is 1 for
 * an example of a site with an indel allele whose repeat the sample's reads slip in beyond the envelope
 * ({@link CallResult#slipsBeyondEnvelope}), else 0 (a file without the column reads as 0);
 * sample_within is 1 where the sample's reads slip within the envelope in every repeat class
 * ({@link CallResult#sampleWithinEnvelope}), else 0 (a file without the column reads as 0);
 * overpromise is 1 where the sample's good bases err at several times their qualities' promise
 * ({@link CallResult#sampleQualitiesOverpromise}), else 0 (a file without the column reads as 0).
 * The writer works under a temporary name and renames on {@link Writer#close()}.
 */
public final class CallsFile {
  public static final String MAGIC = "##fastpipe-calls=1";
  public static final String COLUMNS =
      "#contig_index\tposition\tref\talts\talt_subset\texamples_at_site\tdp\tad\tp_hom_ref\tp_het\tp_hom_alt\tpileup_gl\tslips\tsample_within\toverpromise";

  private CallsFile() {}

  /** Writes CALLS lines; thread-compatible (one thread). */
  public static final class Writer implements AutoCloseable, Consumer<CallResult> {
    private final Path output;
    private final Path tmp;
    private final BufferedWriter out;
    private final StringBuilder line = new StringBuilder(128);
    private long count;
    private boolean done;

    public Writer(Path output, Map<String, String> meta) throws IOException {
      this.output = output.toAbsolutePath();
      this.tmp = OutputFiles.temporary(this.output, ".gz");
      OutputFiles.removeDeadTemporaries(this.output);
      this.out = new BufferedWriter(
          new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(tmp), 1 << 16), StandardCharsets.US_ASCII),
          1 << 16);
      out.write(MAGIC);
      out.write('\n');
      for (var e : meta.entrySet()) {
        if (e.getValue() == null) continue;
        out.write("##" + e.getKey() + "=" + e.getValue().replace('\n', ' ') + "\n");
      }
      out.write(COLUMNS);
      out.write('\n');
    }

    @Override
    public void accept(CallResult r) {
      line.setLength(0);
      line.append(r.contigIndex()).append('\t').append(r.position()).append('\t').append(r.ref()).append('\t')
          .append(String.join(",", r.alts())).append('\t');
      for (int i = 0; i < r.altSubset().length; i++) line.append(i > 0 ? "," : "").append(r.altSubset()[i]);
      line.append('\t').append(r.examplesAtSite()).append('\t').append(r.depth()).append('\t');
      if (r.alleleDepths() == null || r.alleleDepths().length == 0) {
        line.append('.');
      } else {
        for (int i = 0; i < r.alleleDepths().length; i++) line.append(i > 0 ? "," : "").append(r.alleleDepths()[i]);
      }
      for (float p : r.probabilities()) line.append('\t').append(p);
      line.append('\t');
      float[] gl = r.pileupLikelihoods();
      if (gl == null) {
        line.append('.');
      } else {
        for (int i = 0; i < gl.length; i++) line.append(i > 0 ? "," : "").append(gl[i]);
      }
      line.append('\t').append(r.slipsBeyondEnvelope() ? '1' : '0');
      line.append('\t').append(r.sampleWithinEnvelope() ? '1' : '0');
      line.append('\t').append(r.sampleQualitiesOverpromise() ? '1' : '0').append('\n');
      try {
        out.append(line);
      } catch (IOException e) {
        throw new UncheckedIOException(tmp + ": " + e.getMessage(), e);
      }
      count++;
    }

    public long count() {
      return count;
    }

    @Override
    public void close() throws IOException {
      if (done) return;
      done = true;
      out.close();
      OutputFiles.publish(tmp, output);
    }

    /** Drops the partial file. */
    public void abort() {
      if (done) return;
      done = true;
      try {
        out.close();
      } catch (IOException ignored) {
        // deleted below
      }
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // best effort
      }
    }
  }

  /** A CALLS file read back: its ##key=value lines and its results. */
  public record Contents(Map<String, String> meta, List<CallResult> results) {}

  /** Reads a whole CALLS file; a malformed line is an IllegalArgumentException naming file and line. */
  public static Contents read(Path path) throws IOException {
    Map<String, String> meta = new LinkedHashMap<>();
    List<CallResult> results = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(path), 1 << 16), StandardCharsets.US_ASCII))) {
      String first = in.readLine();
      if (!MAGIC.equals(first)) {
        throw new IllegalArgumentException(path + ": not a fastpipe CALLS file (first line must be " + MAGIC + ")");
      }
      String line;
      long lineNo = 1;
      while ((line = in.readLine()) != null) {
        lineNo++;
        if (line.startsWith("##")) {
          int eq = line.indexOf('=');
          if (eq > 2) meta.put(line.substring(2, eq), line.substring(eq + 1));
          continue;
        }
        if (line.startsWith("#") || line.isEmpty()) continue;
        try {
          results.add(parse(line));
        } catch (RuntimeException e) {
          throw new IllegalArgumentException(path + ": line " + lineNo + ": " + e.getMessage());
        }
      }
    } catch (java.util.zip.ZipException e) {
      throw new IllegalArgumentException(path + ": not gzipped (" + e.getMessage() + ")");
    }
    return new Contents(meta, results);
  }

  private static CallResult parse(String line) {
    String[] f = line.split("\t", -1);
    if (f.length < 11 || f.length > 15) {
      throw new IllegalArgumentException(
          "expected 15 columns (11 before pileup_gl, 12 before slips, 13 before sample_within, 14 before overpromise), found "
              + f.length);
    }
    List<String> alts = List.of(f[3].split(","));
    int[] subset = ints(f[4]);
    int[] ad = f[7].equals(".") ? new int[0] : ints(f[7]);
    float[] p = {probability("p_hom_ref", f[8]), probability("p_het", f[9]), probability("p_hom_alt", f[10])};
    float[] gl = null;
    if (f.length >= 12 && !f[11].equals(".")) {
      String[] g = f[11].split(",");
      int genotypes = CallResult.genotypes(alts.size());
      if (g.length != genotypes) {
        throw new IllegalArgumentException("pileup_gl " + f[11] + ": expected " + genotypes + " log10 likelihoods for "
            + alts.size() + " alt(s)");
      }
      gl = new float[genotypes];
      for (int i = 0; i < genotypes; i++) {
        gl[i] = Float.parseFloat(g[i]);
        // NaN: a genotype the pileup did not measure (one with an indel allele at a site of SNP and indel alts)
        boolean unmeasured = i > 0 && alts.size() > 1 && g[i].equals("NaN");
        if (!(gl[i] <= 0) && !unmeasured) {
          throw new IllegalArgumentException("pileup_gl " + f[11]
              + ": log10 likelihoods must be numbers <= 0 (NaN, unmeasured, only at a multi-allelic site's genotypes with an alt)");
        }
      }
    }
    boolean slips = f.length >= 13 && flag("slips", f[12]);
    boolean within = f.length >= 14 && flag("sample_within", f[13]);
    boolean overpromise = f.length >= 15 && flag("overpromise", f[14]);
    return new CallResult(Integer.parseInt(f[0]), Integer.parseInt(f[1]), f[2], alts, subset, p,
        Integer.parseInt(f[5]), Integer.parseInt(f[6]), ad, gl, slips, within, overpromise);
  }

  /** A 0 / 1 column. */
  private static boolean flag(String column, String text) {
    if (!text.equals("0") && !text.equals("1")) throw new IllegalArgumentException(column + " " + text + ": expected 0 or 1");
    return text.equals("1");
  }

  /** A genotype probability: a finite number in [0, 1] (NaN or Infinity would make every genotype after it NaN). */
  private static float probability(String column, String text) {
    float p = Float.parseFloat(text);
    if (!(p >= 0 && p <= 1)) { // NaN fails both
      throw new IllegalArgumentException(column + " " + text + ": a genotype probability must be a number between 0 and 1");
    }
    return p;
  }

  private static int[] ints(String s) {
    return Arrays.stream(s.split(",")).mapToInt(Integer::parseInt).toArray();
  }
}
