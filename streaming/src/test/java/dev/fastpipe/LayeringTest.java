package dev.fastpipe;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

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
}
