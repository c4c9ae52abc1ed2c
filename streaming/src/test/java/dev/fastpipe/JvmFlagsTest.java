package dev.fastpipe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fastpipe.streaming.SubcommandLauncher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The JVM flags Chronicle Queue and the rings need are written twice (the pom's fastpipe.jvm.flags
 * for the tests, bin/fastpipe's jvm_flags for every user process): they must be the same list,
 * and a subcommand process started without the launcher (tests, an IDE) gets them from this JVM.
 */
class JvmFlagsTest {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  static List<String> pomFlags() throws Exception {
    Matcher m = Pattern.compile("<fastpipe.jvm.flags>([^<]*)</fastpipe.jvm.flags>").matcher(Files.readString(ROOT.resolve("pom.xml")));
    assertTrue(m.find(), "no fastpipe.jvm.flags in pom.xml");
    return Arrays.asList(m.group(1).trim().split("\\s+"));
  }

  /** The launcher's jvm_flags=( ... ) array, less the collector choice (-XX:), which the tests leave to the JVM. */
  static List<String> launcherFlags() throws Exception {
    Matcher m = Pattern.compile("(?s)\njvm_flags=\\((.*?)\n\\)").matcher(Files.readString(ROOT.resolve("bin/fastpipe")));
    assertTrue(m.find(), "no jvm_flags=( ... ) in bin/fastpipe");
    return Arrays.stream(m.group(1).trim().split("\\s+")).filter(f -> !f.startsWith("-XX:")).toList();
  }

  @Test
  void thePomAndTheLauncherGiveTheSameFlags() throws Exception {
    assumeTrue(Files.isRegularFile(ROOT.resolve("bin/fastpipe")), "no bin/fastpipe beside the module");
    assertEquals(pomFlags(), launcherFlags());
  }

  @Test
  void aProcessStartedWithoutTheLauncherGetsThemFromThisJvm() throws Exception {
    assumeTrue(System.getenv(SubcommandLauncher.LAUNCHER_ENV) == null, "run under the launcher: it gives the flags");
    List<String> cmd = new SubcommandLauncher("some.Main").command("-Xss2m");
    for (String flag : pomFlags()) assertTrue(cmd.contains(flag), flag + " missing from " + cmd);
    assertEquals(List.of("-Xss2m", "-cp", System.getProperty("java.class.path"), "some.Main"), cmd.subList(cmd.size() - 4, cmd.size()));
  }
}
