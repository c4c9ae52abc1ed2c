package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.OutputFiles;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.variant.variantcontext.Allele;
import htsjdk.variant.variantcontext.VariantContextBuilder;
import htsjdk.variant.variantcontext.writer.Options;
import htsjdk.variant.variantcontext.writer.VariantContextWriter;
import htsjdk.variant.variantcontext.writer.VariantContextWriterBuilder;
import htsjdk.variant.vcf.VCFHeader;
import htsjdk.variant.vcf.VCFHeaderLineCount;
import htsjdk.variant.vcf.VCFHeaderLineType;
import htsjdk.variant.vcf.VCFInfoHeaderLine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The --candidates-vcf output: sites only, one record per candidate alt allele in its minimal
 * left-aligned form, INFO DP and AD (ref, this alt); bgzipped with a tabix index built on the fly.
 * Written under a temporary name and renamed (with its .tbi) by {@link #finish()}.
 */
public final class CandidateVcfWriter implements AutoCloseable {
  private final Path target;
  private final Path temp;
  private final VariantContextWriter writer;
  private boolean done;

  public CandidateVcfWriter(Path target, SAMSequenceDictionary dict) {
    this.target = target;
    this.temp = OutputFiles.temporary(target, ".vcf.gz");
    OutputFiles.removeDeadTemporaries(target);
    try {
      Path parent = target.toAbsolutePath().getParent();
      if (parent != null) Files.createDirectories(parent);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    writer = new VariantContextWriterBuilder()
        .setOutputPath(temp)
        .setReferenceDictionary(dict)
        .setOutputFileType(VariantContextWriterBuilder.OutputType.BLOCK_COMPRESSED_VCF)
        .setOption(Options.INDEX_ON_THE_FLY)
        .unsetOption(Options.WRITE_FULL_FORMAT_FIELD)
        .build();
    VCFHeader header = new VCFHeader();
    header.setSequenceDictionary(dict);
    header.addMetaDataLine(new VCFInfoHeaderLine("DP", 1, VCFHeaderLineType.Integer, "Reads with a counted allele here"));
    header.addMetaDataLine(new VCFInfoHeaderLine("AD", VCFHeaderLineCount.R, VCFHeaderLineType.Integer, "Reads supporting ref and alt"));
    header.addMetaDataLine(new htsjdk.variant.vcf.VCFHeaderLine("source", "fastpipe make-examples candidates"));
    writer.writeHeader(header);
  }

  public void write(Candidate c) {
    for (int a = 0; a < c.alts.length; a++) {
      String ref = c.minimalRef[a];
      String alt = c.minimalAlt[a];
      writer.add(new VariantContextBuilder("fastpipe", c.contig, c.position + 1L, c.position + (long) ref.length(),
          List.of(Allele.create(ref, true), Allele.create(alt, false)))
          .attribute("DP", c.depth)
          .attribute("AD", List.of(c.alleleDepths[0], c.alleleDepths[a + 1]))
          .make());
    }
  }

  /** Closes and renames the VCF and its index to their final names. */
  public void finish() {
    if (done) return;
    done = true;
    writer.close();
    try {
      Files.move(Path.of(temp + ".tbi"), Path.of(target + ".tbi"), StandardCopyOption.REPLACE_EXISTING);
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(target + ": cannot finish (" + e.getMessage() + ")", e);
    }
  }

  /** Closes and deletes the temporary files. */
  public void discard() {
    if (done) return;
    done = true;
    try {
      writer.close();
    } catch (RuntimeException ignored) {
      // deleting anyway
    }
    try {
      Files.deleteIfExists(temp);
      Files.deleteIfExists(Path.of(temp + ".tbi"));
    } catch (IOException ignored) {
      // best effort
    }
  }

  @Override
  public void close() {
    discard();
  }
}
