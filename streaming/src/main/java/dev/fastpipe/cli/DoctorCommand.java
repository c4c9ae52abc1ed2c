package dev.fastpipe.cli;

import dev.fastpipe.inference.TensorFlowRuntime;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Reports what this machine and this JVM actually have: Java, TensorFlow, cores, /dev/shm, allocator. */
@Command(
    name = "doctor",
    header = "Check the runtime: Java, TensorFlow, CPUs, /dev/shm and the mapped allocator.",
    mixinStandardHelpOptions = true,
    description = {
      "Check the runtime: Java, TensorFlow native library, CPU count, /dev/shm,",
      "and the native allocator actually mapped into this JVM (from /proc/self/maps).",
      "Exits 1 if TensorFlow cannot be loaded."
    })
public final class DoctorCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    var out = System.out;
    out.println("java: " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")");
    out.println("cpus: " + Runtime.getRuntime().availableProcessors());
    out.println("max heap: " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB");
    out.println(shmLine(Path.of("/dev/shm")));
    out.println("allocator: " + mappedAllocator(Path.of("/proc/self/maps")));
    String conf = System.getenv("MALLOC_CONF");
    out.println("MALLOC_CONF: " + (conf == null || conf.isEmpty() ? "(unset)" : conf));
    int status = 0;
    try {
      out.println("tensorflow: " + TensorFlowRuntime.version());
    } catch (Throwable t) {
      out.println("tensorflow: FAILED to load the native library: " + t);
      status = 1;
    }
    return status;
  }

  static String shmLine(Path shm) {
    try {
      FileStore store = Files.getFileStore(shm);
      return String.format(
          "/dev/shm: %s, size %d MiB, free %d MiB",
          store.type(), store.getTotalSpace() >> 20, store.getUsableSpace() >> 20);
    } catch (IOException e) {
      return "/dev/shm: not available (" + e.getMessage() + ")";
    }
  }

  /** Names the allocator whose shared library is mapped into this process, or glibc if none. */
  static String mappedAllocator(Path maps) {
    List<String> lines;
    try {
      lines = Files.readAllLines(maps);
    } catch (IOException e) {
      return "unknown (" + maps + " unreadable: " + e.getMessage() + ")";
    }
    String[][] known = {
      {"jemalloc", "libjemalloc"}, {"tcmalloc", "libtcmalloc"}, {"mimalloc", "libmimalloc"}
    };
    for (String[] k : known) {
      for (String line : lines) {
        int slash = line.lastIndexOf('/');
        if (slash >= 0 && line.startsWith(k[1], slash + 1)) {
          return k[0] + " (" + line.substring(slash + 1) + " mapped)";
        }
      }
    }
    return "glibc";
  }
}
