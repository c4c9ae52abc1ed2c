package dev.fastpipe.testing;

import dev.fastpipe.streaming.postprocess.VcfProvenance;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;

/** A VCF's lines for identity comparisons: everything but the provenance lines, which differ by design. */
public final class VcfText {
  private VcfText() {}

  /** Every line of a VCF (bgzipped or plain). */
  public static List<String> lines(Path vcf) throws IOException {
    try (InputStream raw = Files.newInputStream(vcf)) {
      InputStream in = vcf.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  /**
   * Every line but the header's {@link VcfProvenance#isProvenanceLine provenance} (date, version,
   * model, command line, reference): two runs of the same calls must agree on all of it.
   */
  public static List<String> withoutProvenance(Path vcf) throws IOException {
    return lines(vcf).stream().filter(l -> !VcfProvenance.isProvenanceLine(l)).toList();
  }
}
