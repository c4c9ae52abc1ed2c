package dev.fastpipe.streaming.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fastpipe.streaming.FileFingerprint;
import dev.fastpipe.streaming.SettingFields;
import dev.fastpipe.streaming.plan.ExampleSettings;
import dev.fastpipe.streaming.postprocess.GqCalibration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan identity a resume journal records: every setting is classified (a new field fails here
 * until it is), each setting that changes the VCF changes the identity and is named in the one-line
 * refusal, the others do not, and input files are told apart by size, content and time.
 */
class PlanIdentityTest {
  @TempDir Path dir;

  @Test
  void everySettingIsClassifiedOnceAsChangingTheVcfOrNot() {
    List<String> fields = new ArrayList<>();
    SettingFields.of(CallRequest.class).forEach(f -> fields.add(f.name()));
    SettingFields.of(ExampleSettings.class).forEach(f -> fields.add("examples." + f.name()));
    for (String f : fields) {
      boolean in = PlanIdentity.IN_VCF.containsKey(f);
      boolean out = PlanIdentity.NOT_IN_VCF.containsKey(f);
      assertTrue(in ^ out, f + ": classify it in PlanIdentity.IN_VCF (changes the records) or NOT_IN_VCF (with why)");
    }
    List<String> stale = new ArrayList<>(PlanIdentity.IN_VCF.keySet());
    stale.addAll(PlanIdentity.NOT_IN_VCF.keySet());
    stale.removeAll(fields);
    assertEquals(List.of(), stale, "classified names that are no field");
  }

  @Test
  void eachSettingThatChangesTheVcfIsRefusedByName() throws Exception {
    PlanIdentity before = identity(base());
    for (String key : PlanIdentity.IN_VCF.keySet()) {
      String diff = changed(key).differenceFrom(before);
      assertNotNull(diff, key + " changes the VCF but not the identity");
      assertTrue(diff.startsWith("setting " + key + " (" + PlanIdentity.IN_VCF.get(key) + ") was "), diff);
      assertTrue(!diff.contains("\n") && !diff.contains("more difference"), diff);
    }
  }

  @Test
  void settingsThatDoNotChangeTheVcfLeaveTheIdentityAlone() throws Exception {
    PlanIdentity before = identity(base());
    for (String key : PlanIdentity.NOT_IN_VCF.keySet()) {
      if (key.equals("examples")) continue;
      assertNull(changed(key).differenceFrom(before), key);
    }
  }

  @Test
  void inputsAreToldApartBySizeContentAndTime() throws IOException {
    Path f = Files.writeString(dir.resolve("reads.bam"), "ABCDEFGH");
    FileFingerprint a = FileFingerprint.of(f);
    assertEquals(a, FileFingerprint.parse(a.toString()));
    Files.writeString(f, "ABCDEFGX");
    Files.setLastModifiedTime(f, FileTime.fromMillis(a.mtimeMillis()));
    assertEquals("its content changed", FileFingerprint.of(f).changeFrom(a));
    Files.writeString(f, "ABCDEFGH");
    Files.setLastModifiedTime(f, FileTime.fromMillis(a.mtimeMillis() + 5000));
    assertEquals("it was modified (modification time)", FileFingerprint.of(f).changeFrom(a));
    Files.writeString(f, "ABCDEFGHI");
    assertEquals("its size went from 8 to 9 bytes", FileFingerprint.of(f).changeFrom(a));
    Files.delete(f);
    assertEquals("it is gone", FileFingerprint.of(f).changeFrom(a));
    assertEquals(FileFingerprint.ABSENT, FileFingerprint.parse("absent"));
  }

  @Test
  void aLargeFileIsFingerprintedByItsHeadAndTail() throws IOException {
    Path f = dir.resolve("big.bam");
    byte[] bytes = new byte[(int) FileFingerprint.WHOLE_LIMIT + 4096];
    Files.write(f, bytes);
    FileFingerprint a = FileFingerprint.of(f);
    bytes[bytes.length - 10] = 1; // in the tail
    Files.write(f, bytes);
    Files.setLastModifiedTime(f, FileTime.fromMillis(a.mtimeMillis()));
    assertEquals("its content changed", FileFingerprint.of(f).changeFrom(a));
  }

  static CallRequest base() {
    CallRequest.Builder s = CallRequest.builder().output(Path.of("/out/x.vcf.gz"));
    s.examples().reference(Path.of("/data/ref.fa")).reads(Path.of("/data/reads.bam"));
    return s.build();
  }

  /** The settings' part of the identity (the inputs' part is fingerprinted files: the test above). */
  static PlanIdentity identity(CallRequest s) {
    Map<String, String> e = new LinkedHashMap<>();
    PlanIdentity.settings(s).forEach((k, v) -> e.put("setting " + k, v));
    return PlanIdentity.fromEntries(e);
  }

  /** The identity of {@link #base} with setting {@code key} given another value, whatever its type. */
  static PlanIdentity changed(String key) throws Exception {
    CallRequest s = base();
    if (key.startsWith("examples.")) {
      String name = key.substring("examples.".length());
      ExampleSettings examples = SettingFields.assemble(ExampleSettings.class,
          f -> f.name().equals(name) ? next(key, f.type(), f.get(s.examples())) : f.get(s.examples()));
      return identity(SettingFields.assemble(CallRequest.class, f -> f.name().equals("examples") ? examples : f.get(s)));
    }
    return identity(SettingFields.assemble(CallRequest.class, f -> f.name().equals(key) ? next(key, f.type(), f.get(s)) : f.get(s)));
  }

  @SuppressWarnings("unchecked")
  static Object next(String key, Class<?> t, Object v) {
    Object next;
    if (t == int.class) next = (int) v + 1;
    else if (t == long.class) next = (long) v + 1;
    else if (t == double.class) next = (double) v + 0.5;
    else if (t == boolean.class) next = !(boolean) v;
    else if (t == Integer.class) next = v == null ? 1 : (Integer) v + 1;
    else if (t == String.class) next = v == null ? "other" : v + "x";
    else if (t == Path.class) next = Path.of("/elsewhere/" + key);
    else if (t == Duration.class) next = ((Duration) v).plusSeconds(1);
    else if (t == List.class) {
      List<String> l = new ArrayList<>((List<String>) v);
      l.add("chrOther");
      next = l;
    } else if (t == GqCalibration.class) next = GqCalibration.forModel(Path.of("..", "models", "fastpipe-v5"));
    else if (t == dev.fastpipe.shm.TransportOptions.class) next = dev.fastpipe.shm.TransportOptions.of(java.util.Map.of("dir", "/elsewhere"));
    else if (t == dev.fastpipe.streaming.SubcommandLauncher.class) next = new dev.fastpipe.streaming.SubcommandLauncher("other.Main");
    else throw new AssertionError(key + ": a setting of type " + t + "; teach this test to change it");
    return next;
  }
}
