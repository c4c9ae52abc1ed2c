package dev.fastpipe.streaming.makeexamples;

import dev.fastpipe.streaming.plan.Region;
import dev.fastpipe.streaming.plan.Regions;
import dev.fastpipe.streaming.plan.InputFiles;
import dev.fastpipe.streaming.InputException;
import htsjdk.samtools.SAMSequenceDictionary;
import htsjdk.variant.variantcontext.Allele;
import htsjdk.variant.variantcontext.Genotype;
import htsjdk.variant.variantcontext.VariantContext;
import htsjdk.variant.vcf.VCFFileReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Training labels: 0/1/2 = how many copies of an example's alt subset the truth genotype carries
 * (hom-ref, het, hom-alt; a het-alt truth gives 2 for the pair of its alts), matching alleles in
 * minimal, left-aligned form (truth records are trimmed, atomised into SNPs where ref and alt have
 * the same length, and their indels left-aligned against the reference). Candidates whose ref
 * span is not inside one confident interval get no example.
 */
public final class TruthLabeler {
  private final Map<String, Integer> alleleCopies = new HashMap<>();
  private final Map<Integer, int[]> confident = new HashMap<>(); // contig -> sorted starts/ends, interleaved
  private final InputFiles in;

  public TruthLabeler(Path truthVcf, Path confidentBed, SAMSequenceDictionary dict, InputFiles in) {
    this.in = in;
    Map<Integer, List<Region>> byContig = new HashMap<>();
    for (Region r : Regions.merge(Regions.readBed(dict, confidentBed))) {
      byContig.computeIfAbsent(r.contigIndex(), k -> new ArrayList<>()).add(r);
    }
    byContig.forEach((k, list) -> {
      int[] a = new int[list.size() * 2];
      for (int i = 0; i < list.size(); i++) {
        a[2 * i] = list.get(i).start();
        a[2 * i + 1] = list.get(i).end();
      }
      confident.put(k, a);
    });
    long onReference = 0;
    String offReference = null;
    try (VCFFileReader reader = new VCFFileReader(truthVcf, false)) {
      for (VariantContext vc : reader) {
        if (dict.getSequence(vc.getContig()) == null) {
          if (offReference == null) offReference = vc.getContig();
          continue;
        }
        onReference++;
        if (vc.isFiltered()) continue;
        Genotype g = vc.getGenotypes().isEmpty() ? null : vc.getGenotype(0);
        if (g == null || g.isNoCall()) continue;
        List<Allele> alts = vc.getAlternateAlleles();
        for (Allele alt : alts) {
          int copies = 0;
          for (Allele called : g.getAlleles()) if (called.equals(alt)) copies++;
          if (copies == 0 || alt.isSymbolic() || alt.getBaseString().isEmpty()) continue;
          addTruth(vc.getContig(), vc.getStart() - 1, vc.getReference().getBaseString(), alt.getBaseString(), copies);
        }
      }
    } catch (htsjdk.tribble.TribbleException | htsjdk.samtools.SAMException e) {
      throw new InputException(truthVcf + ": cannot read the truth VCF (" + e.getMessage() + ")");
    }
    if (onReference == 0 && offReference != null) { // every example would be labelled hom-ref
      throw new InputException(truthVcf + ": no record lies on a contig of the reference (the first is on "
          + offReference + "): a truth VCF of another reference");
    }
  }

  private void addTruth(String contig, int pos, String ref, String alt, int copies) {
    // Trim the common suffix, then the common prefix (keeping one base).
    while (ref.length() > 1 && alt.length() > 1 && ref.charAt(ref.length() - 1) == alt.charAt(alt.length() - 1)) {
      ref = ref.substring(0, ref.length() - 1);
      alt = alt.substring(0, alt.length() - 1);
    }
    while (ref.length() > 1 && alt.length() > 1 && ref.charAt(0) == alt.charAt(0)) {
      ref = ref.substring(1);
      alt = alt.substring(1);
      pos++;
    }
    if (ref.length() == alt.length()) {
      for (int i = 0; i < ref.length(); i++) {
        if (ref.charAt(i) != alt.charAt(i)) {
          put(key(contig, pos + i, ref.substring(i, i + 1), alt.substring(i, i + 1)), copies);
        }
      }
      return;
    }
    if (ref.length() == 1 || alt.length() == 1) {
      String[] n = leftAlign(contig, pos, ref, alt);
      put(key(contig, Integer.parseInt(n[0]), n[1], n[2]), copies);
    } else {
      put(key(contig, pos, ref, alt), copies); // complex: kept as written; no candidate matches it
    }
  }

  private void put(String key, int copies) {
    alleleCopies.merge(key, copies, Integer::sum);
  }

  /** Left-aligns a simple indel (anchor base first) against the reference. */
  String[] leftAlign(String contig, int pos, String ref, String alt) {
    boolean deletion = ref.length() > alt.length();
    String seq = deletion ? ref.substring(1) : alt.substring(1);
    if (ref.charAt(0) != alt.charAt(0)) return new String[] {"" + pos, ref, alt};
    int from = Math.max(0, pos - 500);
    byte[] b = in.bases(contig, from, pos + ref.length());
    int a = pos;
    StringBuilder s = new StringBuilder(seq);
    while (a > from) {
      char anchor = (char) b[a - from];
      if (anchor == 'N' || anchor != s.charAt(s.length() - 1)) break;
      s.deleteCharAt(s.length() - 1).insert(0, anchor);
      a--;
    }
    char anchor = (char) b[a - from];
    return deletion
        ? new String[] {"" + a, anchor + s.toString(), "" + anchor}
        : new String[] {"" + a, "" + anchor, anchor + s.toString()};
  }

  /** The truth's alt alleles (minimal, left-aligned) as {@code contig:pos0:REF>ALT} keys. */
  public java.util.Set<String> truthAlleles() {
    return java.util.Collections.unmodifiableSet(alleleCopies.keySet());
  }

  public static String key(String contig, int pos, String ref, String alt) {
    return contig + ':' + pos + ':' + ref + '>' + alt;
  }

  public boolean confident(Candidate c) {
    int[] a = confident.get(c.contigIndex);
    if (a == null) return false;
    int s = c.position;
    int e = c.position + c.ref.length();
    int lo = 0;
    int hi = a.length / 2 - 1;
    while (lo <= hi) { // last interval with start <= s
      int mid = (lo + hi) >>> 1;
      if (a[2 * mid] <= s) lo = mid + 1; else hi = mid - 1;
    }
    return hi >= 0 && a[2 * hi + 1] >= e;
  }

  /** Copies (0, 1, 2) of the alts in {@code subset} that the truth genotype carries. */
  public int label(Candidate c, int[] subset) {
    int copies = 0;
    for (int alt : subset) {
      copies += alleleCopies.getOrDefault(key(c.contig, c.position, c.minimalRef[alt], c.minimalAlt[alt]), 0);
    }
    return Math.min(copies, 2);
  }
}
