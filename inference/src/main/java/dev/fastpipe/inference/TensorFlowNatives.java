package dev.fastpipe.inference;

import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Loads TensorFlow's native libraries straight from JavaCPP's cache when an earlier run has
 * extracted them there whole.
 *
 * <p>Why: the first use of a TensorFlow class makes JavaCPP's {@code Loader} load the preset's
 * libraries, and it first looks for each of the preset's ~17 CUDA libraries (cudart, cublas,
 * cudnn...) in every jar of the class path and every directory of {@code java.library.path}, on a
 * CPU-only machine in vain. Measured on the 2-core AMD EPYC (AVX-512, no AMX) with the launcher's
 * class path, 3 runs each: loading the natives cost 0.95-1.02 CPU-s that way, 0.55-0.69 CPU-s
 * (all of it the dynamic linker and TensorFlow's own initialisers) loaded from the cache directly.
 * That is a tenth of a small {@code call}'s CPU.
 *
 * <p>How: the libraries ({@code org/tensorflow/internal/c_api/<platform>/*.so*} of the
 * tensorflow-core-native jar on the class path) are taken only when every one of them is in the
 * cache ({@code org.bytedeco.javacpp.cachedir}, else {@code ~/.javacpp/cache}, then the jar's
 * name, as JavaCPP lays it out) with the jar entry's size. They are then loaded with
 * {@link System#load} in dependency order and JavaCPP is told not to load libraries itself
 * ({@code org.bytedeco.javacpp.loadLibraries=false}). In every other case (first run, another
 * platform, a cache of another version or an incomplete one, {@code -Dfastpipe.tensorflow.preload=false})
 * nothing is done here and JavaCPP loads as it always does, filling the cache for the next run.
 */
public final class TensorFlowNatives {
  /** Where the preset's native libraries sit inside the tensorflow-core-native jar. */
  static final String RESOURCE_DIR = "org/tensorflow/internal/c_api/linux-x86_64/";
  /** The library every other one needs: found to locate the jar. */
  static final String JNI_LIBRARY = "libjnitensorflow.so";

  private static boolean tried;
  private static String source = "not loaded";

  private TensorFlowNatives() {}

  /**
   * Loads the natives from the cache if they are there whole (see the class comment); otherwise
   * leaves them to JavaCPP. Call before the first TensorFlow class is used; later calls do nothing.
   * Either way the natives are loaded when it returns, and {@link TensorFlowLogging#apply} has set
   * Abseil's log level, so no TensorFlow start-up line reaches stderr unless asked for.
   */
  public static synchronized void load() {
    if (tried) return;
    tried = true;
    loadNatives();
    if (!source.startsWith("cache ")) org.tensorflow.TensorFlow.version(); // JavaCPP loads them now
    TensorFlowLogging.apply();
  }

  private static void loadNatives() {
    if (!Boolean.parseBoolean(System.getProperty("fastpipe.tensorflow.preload", "true"))) {
      source = "JavaCPP (preload off)";
      return;
    }
    URL jni = TensorFlowNatives.class.getClassLoader().getResource(RESOURCE_DIR + JNI_LIBRARY);
    Optional<List<Path>> cached = jni == null ? Optional.empty() : cachedLibraries(jni, cacheRoot());
    if (cached.isEmpty()) {
      source = "JavaCPP";
      return;
    }
    String before = System.getProperty("org.bytedeco.javacpp.loadLibraries");
    System.setProperty("org.bytedeco.javacpp.loadLibraries", "false");
    try {
      for (Path lib : cached.get()) System.load(lib.toString());
      source = "cache " + cached.get().get(0).getParent();
    } catch (UnsatisfiedLinkError e) {
      // Leave what is loaded loaded (loading it again is a no-op) and let JavaCPP do the rest.
      if (before == null) System.clearProperty("org.bytedeco.javacpp.loadLibraries");
      else System.setProperty("org.bytedeco.javacpp.loadLibraries", before);
      source = "JavaCPP (cache failed: " + e.getMessage() + ")";
    }
  }

  /** Where the natives came from: "cache DIR", "JavaCPP" (and why), or "not loaded". */
  public static synchronized String source() {
    return source;
  }

  /** JavaCPP's cache directory, as its Loader chooses it. */
  static Path cacheRoot() {
    String dir = System.getProperty("org.bytedeco.javacpp.cachedir", System.getProperty("org.bytedeco.javacpp.cacheDir"));
    return dir != null ? Path.of(dir) : Path.of(System.getProperty("user.home"), ".javacpp", "cache");
  }

  /**
   * The cached copies of the native libraries of the jar that holds {@code jniResource} (a
   * {@code jar:file:...!/RESOURCE_DIR/libjnitensorflow.so} URL), in load order (the framework
   * library, the rest, the JNI library last), when every library of the jar's resource directory
   * is under {@code cacheRoot/<jar name>/} with the entry's size; empty otherwise (or when
   * JavaCPP is told to cache without the jar's name).
   */
  static Optional<List<Path>> cachedLibraries(URL jniResource, Path cacheRoot) {
    if (Boolean.parseBoolean(System.getProperty("org.bytedeco.javacpp.cachedir.nosubdir", "false"))) return Optional.empty();
    Path jar;
    try {
      if (!"jar".equals(jniResource.getProtocol())) return Optional.empty();
      URL jarUrl = ((JarURLConnection) jniResource.openConnection()).getJarFileURL();
      if (!"file".equals(jarUrl.getProtocol())) return Optional.empty();
      jar = Path.of(jarUrl.toURI());
    } catch (IOException | URISyntaxException | ClassCastException | IllegalArgumentException e) {
      return Optional.empty();
    }
    Path dir = cacheRoot.resolve(jar.getFileName().toString()).resolve(RESOURCE_DIR);
    List<Path> framework = new ArrayList<>();
    List<Path> others = new ArrayList<>();
    Path jniLibrary = null;
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        ZipEntry e = entries.nextElement();
        String name = e.getName();
        if (e.isDirectory() || !name.startsWith(RESOURCE_DIR) || name.indexOf('/', RESOURCE_DIR.length()) >= 0) continue;
        String file = name.substring(RESOURCE_DIR.length());
        if (!file.contains(".so")) continue;
        Path copy = dir.resolve(file);
        if (e.getSize() < 0 || !Files.isRegularFile(copy) || Files.size(copy) != e.getSize()) return Optional.empty();
        if (file.equals(JNI_LIBRARY)) jniLibrary = copy;
        else if (file.startsWith("libtensorflow_framework")) framework.add(copy);
        else others.add(copy);
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    if (jniLibrary == null) return Optional.empty();
    List<Path> order = new ArrayList<>(framework);
    order.addAll(others);
    order.add(jniLibrary);
    return Optional.of(order);
  }
}
