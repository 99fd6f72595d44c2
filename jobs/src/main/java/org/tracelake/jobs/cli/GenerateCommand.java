package org.tracelake.jobs.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.tracelake.jobs.generate.SampleArchiveGenerator;
import org.tracelake.jobs.generate.TraceStyle;
import org.tracelake.jobs.generate.WorkloadSpec;
import org.tracelake.jobs.generate.formats.FormatSamples;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        description = {
            "Write a simulated archive: the bundled data/ sample, or larger ones for benchmarks.",
            "Without --name it writes data/'s two Kineto workloads; --formats all adds a small workload of each other",
            "format the readers take (Nsight SQLite, XSpace, rocprof JSON, a CUDA memory snapshot, Flight Recorder",
            "dumps of a hang, AORTA telemetry, execution traces): the nine workloads data/ holds."
        })
public final class GenerateCommand implements Callable<Integer> {
    private static final String KINETO = "kineto";

    @Option(
            names = {"-o", "--out"},
            required = true,
            paramLabel = "DIR",
            description = "Archive folder to write into.")
    Path out;

    @Option(
            names = "--formats",
            split = ",",
            paramLabel = "FORMAT",
            description =
                    "Write small, valid samples of these formats, one workload folder each with its card: kineto (the"
                            + " data/ sample), nsys, xspace, rocprof, memory, flight-recorder, aorta, et; or all.")
    List<String> formats;

    @Option(names = "--name", description = "Write one workload of this name with the options below.")
    String name;

    @Option(names = "--style", defaultValue = "MODERN", description = "MODERN or LEGACY. Default: ${DEFAULT-VALUE}")
    TraceStyle style;

    @Option(
            names = "--ranks",
            defaultValue = "4",
            paramLabel = "N",
            description = "Ranks (GPUs) of the workload: one trace file each. Default: ${DEFAULT-VALUE}")
    int ranks;

    @Option(
            names = "--steps",
            defaultValue = "4",
            paramLabel = "N",
            description = "Profiled training steps (ProfilerStep#) in every rank's trace. Default: ${DEFAULT-VALUE}")
    int steps;

    @Option(
            names = "--layers",
            defaultValue = "4",
            paramLabel = "N",
            description = "Layers per step: the knob for file size. Default: ${DEFAULT-VALUE}")
    int layers;

    @Option(
            names = "--gzip",
            defaultValue = "true",
            negatable = true,
            fallbackValue = "true",
            description = "Write the traces gzipped (*.json.gz), as profilers usually are; --no-gzip writes plain JSON."
                    + " Default: on")
    boolean gzip;

    @Option(
            names = "--straggler-rank",
            defaultValue = "-1",
            paramLabel = "RANK",
            description =
                    "This rank starts every collective late (by --straggler-delay-us), so straggler metrics have a"
                            + " known answer; -1: no straggler. Default: ${DEFAULT-VALUE}")
    int stragglerRank;

    @Option(
            names = "--straggler-delay-us",
            defaultValue = "0",
            paramLabel = "US",
            description = "How late the straggler rank starts each collective, in microseconds (the other ranks wait"
                    + " that long inside it). Default: ${DEFAULT-VALUE}")
    long stragglerDelayUs;

    @Option(
            names = "--fault",
            paramLabel = "RANK:KIND:LAYER:US",
            description = "Inject a cause of lateness (repeatable): KIND slow_gemm makes the rank's first backward GEMM"
                    + " of the layer US longer, cpu_stall stalls its CPU US before launching the layer's backward"
                    + " kernels; LAYER -1 for every layer. The ranks then meet at every collective, as NCCL makes"
                    + " them, so lateness_cause has a known answer.")
    List<String> faults;

    @Option(
            names = "--gemm-scale",
            defaultValue = "1.0",
            paramLabel = "X",
            description = "Every GEMM kernel lasts X times as long (1.10: 10 % slower GEMMs), a known cause for"
                    + " comparing two runs. Default: ${DEFAULT-VALUE}")
    double gemmScale;

    @Option(
            names = "--seed",
            defaultValue = "7",
            paramLabel = "N",
            description = "Seed of the kernels' timing jitter and the run's start time: the same seed writes the same"
                    + " bytes. Default: ${DEFAULT-VALUE}")
    long seed;

    @Override
    public Integer call() throws Exception {
        if (!(gemmScale > 0) || Double.isInfinite(gemmScale)) {
            throw new Usage.Error("--gemm-scale: takes a number above 0 (1.10: GEMMs 10 % slower), not " + gemmScale);
        }
        if (formats != null) {
            writeFormats();
        } else if (name == null) {
            SampleArchiveGenerator.write(out, WorkloadSpec.modernSample());
            SampleArchiveGenerator.write(out, WorkloadSpec.legacySample());
        } else {
            SampleArchiveGenerator.write(
                    out,
                    new WorkloadSpec(
                                    name,
                                    style,
                                    ranks,
                                    1,
                                    steps,
                                    layers,
                                    gzip,
                                    stragglerRank,
                                    stragglerDelayUs * 1000,
                                    seed)
                            .withFaults(faults())
                            .withGemmScale(gemmScale));
        }
        System.out.println("wrote " + out.toAbsolutePath());
        return ExitCodes.OK;
    }

    private void writeFormats() throws IOException {
        Set<String> wanted = new LinkedHashSet<>();
        for (String f : formats) {
            String format = f.strip().toLowerCase(Locale.ROOT);
            if (format.equals("all")) {
                wanted.add(KINETO);
                wanted.addAll(FormatSamples.formats());
            } else if (format.equals(KINETO) || FormatSamples.byFormat(format) != null) {
                wanted.add(format);
            } else {
                throw new Usage.Error("--formats: unknown format '" + f + "'; it takes all or any of " + KINETO + ", "
                        + String.join(", ", FormatSamples.formats()));
            }
        }
        for (String format : wanted) {
            if (format.equals(KINETO)) {
                SampleArchiveGenerator.write(out, WorkloadSpec.modernSample());
                SampleArchiveGenerator.write(out, WorkloadSpec.legacySample());
            } else {
                FormatSamples.Sample s = FormatSamples.byFormat(format);
                System.out.println(s.workload() + ": " + s.description());
                FormatSamples.write(out, s);
            }
        }
    }

    /** The --fault options, each RANK:KIND:LAYER:US; a malformed one is a usage error. */
    private List<org.tracelake.jobs.generate.Fault> faults() {
        List<org.tracelake.jobs.generate.Fault> out = new java.util.ArrayList<>();
        if (faults == null) return out;
        for (String f : faults) {
            String[] p = f.split(":");
            try {
                if (p.length != 4) throw new IllegalArgumentException();
                int rank = Integer.parseInt(p[0]);
                var kind = org.tracelake.jobs.generate.Fault.Kind.valueOf(p[1].toUpperCase(Locale.ROOT));
                int layer = Integer.parseInt(p[2]);
                long us = Long.parseLong(p[3]);
                if (rank < 0 || rank >= ranks || us < 0) throw new IllegalArgumentException();
                out.add(new org.tracelake.jobs.generate.Fault(rank, kind, layer, us * 1000));
            } catch (IllegalArgumentException e) {
                throw new Usage.Error("--fault " + f + ": expected RANK:KIND:LAYER:US with a rank below --ranks, KIND"
                        + " slow_gemm or cpu_stall, and US >= 0");
            }
        }
        return out;
    }
}
