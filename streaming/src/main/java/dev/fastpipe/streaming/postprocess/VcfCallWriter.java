package dev.fastpipe.streaming.postprocess;

import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.OutputFiles;
import dev.fastpipe.streaming.RootCause;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.variant.variantcontext.Allele;
import htsjdk.variant.variantcontext.GenotypeBuilder;
import htsjdk.variant.variantcontext.VariantContextBuilder;
import htsjdk.samtools.util.BlockCompressedOutputStream;
import htsjdk.tribble.Feature;
import htsjdk.tribble.index.Index;
import htsjdk.tribble.index.tabix.TabixFormat;
import htsjdk.tribble.index.tabix.TabixIndexCreator;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.variantcontext.writer.VariantContextWriter;
import htsjdk.variant.variantcontext.writer.VariantContextWriterBuilder;
import htsjdk.variant.vcf.VCFEncoder;
import htsjdk.variant.vcf.VCFFilterHeaderLine;
import htsjdk.variant.vcf.VCFFormatHeaderLine;
import htsjdk.variant.vcf.VCFHeader;
import htsjdk.variant.vcf.VCFHeaderLine;
import htsjdk.variant.vcf.VCFHeaderLineCount;
import htsjdk.variant.vcf.VCFHeaderLineType;
import htsjdk.variant.vcf.VCFInfoHeaderLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;
import htsjdk.samtools.util.BlockCompressedInputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes {@link GenotypeCall}s, in sorted order, to a bgzipped VCF with a tabix index built on
 * the fly (htsjdk's header writer, {@link VCFEncoder} for the records, its BGZF stream and tabix
 * index creator: the bytes htsjdk's own VCF writer makes, without its per-record overhead where
 * it is not needed). Everything goes to a temporary name beside the output ({@code .NAME.tmp-PID.vcf.gz}
 * and its {@code .tbi}); {@link #close()} renames both into place, {@link #abort()} deletes them,
 * so a failed run leaves nothing under the final name.
 *
 * <p>Header: the run's {@link VcfProvenance} (date, version, model, command, reference), every
 * contig of the reference dictionary, FILTERs RefCall and LowQual, FORMAT GT, GQ, DP, AD, VAF, PL
 * (records carry them as htsjdk orders them: GT:AD:DP:GQ:PL:VAF); one sample.
 *
 * <p>As a gVCF writer ({@link #gvcf}) it also writes {@link RefBlock}s ({@code REF <*>} with
 * {@code END}, GT 0/0 or ./., GQ, MIN_DP, PL; QUAL 0, no FILTER), and every variant record gets the
 * {@code <*>} allele appended to ALT, with AD and VAF 0 and PL 990 for the genotypes that carry it
 * (DeepVariant's gVCF convention). The header then declares ALT {@code *}, INFO END and FORMAT
 * MIN_DP too. Removing the {@code <*>} again gives exactly the VCF's record. A haploid call or block
 * ({@link GenotypeCall#haploid}, {@link RefBlock#haploid}) has a GT of one allele and one PL per
 * allele ({@code 0}, {@code <*>} for a block).
 */
public final class VcfCallWriter implements AutoCloseable, GvcfAssembler.Sink {
  /** The PL of a genotype that carries the {@code <*>} allele at a variant record. */
  public static final int NON_REF_PL = 990;
  private static final Allele NON_REF = Allele.create("<*>", false);

  /**
   * What one {@link #sync} made durable: bytes [from, to) of the file, complete BGZF blocks, and
   * their CRC32C.
   */
  public record Synced(long from, long to, long crc32c) {}

  private final Path output;
  private final Path tmp; // null: standard output; the partial file of a journaled writer
  private final boolean journaled;
  private final FileChannel channel; // journaled: the partial file
  private final CrcStream stream; // journaled: what the BGZF stream writes into the channel
  private final long offset; // journaled: bytes of the file before this writer's stream
  private long syncedTo;
  /** What the output name asks for: bgzipped + .tbi, plain text, or standard output ({@code -}). */
  private final Form form;
  private final SAMSequenceDictionary dictionary;
  private final String sample;
  private final BlockCompressedOutputStream bgzf; // null unless BGZF
  private final java.io.OutputStream out; // bgzf, a plain file's stream or standard output
  private final TabixIndexCreator index; // null unless BGZF
  private final TabixRecordCounts.Counter counts = new TabixRecordCounts.Counter();
  private final VCFEncoder encoder;
  private final StringBuilder line = new StringBuilder(256);
  private final boolean gvcf;
  private long blocks;
  private int lastContig = -1;
  private int lastPosition = -1;
  private volatile long written; // read live by the run's sampler
  private long pass;
  private long refCall;
  private boolean finished; // the file is complete under its temporary name
  private boolean closed; // published or aborted

  public VcfCallWriter(Path output, SAMSequenceDictionary dictionary, String sample, double minQual) {
    this(output, dictionary, sample, minQual, false);
  }

  /** A VCF writer, or with {@code gvcf} a gVCF writer. */
  public VcfCallWriter(Path output, SAMSequenceDictionary dictionary, String sample, double minQual, boolean gvcf) {
    this(output, dictionary, sample, minQual, gvcf, VcfProvenance.minimal());
  }

  /** A VCF writer, or with {@code gvcf} a gVCF writer, whose header records {@code provenance}. */
  public VcfCallWriter(Path output, SAMSequenceDictionary dictionary, String sample, double minQual, boolean gvcf,
      VcfProvenance provenance) {
    this.gvcf = gvcf;
    this.form = Form.of(output);
    this.output = form == Form.STDOUT ? output : output.toAbsolutePath();
    this.dictionary = dictionary;
    this.sample = sample;
    this.journaled = false;
    this.channel = null;
    this.stream = null;
    this.offset = 0;
    if (form == Form.STDOUT) {
      this.tmp = null;
    } else {
      this.tmp = OutputFiles.temporary(this.output, form == Form.BGZF ? ".vcf.gz" : ".vcf");
      OutputFiles.removeDeadTemporaries(this.output); // left by a run that was killed -9
      deleteQuietly(tmp);
      deleteQuietly(indexOf(tmp));
      try {
        Files.createFile(tmp); // the real reason (read-only, no space, no such directory), before htsjdk hides it
      } catch (IOException e) {
        throw new UncheckedIOException(output + ": cannot write (" + RootCause.of(e) + ")", e);
      }
    }
    java.io.OutputStream o = null;
    BlockCompressedOutputStream b = null;
    try {
      switch (form) {
        case BGZF -> o = b = new BlockCompressedOutputStream(tmp, BlockCompressedOutputStream.getDefaultCompressionLevel(),
            BlockCompressedOutputStream.getDefaultDeflaterFactory());
        case PLAIN -> o = new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16);
        case STDOUT -> o = new java.io.BufferedOutputStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), 1 << 16);
      }
      VCFHeader h = header(dictionary, sample, minQual, gvcf, provenance);
      o.write(headerText(h));
      this.encoder = new VCFEncoder(h, false, false);
      this.index = form == Form.BGZF ? new TabixIndexCreator(dictionary, TabixFormat.VCF) : null;
    } catch (IOException | RuntimeException e) {
      if (o != null && form != Form.STDOUT) closeQuietly(o);
      if (tmp != null) {
        deleteQuietly(tmp);
        deleteQuietly(indexOf(tmp));
      }
      throw failure(e);
    }
    this.bgzf = b;
    this.out = o;
  }

  /**
   * The forms of output a name asks for: {@code .vcf.gz} (bgzipped, with a tabix index), {@code .vcf}
   * (plain text, no index), {@code -} (standard output, plain, no index, not transactional: records
   * go out as they are released).
   */
  public enum Form {
    BGZF, PLAIN, STDOUT;

    /** The form of {@code output}, or an {@link InputException} naming what the name must end with. */
    public static Form of(Path output) {
      String name = output.toString();
      if (name.equals("-")) return STDOUT;
      if (name.endsWith(".vcf.gz")) return BGZF;
      if (name.endsWith(".vcf")) return PLAIN;
      throw new InputException(output + ": output must end with .vcf.gz (bgzipped, indexed), .vcf (plain), or be - (stdout)");
    }
  }

  /** The form this writer writes. */
  public Form form() {
    return form;
  }

  /** The header's lines as htsjdk's VCF writer writes them. */
  private static byte[] headerText(VCFHeader header) {
    java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
    VariantContextWriter w = new VariantContextWriterBuilder().setOutputVCFStream(text)
        .unsetOption(htsjdk.variant.variantcontext.writer.Options.INDEX_ON_THE_FLY).build();
    w.writeHeader(header);
    w.close();
    return text.toByteArray();
  }

  /** A write failure as one line naming the output and the root cause (e.g. No space left on device). */
  private UncheckedIOException failure(Exception e) {
    return new UncheckedIOException(output + ": cannot write (" + RootCause.of(e) + ")",
        e instanceof IOException io ? io : e.getCause() instanceof IOException io ? io : new IOException(e));
  }

  /**
   * A writer of a resumable run: it writes {@code partial} (a name no other run removes) and
   * {@link #sync}s it at checkpoints. With {@code keepBytes} < 0 the file is written afresh; else
   * its first {@code keepBytes} bytes (complete BGZF blocks that a journal vouches for: header and
   * records) are kept, read once to index them and count their records, and the rest is cut off
   * and written anew. {@link #abort} keeps the file for a later resume.
   */
  public static VcfCallWriter journaled(Path output, Path partial, long keepBytes, SAMSequenceDictionary dictionary,
      String sample, double minQual, boolean gvcf, VcfProvenance provenance) {
    return new VcfCallWriter(output, partial, keepBytes, dictionary, sample, minQual, gvcf, provenance);
  }

  private VcfCallWriter(Path output, Path partial, long keepBytes, SAMSequenceDictionary dictionary, String sample,
      double minQual, boolean gvcf, VcfProvenance provenance) {
    this.gvcf = gvcf;
    this.form = Form.of(output);
    if (form != Form.BGZF) throw new IllegalArgumentException(output + ": only a .vcf.gz output is journaled");
    this.output = output.toAbsolutePath();
    this.dictionary = dictionary;
    this.sample = sample;
    this.journaled = true;
    this.tmp = partial.toAbsolutePath();
    FileChannel ch = null;
    try {
      deleteQuietly(indexOf(tmp));
      VCFHeader h = header(dictionary, sample, minQual, gvcf, provenance);
      TabixIndexCreator idx = new TabixIndexCreator(dictionary, TabixFormat.VCF);
      if (keepBytes < 0) {
        ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ,
            StandardOpenOption.TRUNCATE_EXISTING);
        this.offset = 0;
      } else {
        ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.READ);
        if (ch.size() < keepBytes) throw new IOException("shorter (" + ch.size() + " bytes) than the " + keepBytes + " kept");
        ch.truncate(keepBytes);
        scanKept(idx);
        ch.position(keepBytes);
        this.offset = keepBytes;
      }
      this.syncedTo = offset;
      this.channel = ch;
      this.stream = new CrcStream(ch);
      this.bgzf = new BlockCompressedOutputStream(stream, (Path) null, BlockCompressedOutputStream.getDefaultCompressionLevel(),
          BlockCompressedOutputStream.getDefaultDeflaterFactory());
      this.out = bgzf;
      if (keepBytes < 0) bgzf.write(headerText(h));
      this.encoder = new VCFEncoder(h, false, false);
      this.index = idx;
    } catch (IOException | RuntimeException e) {
      if (ch != null) closeQuietly(ch);
      throw new UncheckedIOException(output + ": cannot write the partial file " + partial + " (" + RootCause.of(e) + ")",
          e instanceof IOException io ? io : new IOException(e));
    }
  }

  /** Indexes and counts the records of the kept part of a resumed partial file. */
  private void scanKept(TabixIndexCreator idx) throws IOException {
    try (BlockCompressedInputStream in = new BlockCompressedInputStream(Files.newInputStream(tmp))) {
      while (true) {
        long at = in.getFilePointer();
        String l = in.readLine();
        if (l == null) break;
        if (l.isEmpty() || l.charAt(0) == '#') continue;
        String[] f = l.split("\t", 9);
        if (f.length < 8) throw new IOException("a record of " + f.length + " columns in the kept part");
        int start = Integer.parseInt(f[1]);
        int end = start + f[3].length() - 1;
        int e = f[7].startsWith("END=") ? 4 : f[7].contains(";END=") ? f[7].indexOf(";END=") + 5 : -1;
        if (e >= 0) {
          int stop = f[7].indexOf(';', e);
          end = Integer.parseInt(stop < 0 ? f[7].substring(e) : f[7].substring(e, stop));
        }
        int contig = dictionary.getSequenceIndex(f[0]);
        if (contig < 0) throw new IOException("contig " + f[0] + " of the kept part is not in the reference");
        idx.addFeature(new Span(f[0], start, end), at);
        counts.add(f[0], at, in.getFilePointer());
        lastContig = contig;
        lastPosition = start - 1;
        written++;
        if (gvcf && f[4].equals("<*>")) blocks++;
        else if (f[6].equals(GenotypeCall.PASS)) pass++;
        else if (f[6].equals(GenotypeCall.REF_CALL)) refCall++;
      }
    } catch (NumberFormatException e) {
      throw new IOException("a record of the kept part does not parse (" + e.getMessage() + ")", e);
    }
    lastContig = -1; // the next record may be a held block that starts before the last kept one ends
    lastPosition = -1;
  }

  /**
   * Journaled writers: writes what is buffered as complete BGZF blocks and forces it to disk;
   * returns the bytes made durable since the previous sync (the file is valid up to {@code to}).
   */
  public Synced sync() {
    if (!journaled) throw new IllegalStateException(output + ": only a journaled writer syncs");
    try {
      bgzf.flush();
      channel.force(false);
    } catch (IOException | RuntimeException e) {
      throw failure(e);
    }
    Synced s = new Synced(syncedTo, offset + stream.count, stream.takeCrc());
    syncedTo = s.to();
    return s;
  }

  /** Counts and checksums what the BGZF stream writes to the partial file's channel. */
  private static final class CrcStream extends java.io.OutputStream {
    private final FileChannel ch;
    private final CRC32C crc = new CRC32C();
    private long count;

    CrcStream(FileChannel ch) {
      this.ch = ch;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b, off, len);
      while (buf.hasRemaining()) ch.write(buf);
      crc.update(b, off, len);
      count += len;
    }

    /** The CRC32C of the bytes since the last call, restarted. */
    long takeCrc() {
      long v = crc.getValue();
      crc.reset();
      return v;
    }

    @Override
    public void close() throws IOException {
      ch.close();
    }
  }

  private static void closeQuietly(java.io.Closeable out) {
    try {
      out.close();
    } catch (IOException | RuntimeException ignored) {
      // the file is deleted anyway
    }
  }

  /** Writes the record in {@link #line} (no newline yet) and indexes it as [start, end], 1-based. */
  private void emit(String contig, int start, int end) {
    line.append('\n');
    try {
      byte[] bytes = line.toString().getBytes(StandardCharsets.UTF_8);
      if (index == null) {
        out.write(bytes);
        return;
      }
      long at = (offset << 16) + bgzf.getFilePointer();
      bgzf.write(bytes);
      index.addFeature(new Span(contig, start, end), at);
      counts.add(contig, at, (offset << 16) + bgzf.getFilePointer());
    } catch (IOException | RuntimeException e) {
      throw failure(e);
    }
  }

  /** A record's extent, for the tabix index. */
  private record Span(String getContig, int getStart, int getEnd) implements Feature {}

  static VCFHeader header(SAMSequenceDictionary dictionary, String sample, double minQual, boolean gvcf,
      VcfProvenance provenance) {
    Set<VCFHeaderLine> lines = new LinkedHashSet<>(provenance.headerLines());
    if (gvcf) {
      lines.add(new VCFHeaderLine("ALT", "<ID=*,Description=\"Represents any possible alternative allele not already"
          + " represented at this location by REF and ALT\">"));
      lines.add(new VCFInfoHeaderLine("END", 1, VCFHeaderLineType.Integer, "Stop position of the interval"));
      lines.add(new VCFFormatHeaderLine("MIN_DP", 1, VCFHeaderLineType.Integer, "Minimum DP observed within the GVCF block."));
    }
    lines.add(new VCFFilterHeaderLine(GenotypeCall.REF_CALL, "Genotyping model thinks this site is reference."));
    lines.add(new VCFFilterHeaderLine(GenotypeCall.LOW_QUAL, "Confidence in this variant being real is below calling threshold (QUAL < " + minQual + ")."));
    lines.add(new VCFFormatHeaderLine("GT", 1, VCFHeaderLineType.String, "Genotype"));
    lines.add(new VCFFormatHeaderLine("GQ", 1, VCFHeaderLineType.Integer, "Conditional genotype quality"));
    lines.add(new VCFFormatHeaderLine("DP", 1, VCFHeaderLineType.Integer, "Read depth"));
    lines.add(new VCFFormatHeaderLine("AD", VCFHeaderLineCount.R, VCFHeaderLineType.Integer, "Read depth for each allele"));
    lines.add(new VCFFormatHeaderLine("VAF", VCFHeaderLineCount.A, VCFHeaderLineType.Float, "Variant allele fractions."));
    lines.add(new VCFFormatHeaderLine("PL", VCFHeaderLineCount.G, VCFHeaderLineType.Integer, "Phred-scaled genotype likelihoods rounded to the closest integer"));
    VCFHeader header = new VCFHeader(lines, List.of(sample));
    header.setSequenceDictionary(dictionary);
    return header;
  }

  /** Appends one call; calls must come sorted by contig index then position. */
  @Override
  public void write(GenotypeCall call) {
    String contig = inOrder(call.contigIndex(), call.position());
    List<Allele> alleles = new ArrayList<>(1 + call.alts().size());
    alleles.add(Allele.create(call.ref(), true));
    for (String a : call.alts()) alleles.add(Allele.create(a, false));
    List<Allele> gt = new ArrayList<>(2);
    for (int i : call.genotype()) gt.add(i < 0 ? Allele.NO_CALL : alleles.get(i));
    int[] pl = call.pl();
    if (gvcf) {
      // the genotypes that carry <*>: a/<*> for a = 0..<*>, or <*> alone where the call is haploid
      pl = java.util.Arrays.copyOf(pl, pl.length + (call.haploid() ? 1 : alleles.size() + 1));
      java.util.Arrays.fill(pl, call.pl().length, pl.length, NON_REF_PL);
    }
    GenotypeBuilder g = new GenotypeBuilder(sample, gt).GQ(call.gq()).DP(call.depth()).PL(pl);
    if (call.alleleDepths().length == alleles.size()) {
      g.AD(gvcf ? java.util.Arrays.copyOf(call.alleleDepths(), alleles.size() + 1) : call.alleleDepths());
      double[] vaf = call.variantAlleleFractions();
      if (vaf.length > 0) {
        List<Double> rounded = new ArrayList<>(vaf.length + 1);
        for (double v : vaf) rounded.add(Math.round(v * 1e4) / 1e4);
        if (gvcf) rounded.add(0.0);
        g.attribute("VAF", rounded);
      }
    }
    if (gvcf) alleles.add(NON_REF);
    int start = call.position() + 1;
    VariantContextBuilder vc =
        new VariantContextBuilder("fastpipe", contig, start, start + call.ref().length() - 1, alleles)
            .log10PError(-Math.round(call.qual() * 100) / 1000.0)
            .genotypes(g.make());
    if (GenotypeCall.PASS.equals(call.filter())) vc.passFilters();
    else vc.filter(call.filter());
    VariantContext v = vc.make();
    line.setLength(0);
    try {
      encoder.write(line, v);
    } catch (IOException e) {
      throw failure(e);
    }
    emit(contig, v.getStart(), v.getEnd());
    written++;
    if (GenotypeCall.PASS.equals(call.filter())) pass++;
    else if (GenotypeCall.REF_CALL.equals(call.filter())) refCall++;
  }

  private String inOrder(int contigIndex, int position) {
    if (contigIndex < 0 || contigIndex >= dictionary.size()) {
      throw new IllegalArgumentException(
          "contig index " + contigIndex + " is not in the reference (" + dictionary.size() + " contigs)");
    }
    if (contigIndex < lastContig || (contigIndex == lastContig && position < lastPosition)) {
      throw new IllegalStateException("records out of order at contig " + contigIndex + " position " + position);
    }
    lastContig = contigIndex;
    lastPosition = position;
    return dictionary.getSequence(contigIndex).getSequenceName();
  }

  /** Appends one reference block (gVCF writers only), in order with the calls. */
  @Override
  public void write(RefBlock block) {
    if (!gvcf) throw new IllegalStateException(output + ": reference blocks go to a gVCF writer only");
    String contig = inOrder(block.contigIndex(), block.start());
    byte base = block.refBase();
    if (base >= 'a' && base <= 'z') base -= 32;
    int[] pl = block.pl();
    line.setLength(0);
    line.append(contig).append('\t').append(block.start() + 1).append("\t.\t").append((char) base)
        .append("\t<*>\t0\t.\tEND=").append(block.end()).append("\tGT:GQ:MIN_DP:PL\t");
    if (block.haploid()) line.append(block.called() ? "0:" : ".:");
    else line.append(block.called() ? "0/0:" : "./.:");
    line.append(block.minGq()).append(':').append(block.minDp()).append(':').append(pl[0]).append(',').append(pl[1]);
    if (!block.haploid()) line.append(',').append(pl[2]);
    emit(contig, block.start() + 1, block.end());
    written++;
    blocks++;
  }

  /** Reference blocks written (gVCF). */
  public long blocks() {
    return blocks;
  }

  /** Records written. */
  public long written() {
    return written;
  }

  /** Records written with FILTER PASS. */
  public long pass() {
    return pass;
  }

  /** Records written with FILTER RefCall. */
  public long refCall() {
    return refCall;
  }

  /** Records written with FILTER LowQual (every record is PASS, RefCall or LowQual). */
  public long lowQual() {
    return written - pass - refCall;
  }

  /** Finishes the file and index and renames them to the output name. */
  @Override
  public void close() {
    finish();
    publish();
  }

  /** Finishes the file and its index under the temporary name: nothing is under the output name yet. */
  public void finish() {
    if (finished || closed) return;
    try {
      if (form == Form.BGZF) {
        Index idx = index.finalizeIndex((offset << 16) + bgzf.getFilePointer());
        bgzf.close(); // the BGZF end-of-file block
        idx.write(indexOf(tmp));
        TabixRecordCounts.add(indexOf(tmp), counts.spans()); // for bcftools index -n / -s
      } else if (form == Form.PLAIN) {
        out.close();
      } else {
        out.flush(); // standard output stays open
      }
    } catch (IOException | RuntimeException e) {
      abort();
      throw failure(e);
    }
    finished = true;
  }

  /**
   * The finished file under its temporary name (until the outputs are committed), for a reader that
   * wants the records as written ({@code call --report}'s callset QC); empty for standard output or
   * before {@link #finish}.
   */
  public java.util.Optional<Path> finishedFile() {
    return finished && tmp != null && Files.exists(tmp) ? java.util.Optional.of(tmp) : java.util.Optional.empty();
  }

  /** Renames the {@link #finish finished} file and index to the output name. */
  public void publish() {
    publishBoth(this, null);
  }

  /**
   * Finishes the file and index and stages both in {@code tx} ({@link OutputFiles.Transaction}): they
   * appear under the output name when the run's outputs are committed together, and are deleted
   * when the transaction closes without a commit.
   */
  public void stage(OutputFiles.Transaction tx) {
    finish();
    if (closed) return;
    closed = true;
    if (form == Form.STDOUT) return; // written already
    Path idx = indexOf(tmp);
    if (Files.exists(idx)) tx.stage(idx, indexOf(output));
    tx.stage(tmp, output);
  }

  /**
   * Checks a gVCF output name before any work: it ends with .vcf.gz (where it may go, and that it is
   * no input and not the VCF, is {@link dev.fastpipe.streaming.RunFiles}' check); throws
   * {@link InputException} naming it.
   */
  public static void checkGvcfName(Path gvcf) {
    if (!gvcf.getFileName().toString().endsWith(".vcf.gz")) {
      throw new InputException("--gvcf " + gvcf + ": must end with .vcf.gz: the gVCF is written bgzipped with a .tbi index"
          + " (name it like OUT.g.vcf.gz)");
    }
  }

  /**
   * Puts {@code vcf} and {@code gvcf} (may be null) under their final names, both or neither: both
   * files are finished first, then renamed as one {@link OutputFiles.Transaction}.
   */
  public static void publishBoth(VcfCallWriter vcf, VcfCallWriter gvcf) {
    try (OutputFiles.Transaction tx = new OutputFiles.Transaction()) {
      vcf.stage(tx);
      if (gvcf != null) gvcf.stage(tx);
      tx.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }

  /** Drops the partial output (nothing appears under the final name). */
  public void abort() {
    if (closed) return;
    closed = true;
    if (journaled) { // the partial file stays for a resume, which trusts only its synced part
      if (!finished) closeQuietly(channel);
      return;
    }
    if (form == Form.STDOUT) {
      try {
        out.flush(); // what was released is out already; the exit status says the run failed
      } catch (IOException ignored) {
        // a closed pipe
      }
      return;
    }
    if (!finished) closeQuietly(out); // the partial file is deleted below either way
    deleteQuietly(tmp);
    deleteQuietly(indexOf(tmp));
  }

  private static Path indexOf(Path vcf) {
    return vcf.resolveSibling(vcf.getFileName() + ".tbi");
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // best effort
    }
  }
}
