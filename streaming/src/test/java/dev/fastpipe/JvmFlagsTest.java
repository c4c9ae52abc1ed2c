package dev.fastpipe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * The JVM flags Chronicle Queue and the rings need are written once, as the pom's
 * fastpipe.jvm.flags: the tests get them as their argLine, the jar carries them for a subcommand
 * process started without the launcher, and bin/fastpipe reads the copy the build puts beside the
 * jar. None of the three may hold a list of its own.
 */
class JvmFlagsTest {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  static List<String> pomFlags() throws Exception {
    Matcher m = Pattern.compile("<fastpipe.jvm.flags>([^<]*)</fastpipe.jvm.flags>").matcher(Files.readString(ROOT.resolve("pom.xml")));
    assertTrue(m.find(), "no fastpipe.jvm.flags in pom.xml");
    return Arrays.asList(m.group(1).trim().split("\\s+"));
  }

  @Test
  void theJarCarriesThePomsFlags() throws Exception {
    assertEquals(pomFlags(), SubcommandLauncher.jvmFlags());
  }

  @Test
  void theTestsRunWithThem() throws Exception {
    List<String> args = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments();
    for (String flag : pomFlags()) assertTrue(args.contains(flag), flag + " missing from this test JVM's " + args);
  }

  @Test
  void theLauncherReadsTheBuildsCopyAndWritesNoneOfItsOwn() throws Exception {
    Path launcher = ROOT.resolve("bin/fastpipe");
    assumeTrue(Files.isRegularFile(launcher), "no bin/fastpipe beside the module");
    String text = Files.readString(launcher);
    assertFalse(text.contains("--add-opens") || text.contains("--add-exports") || text.contains("-Dchronicle"),
        "bin/fastpipe writes JVM flags of its own; they belong in the pom's fastpipe.jvm.flags");
    assertTrue(text.contains("jvm.flags"), "bin/fastpipe does not read jvm.flags");
    Path besideTheJar = ROOT.resolve("streaming/target/jvm.flags");
    assumeTrue(Files.isRegularFile(besideTheJar), "not packaged yet (mvn package writes streaming/target/jvm.flags)");
    assertEquals(pomFlags(), Arrays.asList(Files.readString(besideTheJar).strip().split("\\s+")));
  }

  @Test
  void aProcessStartedWithoutTheLauncherGetsThem() throws Exception {
    assumeTrue(System.getenv(SubcommandLauncher.LAUNCHER_ENV) == null, "run under the launcher: it gives the flags");
    List<String> cmd = new SubcommandLauncher("some.Main").command("-Xss2m");
    for (String flag : pomFlags()) assertTrue(cmd.contains(flag), flag + " missing from " + cmd);
    assertEquals(List.of("-Xss2m", "-cp", System.getProperty("java.class.path"), "some.Main"), cmd.subList(cmd.size() - 4, cmd.size()));
  }
}
