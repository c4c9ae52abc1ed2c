package dev.fastpipe.cli;

import dev.fastpipe.streaming.RunFiles;
import dev.fastpipe.streaming.evaluate.ComparisonManifest;
import dev.fastpipe.streaming.evaluate.ComparisonManifest.Pair;
import dev.fastpipe.streaming.evaluate.VcfComparison;
import dev.fastpipe.streaming.evaluate.VcfComparison.Evaluation;
import dev.fastpipe.streaming.evaluate.VcfComparison.ScoredCall;
import dev.fastpipe.streaming.postprocess.AlleleCountLikelihood;
import dev.fastpipe.streaming.postprocess.GqCalibration;
import dev.fastpipe.streaming.postprocess.GqCalibration.Observation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;

/** Fits a model's GQ calibration and PASS thresholds on validation calls and stores them with the model. */
@Command(
    name = "calibrate",
    header = "Fit a model's GQ calibration on validation calls and write MODEL_DIR/" + GqCalibration.FILE_NAME + ".",
    mixinStandardHelpOptions = true,
    description = {
      "Reads the calls of validation samples (made with this model and",
      "'call --no-gq-calibration', so the GQs are the model's own) and their truth,",
      "as 'compare --manifest' does, and fits per type (SNP, indel):",
      "- a map from the model's GQ to a GQ whose promise (an error rate of at most",
      "  10^(-GQ/10)) these calls vouch for: the lowest one-sided 95%% upper bound",
      "  of the error rate of the calls at GQs [g0, GQ] (error taken not to rise",
      "  with GQ); never above the model's GQ. The calls' number caps it: 1,500",
      "  error-free calls vouch for GQ 26, 15,000 for GQ 36;",
      "- the GQ below which a variant call is LowQual: the one that maximises the",
      "  type's F1 on these calls.",
      "An error is a PASS call whose allele is not in the truth with the same copies",
      "in the genotype. 'call' and 'demo' then use the calibration",
      "(--no-gq-calibration turns it off). Use samples the model was not trained on,",
      "and never those it will be scored on."
    })
public final class CalibrateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--model", required = true, paramLabel = "MODEL_DIR",
      description = "The model directory: the calibration is written into it (replacing one there).")
  Path model;

  @Option(names = "--manifest", required = true, paramLabel = "PAIRS.tsv",
      description = "The validation calls: NAME REF TRUTH CALLS [BED [READS]] per line (as compare --manifest).")
  Path manifest;

  @Option(names = "--count-likelihood", paramLabel = "snp=W:E|W:pileup[:V[:Q]],indel=...", defaultValue = "none",
      description = "The read-count or pileup likelihood the validation calls were made with (call --count-likelihood), stored"
          + " with the GQ map so that call applies both (default ${DEFAULT-VALUE}).")
  String countLikelihood;

  @Override
  public Integer call() throws IOException {
    if (!Files.isDirectory(model)) throw new UserError(model + ": model directory not found");
    AlleleCountLikelihood counts = CallCommand.countLikelihood(countLikelihood); // one line, exit 2, before any work
    List<Pair> pairs = ComparisonManifest.read(manifest);
    // One check, as every command makes it: the calibration written into the model directory is
    // none of the files it is fitted on (InputException: one line, exit 2).
    RunFiles.Builder files = RunFiles.builder().input("--manifest", manifest);
    for (Pair p : pairs) {
      if (p.calls().toAbsolutePath().normalize().startsWith(model.toAbsolutePath().normalize())) {
        throw new UserError(p.calls() + ": calls inside the model directory (" + model + ") are not validation calls");
      }
      files.reference("--manifest " + p.name(), p.ref()).input("--manifest " + p.name(), p.truth())
          .input("--manifest " + p.name(), p.calls()).input("--manifest " + p.name(), p.bed());
    }
    files.output("--model", model.resolve(GqCalibration.FILE_NAME)).check();
    List<Observation> observations = new ArrayList<>();
    int truthSnps = 0;
    int truthIndels = 0;
    for (Pair p : pairs) {
      Evaluation e = VcfComparison.evaluate(p.ref(), p.truth(), p.calls(), p.bed(), null, false);
      for (ScoredCall c : e.calls()) {
        if (c.gq() < 0) throw new UserError(p.calls() + ": a PASS call without GQ; calibrate reads fastpipe's calls");
        observations.add(new Observation(c.snp(), c.gq(), !c.genotypeRight()));
      }
      truthSnps += e.counts().snp().truth();
      truthIndels += e.counts().indel().truth();
    }
    if (observations.isEmpty()) throw new UserError(manifest + ": no PASS calls inside the regions to calibrate on");
    GqCalibration c = GqCalibration.fit(observations, truthSnps, truthIndels, counts);
    PrintWriter out = spec.commandLine().getOut();
    c.save(model);
    out.printf("calibrate: %d calls of %d pairs -> %s%n", observations.size(), pairs.size(),
        model.resolve(GqCalibration.FILE_NAME));
    for (String type : List.of("snp", "indel")) {
      Map<?, ?> t = (Map<?, ?>) c.info().get(type);
      boolean snp = type.equals("snp");
      StringBuilder map = new StringBuilder();
      for (int raw = 0; raw <= 60; raw += 10) map.append(' ').append(raw).append("->").append(c.gq(snp, raw));
      out.printf("calibrate: %-5s calls %s, errors %s, truth %s; GQ%s; PASS from GQ %d (validation F1 %s)%n", type,
          t.get("calls"), t.get("errors"), t.get("truth"), map, c.minPassGq(snp), t.get("validation_f1_at_threshold"));
      for (Object row : (List<?>) t.get("f1_by_threshold")) {
        Map<?, ?> r = (Map<?, ?>) row;
        out.printf("calibrate: %-5s PASS from GQ %2s: %6s calls, %5s errors, F1 %s%n", type, r.get("min_gq"), r.get("pass_calls"),
            r.get("pass_errors"), r.get("f1"));
      }
    }
    out.flush();
    return 0;
  }
}
