package dev.fastpipe.inference;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the natives are taken from JavaCPP's cache, and in which order; and that TensorFlow works after {@link TensorFlowNatives#load}. */
class TensorFlowNativesTest {
  @TempDir Path dir;

  /** A native jar like tensorflow-core-native's: three libraries (sizes 30, 20, 10) and a licence. */
  private Path nativeJar() throws IOException {
    Path jar = dir.resolve("tensorflow-core-native-9.9.9-linux-x86_64.jar");
    try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(jar))) {
      entry(z, TensorFlowNatives.RESOURCE_DIR + "libtensorflow_cc.so.2", 30);
      entry(z, TensorFlowNatives.RESOURCE_DIR + "libjnitensorflow.so", 10);
      entry(z, TensorFlowNatives.RESOURCE_DIR + "libtensorflow_framework.so.2", 20);
      entry(z, TensorFlowNatives.RESOURCE_DIR + "LICENSE", 5);
    }
    return jar;
  }

  private static void entry(ZipOutputStream z, String name, int size) throws IOException {
    z.putNextEntry(new ZipEntry(name));
    z.write(new byte[size]);
    z.closeEntry();
  }

  private Path cache(Path jar, String file, int size) throws IOException {
    Path d = dir.resolve("cache").resolve(jar.getFileName().toString()).resolve(TensorFlowNatives.RESOURCE_DIR);
    Files.createDirectories(d);
    try (OutputStream out = Files.newOutputStream(d.resolve(file))) {
      out.write(new byte[size]);
    }
    return d.resolve(file);
  }

  private static URL jniIn(Path jar) throws IOException {
    return new URL("jar:" + jar.toUri() + "!/" + TensorFlowNatives.RESOURCE_DIR + TensorFlowNatives.JNI_LIBRARY);
  }

  @Test
  void aWholeCacheIsLoadedFrameworkFirstAndTheJniLibraryLast() throws IOException {
    Path jar = nativeJar();
    Path cc = cache(jar, "libtensorflow_cc.so.2", 30);
    Path jni = cache(jar, "libjnitensorflow.so", 10);
    Path framework = cache(jar, "libtensorflow_framework.so.2", 20);
    Optional<List<Path>> libs = TensorFlowNatives.cachedLibraries(jniIn(jar), dir.resolve("cache"));
    assertEquals(Optional.of(List.of(framework, cc, jni)), libs);
  }

  @Test
  void aMissingOrTruncatedLibraryLeavesTheLoadingToJavaCpp() throws IOException {
    Path jar = nativeJar();
    cache(jar, "libtensorflow_cc.so.2", 30);
    cache(jar, "libjnitensorflow.so", 10);
    assertTrue(TensorFlowNatives.cachedLibraries(jniIn(jar), dir.resolve("cache")).isEmpty(), "framework missing");
    cache(jar, "libtensorflow_framework.so.2", 19); // an extraction cut short
    assertTrue(TensorFlowNatives.cachedLibraries(jniIn(jar), dir.resolve("cache")).isEmpty(), "framework truncated");
    assertTrue(TensorFlowNatives.cachedLibraries(jniIn(jar), dir.resolve("elsewhere")).isEmpty(), "no cache");
  }

  @Test
  void aLibraryOutsideAJarIsNotTaken() throws IOException {
    Path file = dir.resolve(TensorFlowNatives.JNI_LIBRARY);
    Files.write(file, new byte[10]);
    assertTrue(TensorFlowNatives.cachedLibraries(file.toUri().toURL(), dir).isEmpty());
  }

  @Test
  void tensorFlowRunsAfterLoad() {
    TensorFlowNatives.load();
    assertTrue(TensorFlowRuntime.version().matches("\\d+\\.\\d+.*"), TensorFlowRuntime.version());
    String source = TensorFlowNatives.source();
    assertTrue(source.startsWith("cache ") || source.startsWith("JavaCPP"), source);
  }
}
