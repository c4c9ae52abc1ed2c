package dev.fastpipe;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The direction of dependencies, checked on the compiled classes of all three modules:
 * the CLI uses the runtime, never the reverse; {@code shm} knows no genomics; {@code inference}
 * knows no htsjdk; TensorFlow stays in {@code inference} (and the tf.Example codec); picocli stays
 * in {@code cli}.
 */
@AnalyzeClasses(packages = "dev.fastpipe", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {

  @ArchTest
  static final ArchRule nothingBelowTheCliImportsTheCli = noClasses()
      .that().resideOutsideOfPackage("dev.fastpipe.cli..")
      .should().dependOnClassesThat().resideInAPackage("dev.fastpipe.cli..")
      .because("the CLI maps runtime errors to messages and exit codes; the runtime raises domain exceptions");

  @ArchTest
  static final ArchRule shmKnowsNoGenomics = noClasses()
      .that().resideInAPackage("dev.fastpipe.shm..")
      .should().dependOnClassesThat().resideInAnyPackage(
          "dev.fastpipe.streaming..", "dev.fastpipe.inference..", "dev.fastpipe.cli..", "htsjdk..", "org.tensorflow..")
      .because("transports move opaque records; they know nothing of reads, examples or models");

  @ArchTest
  static final ArchRule inferenceKnowsNoHtsjdk = noClasses()
      .that().resideInAPackage("dev.fastpipe.inference..")
      .should().dependOnClassesThat().resideInAnyPackage(
          "htsjdk..", "dev.fastpipe.streaming..", "dev.fastpipe.shm..", "dev.fastpipe.cli..")
      .because("inference takes image tensors; reads, records and transports are the caller's business");

  @ArchTest
  static final ArchRule tensorFlowStaysInInference = noClasses()
      .that().resideInAPackage("dev.fastpipe.streaming..")
      .and().resideOutsideOfPackage("dev.fastpipe.streaming.example..")
      .should().dependOnClassesThat().resideInAPackage("org.tensorflow..")
      .because("the pileup and pipeline code reach TensorFlow only through the inference module"
          + " (the example package writes tf.Example protos for the classic disk path)");

  @ArchTest
  static final ArchRule picocliStaysInTheCli = noClasses()
      .that().resideOutsideOfPackage("dev.fastpipe.cli..")
      .should().dependOnClassesThat().resideInAPackage("picocli..")
      .because("options are parsed once, at the top");

  @ArchTest
  static final ArchRule noStringBelowTheCliNamesTheCli = classes()
      .that().resideOutsideOfPackage("dev.fastpipe.cli..")
      .should(notContainText("dev.fastpipe.cli"))
      .because("a class started by its name (a shard worker's main, say) is handed in by the CLI, not spelled"
          + " below it, so that the rule above sees every tie");

  @ArchTest
  static final ArchRule makeExamplesKnowsNothingAboveIt = noClasses()
      .that().resideInAnyPackage("dev.fastpipe.streaming.makeexamples..", "dev.fastpipe.streaming.smallmodel..")
      .should().dependOnClassesThat().resideInAnyPackage(
          "dev.fastpipe.streaming.pipeline..", "dev.fastpipe.streaming.bench..", "dev.fastpipe.streaming.tune..")
      .because("make_examples (with the small model it calls) runs in shard workers and the classic path alike:"
          + " the pipeline, bench and tune use it, never the reverse");

  @ArchTest
  static final ArchRule thePlanKnowsOnlyGenomesAndItsOwnValues = classes()
      .that().resideInAPackage("dev.fastpipe.streaming.plan..")
      .should().onlyDependOnClassesThat(resideInAnyPackage("dev.fastpipe.streaming.plan..", "dev.fastpipe.streaming.genome..",
              "dev.fastpipe.streaming", "java..", "htsjdk..")
          .or(equivalentTo(dev.fastpipe.inference.ImageShape.class)))
      .because("the run's contract (its settings, plan and partitions) is what every stage is handed: it is made of"
          + " genome values, not of the stages that use it");

  /** The class file holds {@code text} (a string constant, say): read from its bytes, ASCII. */
  static ArchCondition<JavaClass> notContainText(String text) {
    byte[] needle = text.getBytes(StandardCharsets.US_ASCII);
    return new ArchCondition<>("not contain the text '" + text + "'") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        boolean found;
        try (InputStream in = c.getSource().orElseThrow().getUri().toURL().openStream()) {
          found = contains(in.readAllBytes(), needle);
        } catch (IOException | RuntimeException e) {
          events.add(SimpleConditionEvent.violated(c, c.getName() + ": class file unreadable: " + e));
          return;
        }
        if (found) events.add(SimpleConditionEvent.violated(c, c.getName() + " contains '" + text + "'"));
      }
    };
  }

  static boolean contains(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
      return true;
    }
    return false;
  }
}
