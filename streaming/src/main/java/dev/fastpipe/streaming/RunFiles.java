package dev.fastpipe.streaming;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The files of one run, declared by its command: every input (with the companions a reader opens
 * beside it: a FASTA's .fai/.gzi/.dict, the reads' index, the files a model directory's loaders
 * read), every file an output must not overwrite though the run does not read it (a model
 * directory's documentation and recipe), and every output (with the .tbi written beside an indexed
 * one). {@link Builder#check()} is the one
 * check, before any work, that no output is an input or another output, compared by file identity
 * (device and inode, so symlinks and hard links count; for a file not there yet, the real path of
 * its directory and its name), and that every output location takes a file
 * ({@link OutputFiles#checkWritable}). The checked value remembers each input's size and
 * modification time, so that {@link #requireInputsUnchanged()} can fail a run whose input changed
 * under it.
 */
public final class RunFiles {
  /** One declared file: the option that named it, and the path. */
  public record Declared(String option, Path path) {}

  private record Snapshot(Declared file, Object key, long size, long mtime) {}

  private final List<Declared> inputs;
  private final List<Declared> outputs;
  private final List<Snapshot> snapshots;

  private RunFiles(List<Declared> inputs, List<Declared> outputs, List<Snapshot> snapshots) {
    this.inputs = List.copyOf(inputs);
    this.outputs = List.copyOf(outputs);
    this.snapshots = List.copyOf(snapshots);
  }

  public static Builder builder() {
    return new Builder();
  }

  public List<Declared> inputs() {
    return inputs;
  }

  public List<Declared> outputs() {
    return outputs;
  }

  /**
   * Fails with a one-line {@link InputException} when an input that existed at {@link Builder#check}
   * is gone or has another size, modification time or identity now: a run that read a file being
   * rewritten must not publish results.
   */
  public void requireInputsUnchanged() {
    for (Snapshot s : snapshots) {
      Snapshot now = snapshot(s.file());
      String what = now == null ? "it is gone"
          : now.size() != s.size() ? "its size went from " + s.size() + " to " + now.size() + " bytes"
          : now.mtime() != s.mtime() ? "it was modified"
          : !Objects.equals(now.key(), s.key()) ? "it was replaced by another file"
          : null;
      if (what != null) {
        throw new InputException(s.file().option() + " " + s.file().path() + ": changed during the run (" + what
            + "); nothing was written, run again on the finished file");
      }
    }
  }

  /**
   * Whether a file of a model directory, by its path relative to the directory, documents the model
   * rather than makes calls: {@code *.md} anywhere, and everything under the top-level
   * {@code recipe/} that rebuilds it.
   */
  public static boolean modelDocumentation(Path relative) {
    Path rel = relative.normalize();
    return rel.getFileName().toString().endsWith(".md") || (rel.getNameCount() > 1 && rel.getName(0).toString().equals("recipe"));
  }

  /** The declaration, collected by a command; {@link #check} makes the checked {@link RunFiles}. */
  public static final class Builder {
    private final List<Declared> inputs = new ArrayList<>();
    private final List<Declared> outputs = new ArrayList<>();
    private final List<Declared> planned = new ArrayList<>(); // outputs whose directory is made later
    private final List<Declared> replacedDirs = new ArrayList<>();
    private final List<Declared> kept = new ArrayList<>(); // not read, but no output may overwrite them

    private Builder() {}

    /** An input file; null is ignored. */
    public Builder input(String option, Path p) {
      if (p != null) inputs.add(new Declared(option, p));
      return this;
    }

    /** Several input files of one option. */
    public Builder inputs(String option, List<Path> ps) {
      if (ps != null) ps.forEach(p -> input(option, p));
      return this;
    }

    /** A FASTA and the indexes read beside it (.fai, .gzi, .dict in both of htsjdk's spellings). */
    public Builder reference(String option, Path fasta) {
      if (fasta == null) return this;
      input(option, fasta);
      input(option + " index", sibling(fasta, ".fai"));
      input(option + " index", sibling(fasta, ".gzi"));
      input(option + " dictionary", sibling(fasta, ".dict"));
      String name = fasta.getFileName().toString().replaceFirst("\\.gz$", "");
      int dot = name.lastIndexOf('.');
      if (dot > 0) input(option + " dictionary", fasta.resolveSibling(name.substring(0, dot) + ".dict"));
      return this;
    }

    /** Reads (BAM/CRAM) and their index in every spelling a reader looks for. */
    public Builder reads(String option, Path reads) {
      if (reads == null) return this;
      input(option, reads);
      String name = reads.getFileName().toString();
      for (String ext : new String[] {".bai", ".crai", ".csi"}) {
        input(option + " index", sibling(reads, ext));
        int dot = name.lastIndexOf('.');
        if (dot > 0) input(option + " index", reads.resolveSibling(name.substring(0, dot) + ext));
      }
      return this;
    }

    /**
     * Every regular file under a model directory: inputs (saved_model.pb, variables/,
     * calibration.json, small_model.json, anything else a loader may read) except its documentation
     * ({@code *.md}) and its {@code recipe/}, which no output may overwrite either but which the run
     * does not read, so editing them neither fails a running call nor refuses its resume.
     */
    public Builder modelDirectory(String option, Path dir) {
      if (dir == null || !Files.isDirectory(dir)) return this;
      try (Stream<Path> files = Files.walk(dir)) {
        files.filter(Files::isRegularFile).forEach(f -> {
          if (modelDocumentation(dir.relativize(f))) kept.add(new Declared(option, f));
          else input(option, f);
        });
      } catch (IOException | java.io.UncheckedIOException e) {
        throw new InputException(option + " " + dir + ": cannot list the model directory (" + RootCause.of(e) + ")", e);
      }
      return this;
    }

    /** An output file; null is ignored. Its location is checked to take a file. */
    public Builder output(String option, Path p) {
      if (p != null) outputs.add(new Declared(option, p));
      return this;
    }

    /** A bgzipped, tabix-indexed output and its .tbi. */
    public Builder indexedOutput(String option, Path p) {
      if (p == null) return this;
      output(option, p);
      planned.add(new Declared(option + " index", sibling(p, ".tbi")));
      return this;
    }

    /**
     * An output whose directory the command creates later (e.g. {@code plan --output-dir}): compared
     * with the inputs and the other outputs, not checked for writability here.
     */
    public Builder plannedOutput(String option, Path p) {
      if (p != null) planned.add(new Declared(option, p));
      return this;
    }

    /** A directory the command writes afresh as a whole (e.g. a model directory): no input may lie in it. */
    public Builder replacedDirectory(String option, Path dir) {
      if (dir != null) replacedDirs.add(new Declared(option, dir));
      return this;
    }

    /**
     * The one check before any work: every output location takes a file, no output is an input,
     * no two outputs are one file. Throws {@link InputException} naming both options and the file.
     */
    public RunFiles check() {
      for (Declared o : outputs) OutputFiles.checkWritable(o.path(), o.option());
      for (Declared o : planned) OutputFiles.checkNotSpecial(o.path(), o.option());
      List<Declared> allOutputs = new ArrayList<>(outputs);
      allOutputs.addAll(planned);
      List<Declared> guarded = new ArrayList<>(inputs);
      guarded.addAll(kept);
      List<Identity> inIds = guarded.stream().map(Identity::of).toList();
      List<Identity> outIds = allOutputs.stream().map(Identity::of).toList();
      Map<Object, Declared> seen = new HashMap<>(); // by identity: a plan may declare thousands of outputs
      for (int i = 0; i < outIds.size(); i++) {
        Declared o = allOutputs.get(i);
        for (int j = 0; j < inIds.size(); j++) {
          // an input that is not there (an index spelling the reader does not find) cannot be overwritten
          if (inIds.get(j).key() != null && outIds.get(i).same(inIds.get(j))) {
            Declared in = guarded.get(j);
            throw new InputException(o.option() + " " + o.path() + ": is the same file as " + in.option() + " "
                + in.path() + "; an output must not overwrite an input");
          }
        }
        Declared other = seen.putIfAbsent(outIds.get(i).file(), o);
        if (other != null) {
          throw new InputException(o.option() + " " + o.path() + ": is the same file as " + other.option() + " "
              + other.path() + "; every output needs a file of its own");
        }
      }
      for (Declared d : replacedDirs) {
        Path real;
        try {
          real = d.path().toRealPath();
        } catch (IOException notThere) {
          continue; // a directory that does not exist yet holds no input
        }
        for (Declared in : guarded) {
          Identity id = Identity.of(in);
          if (id.name().startsWith(real)) {
            throw new InputException(d.option() + " " + d.path() + ": holds " + in.option() + " " + in.path()
                + ", and the directory is replaced; write the output elsewhere");
          }
        }
      }
      List<Snapshot> snaps = new ArrayList<>();
      for (Declared in : inputs) {
        Snapshot s = snapshot(in);
        if (s != null) snaps.add(s);
      }
      return new RunFiles(inputs, allOutputs, snaps);
    }
  }

  /**
   * What makes two paths one file: for a file that exists (following symlinks), its file key
   * (device + inode on Linux) and real path; for one not there yet, the real path of its directory
   * plus its name (so {@code a/../b/x} and a symlinked directory compare equal).
   */
  record Identity(Object key, Path name) {
    static Identity of(Declared d) {
      Path abs = d.path().toAbsolutePath().normalize();
      try {
        BasicFileAttributes a = Files.readAttributes(abs, BasicFileAttributes.class);
        return new Identity(a.fileKey(), abs.toRealPath());
      } catch (IOException | SecurityException notThere) {
        // not there yet (or a dangling link): its directory's real path + name
      }
      Path target = abs;
      try {
        if (Files.isSymbolicLink(abs)) target = abs.resolveSibling(Files.readSymbolicLink(abs)).normalize();
      } catch (IOException ignored) {
        // keep the link's own name
      }
      Path dir = target.getParent();
      try {
        if (dir != null) return new Identity(null, dir.toRealPath().resolve(target.getFileName()));
      } catch (IOException noDir) {
        // a directory that does not exist yet: compare the normalized name
      }
      return new Identity(null, target);
    }

    boolean same(Identity o) {
      if (key != null && o.key != null) return key.equals(o.key);
      return name.equals(o.name);
    }

    /**
     * What {@link #same} compares, as one value to hash: two paths of one file are either both there
     * (their file key) or both not yet (their name).
     */
    Object file() {
      return key != null ? key : name;
    }
  }

  private static Snapshot snapshot(Declared d) {
    try {
      BasicFileAttributes a = Files.readAttributes(d.path(), BasicFileAttributes.class);
      if (!a.isRegularFile()) return null;
      return new Snapshot(d, a.fileKey(), a.size(), a.lastModifiedTime().toMillis());
    } catch (IOException | SecurityException e) {
      return null;
    }
  }

  private static Path sibling(Path p, String suffix) {
    return p.resolveSibling(p.getFileName() + suffix);
  }
}
