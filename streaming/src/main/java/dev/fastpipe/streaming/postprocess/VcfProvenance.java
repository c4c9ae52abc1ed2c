package dev.fastpipe.streaming.postprocess;

import dev.fastpipe.streaming.FastpipeVersion;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.RunFiles;
import htsjdk.variant.vcf.VCFHeaderLine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where a VCF came from, written into its header (VCF and gVCF alike): {@code ##fileDate} (UTC,
 * yyyyMMdd), {@code ##source=fastpipe-VERSION}, {@code ##fastpipe_model=<ID=NAME,SHA256=HEX>},
 * {@code ##fastpipe_command=...} and {@code ##reference=file://...}. These lines differ from run
 * to run by design; {@link #isProvenanceLine} tells them apart for comparisons that expect two
 * runs' files to be identical otherwise.
 *
 * @param model the model directory's name and {@link #modelSha256 digest}; null: none written
 * @param command the command line as typed; null: none written
 * @param reference the reference FASTA; null: none written
 */
public record VcfProvenance(String version, LocalDate date, Model model, String command, Path reference) {

  /** The model that made the calls: its directory's name and the SHA-256 of its files ({@link #modelSha256}). */
  public record Model(String name, String sha256) {}

  /** The header keys this class writes. */
  public static final List<String> KEYS = List.of("fileDate", "source", "fastpipe_model", "fastpipe_command", "reference");

  /** This version, today (UTC), nothing else: what a writer gets when no provenance is given. */
  public static VcfProvenance minimal() {
    return new VcfProvenance(FastpipeVersion.get(), LocalDate.now(ZoneOffset.UTC), null, null, null);
  }

  /** This version, today (UTC), and what is known of the run (each may be null). */
  public static VcfProvenance of(Path modelDir, String command, Path reference) {
    Model m = modelDir == null ? null : new Model(name(modelDir), modelSha256(modelDir));
    return new VcfProvenance(FastpipeVersion.get(), LocalDate.now(ZoneOffset.UTC), m, command, reference);
  }

  private static String name(Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    return abs.getFileName() == null ? abs.toString() : abs.getFileName().toString();
  }

  /** The header lines, in the order written. */
  List<VCFHeaderLine> headerLines() {
    List<VCFHeaderLine> lines = new ArrayList<>();
    lines.add(new VCFHeaderLine("fileDate", date.format(DateTimeFormatter.BASIC_ISO_DATE)));
    lines.add(new VCFHeaderLine("source", "fastpipe-" + version));
    if (model != null) {
      lines.add(new VCFHeaderLine("fastpipe_model", "<ID=" + model.name() + ",SHA256=" + model.sha256() + ">"));
    }
    if (command != null) lines.add(new VCFHeaderLine("fastpipe_command", oneLine(command)));
    if (reference != null) lines.add(new VCFHeaderLine("reference", reference.toAbsolutePath().normalize().toUri().toString()));
    return lines;
  }

  /** A header value must stay on its line. */
  private static String oneLine(String text) {
    return text.replace('\n', ' ').replace('\r', ' ');
  }

  /** True for a header line this class writes (which two runs of the same calls need not share). */
  public static boolean isProvenanceLine(String line) {
    if (!line.startsWith("##")) return false;
    for (String k : KEYS) {
      if (line.startsWith("##" + k + "=")) return true;
    }
    return false;
  }

  /**
   * The SHA-256 of a model directory: of the text {@code sha256sum} prints for every regular file
   * under it that makes calls (all but documentation, {@code *.md}, and the top-level
   * {@code recipe/} that rebuilds it, so a documentation edit neither changes the VCF header nor
   * stops a {@code --resume}), by path relative to it ({@code ./saved_model.pb}) in byte order; so
   * {@code (cd DIR && find . -type f ! -name '*.md' ! -path './recipe/*' | LC_ALL=C sort | xargs sha256sum) | sha256sum}
   * gives the same hex. A file (not a directory) is digested alone, as {@code sha256sum FILE}'s hex.
   */
  public static String modelSha256(Path dir) {
    try {
      if (!Files.isDirectory(dir)) return HexFormat.of().formatHex(digest(dir));
      List<String> paths;
      try (Stream<Path> s = Files.walk(dir)) {
        paths = s.filter(Files::isRegularFile).map(p -> "./" + dir.relativize(p).toString().replace('\\', '/'))
            .filter(VcfProvenance::makesCalls).sorted(VcfProvenance::byBytes).toList();
      }
      MessageDigest all = sha256();
      for (String p : paths) {
        String line = HexFormat.of().formatHex(digest(dir.resolve(p.substring(2)))) + "  " + p + "\n";
        all.update(line.getBytes(StandardCharsets.UTF_8));
      }
      return HexFormat.of().formatHex(all.digest());
    } catch (IOException e) {
      throw InputException.reading(dir, "cannot read the model to record its checksum", e);
    }
  }

  /** A model file that takes part in calling: not documentation ({@code *.md}) and not under {@code ./recipe/}. */
  private static boolean makesCalls(String relative) {
    return !RunFiles.modelDocumentation(Path.of(relative));
  }

  private static int byBytes(String a, String b) {
    return java.util.Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] digest(Path file) throws IOException {
    MessageDigest md = sha256();
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
      in.transferTo(java.io.OutputStream.nullOutputStream());
    }
    return md.digest();
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
