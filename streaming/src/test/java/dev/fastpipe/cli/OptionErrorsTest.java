package dev.fastpipe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** A command line picocli cannot parse: one line naming the problem and pointing at --help, exit 2. */
class OptionErrorsTest {

  /** stderr's lines and the exit status of {@code fastpipe ARGS}, parsed only (nothing runs: each fails to parse). */
  private static List<String> errorLines(String... args) {
    CommandLine cl = Main.commandLine();
    StringWriter err = new StringWriter();
    StringWriter out = new StringWriter();
    cl.setErr(new PrintWriter(err, true));
    cl.setOut(new PrintWriter(out, true));
    int exit = cl.execute(args);
    assertEquals(2, exit, err.toString());
    assertEquals("", out.toString(), "no usage on stdout");
    return err.toString().lines().toList();
  }

  @Test
  void anUnknownOptionIsNamedInOneLineBeforeAMissingRequiredOne() {
    assertEquals(List.of("fastpipe call: unknown option --output_vcf (DeepVariant's spelling; fastpipe's is --output);"
        + " see 'fastpipe call --help'"), errorLines("call", "--ref", "r.fa", "--reads", "r.bam", "--output_vcf", "o.vcf.gz"));
    assertEquals(List.of("fastpipe call: unknown option --metrics-prot (did you mean --metrics-port?); see 'fastpipe call --help'"),
        errorLines("call", "--ref", "r.fa", "--reads", "r.bam", "--output", "o.vcf.gz", "--metrics-prot", "9"));
    assertEquals(List.of("fastpipe call: unknown option --no_progress (did you mean --no-progress?); see 'fastpipe call --help'"),
        errorLines("call", "--ref", "r.fa", "--reads", "r.bam", "--output", "o.vcf.gz", "--no_progress"));
  }

  @Test
  void aValueAfterAnOptionIsNoUnknownOption() {
    // "-" is --output's value (stdout), "-5" is a number: neither is taken for an option
    assertEquals(List.of("fastpipe call: unknown option --frob; see 'fastpipe call --help'"),
        errorLines("call", "--ref", "r.fa", "--reads", "r.bam", "--output", "-", "--min-qual", "-5", "--frob"));
  }

  @Test
  void aBadValueAndAMissingOptionAreOneLineToo() {
    assertEquals(List.of("fastpipe call: Invalid value for option '--shards': 'two' is not an int; see 'fastpipe call --help'"),
        errorLines("call", "--ref", "r.fa", "--reads", "r.bam", "--output", "o.vcf.gz", "--shards", "two"));
    assertEquals(List.of("fastpipe call: Missing required option: '--output=OUT.vcf.gz'; see 'fastpipe call --help'"),
        errorLines("call", "--ref", "r.fa", "--reads", "r.bam"));
  }

  @Test
  void anUnknownCommandIsNamedWithTheNearestOne() {
    assertEquals(List.of("fastpipe: unknown command cal (did you mean call?); see 'fastpipe --help'"), errorLines("cal"));
  }
}
