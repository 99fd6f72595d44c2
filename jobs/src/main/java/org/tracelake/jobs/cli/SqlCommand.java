package org.tracelake.jobs.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.sql.ResultPrinter;
import org.tracelake.jobs.sql.WarehouseViews;
import org.tracelake.jobs.warehouse.Warehouse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "sql", mixinStandardHelpOptions = true,
        description = {"Run Spark SQL over the warehouse: every table is a view of its name, every udf is registered.",
                "Statements in a file are separated by ';' at the end of a line; the last one's result is printed."})
public final class SqlCommand implements Callable<Integer> {
    @Parameters(arity = "0..1", paramLabel = "QUERY", description = "The query.")
    String query;

    @Option(names = {"-e", "--execute"}, paramLabel = "QUERY", description = "The query (same as the argument).")
    String execute;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Read the statements from a file.")
    Path file;

    @Option(names = "--format", defaultValue = "table", description = "table, json or csv. Default: ${DEFAULT-VALUE}")
    String format;

    @Option(names = "--limit", defaultValue = "1000", description = "Rows to print at most. Default: ${DEFAULT-VALUE}")
    int limit;

    @Mixin WarehouseOption warehouseOption;
    @Mixin SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
        List<String> statements = statements();
        if (statements.isEmpty()) {
            System.err.println("give a query: tracelake sql \"SELECT …\", -e \"…\" or --file q.sql");
            return ExitCodes.USAGE;
        }
        ResultPrinter.Format fmt = ResultPrinter.Format.valueOf(format.toUpperCase(java.util.Locale.ROOT));
        SparkSession spark = sparkOptions.session("tracelake sql");
        try {
            Warehouse warehouse = new Warehouse(warehouseOption.warehouse, spark.sparkContext().hadoopConfiguration());
            List<String> views = WarehouseViews.register(spark, warehouse);
            if (views.isEmpty()) {
                System.err.println("no tables under " + warehouse.root() + ": run `tracelake refresh` (or ingest) first");
            }
            for (int i = 0; i < statements.size() - 1; i++) spark.sql(statements.get(i)).collect();
            ResultPrinter.print(spark.sql(statements.get(statements.size() - 1)), fmt, limit, System.out);
            return ExitCodes.OK;
        } finally {
            spark.stop();
        }
    }

    private List<String> statements() throws Exception {
        String text = execute != null ? execute : query;
        if (file != null) text = Files.readString(file, StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        if (text == null) return out;
        for (String s : text.split(";\\s*(\\n|$)")) {
            String stripped = stripComments(s).strip();
            if (!stripped.isEmpty()) out.add(stripped);
        }
        return out;
    }

    private static String stripComments(String sql) {
        StringBuilder sb = new StringBuilder();
        for (String line : sql.split("\n")) {
            if (!line.strip().startsWith("--")) sb.append(line).append('\n');
        }
        return sb.toString();
    }

}
