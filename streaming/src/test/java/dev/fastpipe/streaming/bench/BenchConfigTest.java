package dev.fastpipe.streaming.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchConfigTest {

  @Test
  void leadingUpperCaseAssignmentsAreEnvironmentTheRestOptions() {
    BenchConfig c = BenchConfig.parse("je-conf: FASTPIPE_MALLOC_CONF=narenas:1,background_thread:true --allocator jemalloc"
        + " --consumers 2 X=1");
    assertEquals("je-conf", c.name());
    assertEquals(Map.of("FASTPIPE_MALLOC_CONF", "narenas:1,background_thread:true"), c.env());
    assertEquals(List.of("--allocator", "jemalloc", "--consumers", "2", "X=1"), c.args());
  }

  @Test
  void quotesGroupWordsAndAnEmptyConfigurationIsTheDefaults() {
    BenchConfig c = BenchConfig.parse("q: FASTPIPE_JAVA_OPTS='-Xmx2g -Xss1m' --regions \"chr20:1-2\" a\\ b ''");
    assertEquals("-Xmx2g -Xss1m", c.env().get("FASTPIPE_JAVA_OPTS"));
    assertEquals(List.of("--regions", "chr20:1-2", "a b", ""), c.args());
    assertEquals(c, BenchConfig.parse(c.text()));
    BenchConfig d = BenchConfig.parse("default:");
    assertTrue(d.args().isEmpty() && d.env().isEmpty());
    assertEquals("", d.options());
  }

  @Test
  void badConfigurationsAreOneLineErrors() {
    assertTrue(assertThrows(InputException.class, () -> BenchConfig.parse("--allocator glibc")).getMessage()
        .contains("expected NAME: [VAR=VALUE ...] [OPTION ...]"));
    assertTrue(assertThrows(InputException.class, () -> BenchConfig.parse("a b: --shards 2")).getMessage()
        .contains("the name 'a b'"));
    assertTrue(assertThrows(InputException.class, () -> BenchConfig.parse("x: --regions 'chr1")).getMessage()
        .contains("quote is not closed"));
    assertTrue(assertThrows(InputException.class, () -> BenchConfig.parse("x: --output a.vcf.gz")).getMessage()
        .contains("bench sets --output on every run itself"));
    BenchConfig a = BenchConfig.parse("a:");
    assertThrows(InputException.class, () -> BenchConfig.check(List.of(a), false));
    assertTrue(assertThrows(InputException.class, () -> BenchConfig.check(List.of(a, a), false)).getMessage()
        .contains("two configurations are named 'a'"));
  }

  @Test
  void aFileHoldsOneConfigurationPerLine(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("configs.txt");
    Files.writeString(f, "# allocators\n\nglibc: --allocator glibc\n  jemalloc: --allocator jemalloc\nbad line\n");
    InputException e = assertThrows(InputException.class, () -> BenchConfig.read(f));
    assertTrue(e.getMessage().startsWith(f + " line 5: "), e.getMessage());
    Files.writeString(f, "# allocators\n\nglibc: --allocator glibc\n  jemalloc: --allocator jemalloc\n");
    assertEquals(List.of("glibc", "jemalloc"), BenchConfig.read(f).stream().map(BenchConfig::name).toList());
  }
}
