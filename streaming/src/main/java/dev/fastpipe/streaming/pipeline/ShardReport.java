package dev.fastpipe.streaming.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fastpipe.streaming.ExitStatus;
import dev.fastpipe.streaming.JsonCodec;
import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What one make_examples shard did: its examples (CNN images and small-model calls), the reads of
 * its partitions, its realigner counters, its CPU and wall seconds, its process footprint (null
 * for a thread shard: it is the parent's process) and, when it failed, how ({@link Failure}).
 * A thread shard hands it back as the object; a shard process writes it as JSON to the file its
 * parent names ({@code shard-worker --report-file}), with the codec's {@link #VERSION}, and the
 * parent reads it back with {@link #read}: one record and one codec for both, no parsed stdout.
 *
 * @param reads reads of its partitions that passed the filters
 * @param readsSeen reads of its partitions, passing the filters or not
 */
public record ShardReport(int shard, long examples, long reads, long readsSeen, RealignTotals realignment,
    double cpuSeconds, double wallSeconds, ProcessFootprint footprint, Failure failure) {

  /** The version of the JSON codec; a report of another version is refused, not guessed at. */
  public static final int VERSION = 1;

  /**
   * How a shard failed: the exit status it maps to ({@link ExitStatus#BAD_INPUT}: its message is
   * the one line naming the bad input) and the message.
   */
  public record Failure(ExitStatus status, String message) {}

  private static final ObjectMapper JSON = JsonCodec.STRICT;

  /** A shard that finished: its counters, and the footprint of its process (null for a thread). */
  public static ShardReport finished(int shard, MakeExamplesStats st, double cpuSeconds, ProcessFootprint footprint) {
    return new ShardReport(shard, st.examples + st.smallCalls, st.reads, st.readsSeen(), RealignTotals.of(st),
        cpuSeconds, st.seconds(), footprint, null);
  }

  /** A shard that stopped with {@code status} ({@link ExitStatus#FAILED} or {@link ExitStatus#BAD_INPUT}). */
  public static ShardReport failed(int shard, ExitStatus status, String message, ProcessFootprint footprint) {
    return new ShardReport(shard, 0, 0, 0, RealignTotals.NONE, footprint == null ? 0 : footprint.cpuSeconds(), 0,
        footprint, new Failure(status, message));
  }

  /** The exit status of the shard's process. */
  public ExitStatus exitStatus() {
    return failure == null ? ExitStatus.OK : failure.status();
  }

  /** The report as one JSON object, {@code "version"} first. */
  public String toJson() {
    ObjectNode node = JSON.createObjectNode().put("version", VERSION);
    node.setAll((ObjectNode) JSON.valueToTree(this));
    return JsonCodec.line(node);
  }

  /** Reads {@link #toJson}'s text; refuses another version, a missing one and fields it does not know. */
  public static ShardReport fromJson(String json) throws IOException {
    JsonNode node;
    try {
      node = JSON.readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IOException("a shard report is not JSON: " + e.getOriginalMessage(), e);
    }
    if (node == null || !node.isObject()) throw new IOException("a shard report is a JSON object, not: " + json);
    JsonNode version = node.get("version");
    if (version == null || !version.isInt() || version.intValue() != VERSION) {
      throw new IOException("shard report version " + (version == null ? "(none)" : version.toString())
          + ", this build reads version " + VERSION);
    }
    ((ObjectNode) node).remove("version");
    try {
      return JSON.treeToValue(node, ShardReport.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IOException("not a shard report: " + e.getOriginalMessage(), e);
    }
  }

  /** Writes the report to {@code file} (the parent made it and reads it once the process has exited). */
  public void write(Path file) throws IOException {
    Files.writeString(file, toJson(), StandardCharsets.UTF_8);
  }

  /** The report in {@code file}. */
  public static ShardReport read(Path file) throws IOException {
    return fromJson(Files.readString(file, StandardCharsets.UTF_8));
  }

  /**
   * The reports of a run's shards summed: examples, reads seen (-1 unless every one of {@code
   * shards} shards reported and none failed, so a partial sum is never taken for the whole),
   * realigner counters and CPU seconds.
   */
  public record Totals(long examples, long readsSeen, RealignTotals realignment, double cpuSeconds) {
    public static Totals of(List<ShardReport> reports, int shards) {
      long examples = 0;
      long seen = 0;
      double cpu = 0;
      RealignTotals realign = RealignTotals.NONE;
      boolean whole = reports.size() == shards;
      for (ShardReport r : reports) {
        examples += r.examples();
        seen += r.readsSeen();
        cpu += r.cpuSeconds();
        realign = realign.plus(r.realignment());
        whole &= r.failure() == null;
      }
      return new Totals(examples, whole ? seen : -1, realign, cpu);
    }
  }
}
