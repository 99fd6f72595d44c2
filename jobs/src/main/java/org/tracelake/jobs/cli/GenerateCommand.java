package org.tracelake.jobs.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.tracelake.jobs.generate.SampleArchiveGenerator;
import org.tracelake.jobs.generate.TraceStyle;
import org.tracelake.jobs.generate.WorkloadSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "generate", mixinStandardHelpOptions = true,
        description = {"Write a simulated archive: the bundled data/ sample, or larger ones for benchmarks.",
                "Without --name it writes the two sample workloads that data/ holds."})
public final class GenerateCommand implements Callable<Integer> {
    @Option(names = {"-o", "--out"}, required = true, paramLabel = "DIR", description = "Archive folder to write into.")
    Path out;

    @Option(names = "--name", description = "Write one workload of this name with the options below.")
    String name;

    @Option(names = "--style", defaultValue = "MODERN", description = "MODERN or LEGACY. Default: ${DEFAULT-VALUE}")
    TraceStyle style;

    @Option(names = "--ranks", defaultValue = "4") int ranks;
    @Option(names = "--steps", defaultValue = "4") int steps;
    @Option(names = "--layers", defaultValue = "4", description = "Layers per step: the knob for file size.") int layers;
    @Option(names = "--gzip", defaultValue = "true", negatable = true, fallbackValue = "true") boolean gzip;
    @Option(names = "--straggler-rank", defaultValue = "-1") int stragglerRank;
    @Option(names = "--straggler-delay-us", defaultValue = "0") long stragglerDelayUs;
    @Option(names = "--seed", defaultValue = "7") long seed;

    @Override
    public Integer call() throws Exception {
        if (name == null) {
            SampleArchiveGenerator.write(out, WorkloadSpec.modernSample());
            SampleArchiveGenerator.write(out, WorkloadSpec.legacySample());
        } else {
            SampleArchiveGenerator.write(out, new WorkloadSpec(name, style, ranks, 1, steps, layers, gzip,
                    stragglerRank, stragglerDelayUs * 1000, seed));
        }
        System.out.println("wrote " + out.toAbsolutePath());
        return ExitCodes.OK;
    }
}
