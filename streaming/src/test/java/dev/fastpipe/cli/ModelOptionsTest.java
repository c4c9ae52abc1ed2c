package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A damaged model directory is one line naming --model and the directory, before any work. */
class ModelOptionsTest {
  static final Path MODEL = Path.of("").toAbsolutePath().getParent().resolve(ModelOptions.SHIPPED_MODEL);

  @Test
  void emptyWeightsAreOneLineNamingTheDirectory(@TempDir Path tmp) throws IOException {
    Path copy = tmp.resolve("model");
    try (Stream<Path> files = Files.walk(MODEL)) {
      for (Path f : files.toList()) Files.copy(f, copy.resolve(MODEL.relativize(f).toString()));
    }
    Path data;
    try (Stream<Path> vars = Files.list(copy.resolve("variables"))) {
      data = vars.filter(p -> p.getFileName().toString().startsWith("variables.data")).findFirst().orElseThrow();
    }
    Files.write(data, new byte[0]); // TensorFlow says "Read less bytes than requested\n\t [[{{node save/Restore}}]]"
    UserError e = assertThrows(UserError.class, () -> new ModelOptions().load(copy));
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    assertTrue(e.getMessage().startsWith("--model " + copy + ": cannot load the SavedModel"), e.getMessage());
  }
}
