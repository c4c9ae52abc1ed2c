package dev.fastpipe.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Locates {@code ../shared/data} (the project's data sets, read in place). CI clones the repo with
 * {@code shared/} beside it; tests that need the data skip, not fail, when it is absent.
 * {@code FASTPIPE_SHARED} overrides the search.
 */
public final class SharedData {
  private SharedData() {}

  public static Optional<Path> root() {
    String env = System.getenv("FASTPIPE_SHARED");
    if (env != null && Files.isDirectory(Path.of(env, "data"))) return Optional.of(Path.of(env));
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("shared");
      if (Files.isDirectory(candidate.resolve("data"))) return Optional.of(candidate);
    }
    return Optional.empty();
  }

  /** A path under shared/data, or skips the calling test when shared/ is not there. */
  public static Path require(String relative) {
    Optional<Path> root = root();
    assumeTrue(root.isPresent(), "../shared/data not present; skipping");
    Path p = root.get().resolve("data").resolve(relative);
    assumeTrue(Files.exists(p), p + " not present; skipping");
    return p;
  }
}
