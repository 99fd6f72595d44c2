package org.tracelake.jobs.cli;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.refresh.PreviousLayout;
import org.tracelake.jobs.serve.ClientLoader;
import org.tracelake.jobs.serve.LocalClient;
import org.tracelake.jobs.serve.RunningServe;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.spark.SparkSessions;
import org.tracelake.jobs.sql.ConnectSql;
import org.tracelake.jobs.sql.ResultPrinter;
import org.tracelake.jobs.sql.SqlRunner;
import org.tracelake.jobs.sql.SqlStatementSplitter;
import org.tracelake.jobs.warehouse.Warehouse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "sql",
        mixinStandardHelpOptions = true,
        description = {
            "Spark SQL over the warehouse: every table is a view of its name, every",
            "udf a function. Give a query (argument or -e), or a file of statements",
            "separated by ';' (--file): each statement's result is printed. With",
            "neither, a prompt reads statements from standard input until ';' (piped",
            "input too): \\d tables, \\d TABLE columns, \\f functions, \\m [METRIC] the",
            "metric reference, \\q quit. Views read the tables' files at each query, so a",
            "prompt left open sees every refresh that lands meanwhile. With --remote",
            "sc://HOST:PORT the same runs through a `tracelake serve` (no Spark start here).",
            "Cookbook: docs/SQL.md."
        })
public final class SqlCommand implements Callable<Integer> {
    @Parameters(arity = "0..1", paramLabel = "QUERY", description = "The query (several, separated by ';').")
    String query;

    @Option(
            names = {"-e", "--execute"},
            paramLabel = "QUERY",
            description = "The query (same as the argument).")
    String execute;

    @Option(
            names = {"-f", "--file"},
            paramLabel = "FILE",
            description = "Read the statements from a file.")
    Path file;

    @Option(
            names = "--format",
            defaultValue = "table",
            description = {
                "table, json or csv. Default: ${DEFAULT-VALUE}."
                        + " Only the table rounds (doubles to 6 significant digits, for the eye); json and csv print every"
                        + " value as stored (87.412863 stays 87.412863)."
            })
    String format;

    @Option(names = "--limit", defaultValue = "1000", description = "Rows to print at most. Default: ${DEFAULT-VALUE}")
    int limit;

    @Option(
            names = "--remote",
            paramLabel = "sc://HOST:PORT",
            description = "Run through the Spark Connect server at this address (`tracelake serve`) instead of a local"
                    + " Spark; --master and --conf are the server's then. The token: ;token=T in the address, else"
                    + " SPARK_CONNECT_AUTHENTICATE_TOKEN, else the one serve wrote in --warehouse's _serve/token.")
    String remote;

    @Option(
            names = "--local",
            description = "Run in a Spark of this process even when a `tracelake serve` of the warehouse is running"
                    + " (without it, `sql` uses that serve, unless --master or --conf is given).")
    boolean local;

    @Option(
            names = "--as-of",
            paramLabel = "RUN",
            description = "The warehouse exactly as run RUN left it (a run_id of the runs table): every table at the"
                    + " snapshot that run committed, so the tables agree with each other. Reaches back as far as"
                    + " maintenance keeps snapshots (spark.tracelake.maintenance.retentionDays, default 7 days).")
    String asOf;

    @Mixin
    WarehouseOption warehouseOption;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
        ResultPrinter.Format fmt;
        try {
            fmt = ResultPrinter.Format.valueOf(format.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            System.err.println("--format must be table, json or csv, not " + format);
            return ExitCodes.USAGE;
        }
        if (query != null && execute != null) {
            System.err.println("give the query once: as the argument or with -e");
            return ExitCodes.USAGE;
        }
        if (file != null && (query != null || execute != null)) {
            System.err.println("give either a query or --file, not both");
            return ExitCodes.USAGE;
        }
        List<String> statements = statements();
        if (statements != null && statements.isEmpty()) {
            System.err.println("no statement to run");
            return ExitCodes.USAGE;
        }
        if (asOf != null && remote != null) {
            System.err.println("--as-of reads old snapshots in a Spark of this process: give it without --remote");
            return ExitCodes.USAGE;
        }
        int localPort = 0; // serve's local endpoint, when sql found a serve of the warehouse that has one
        if (remote == null
                && asOf == null
                && !local
                && sparkOptions.master == null
                && sparkOptions.conf().isEmpty()) {
            // a serve of this warehouse is running: ask it, with no Spark start here (--local: a Spark of our own)
            RunningServe running = RunningServe.find(warehouseOption.warehouse);
            if (running != null) {
                remote = running.address();
                localPort = running.localPort();
            }
        }
        if (remote != null) {
            if (!remote.startsWith("sc://")) {
                System.err.println("--remote takes a Spark Connect address, sc://HOST:PORT, not " + remote);
                return ExitCodes.USAGE;
            }
            RemoteAddress address = RemoteAddress.parse(remote);
            String token;
            try {
                token = address.token() != null ? address.token() : RemoteAddress.token(warehouseOption.warehouse);
            } catch (IOException e) {
                System.err.println("cannot read serve's token: " + e.getMessage());
                return ExitCodes.USAGE;
            }
            if (statements != null && localPort > 0 && token != null) {
                // statements: serve's local endpoint answers them as this process would (LocalClient)
                int rc = LocalClient.run(
                        localPort,
                        token,
                        statements,
                        fmt.name().toLowerCase(Locale.ROOT),
                        limit,
                        System.out,
                        System.err);
                if (rc != LocalClient.NOT_SERVED) return rc == 0 ? ExitCodes.OK : ExitCodes.FAILED;
            }
            if (statements != null && address.others().isEmpty() && ConnectSql.handles(address.base())) {
                // Statements from a fresh process: the thin client, which starts in a fraction of the JVM client's
                // time.
                return ConnectSql.run(address.base(), token, statements, fmt, limit, System.out, System.err) == 0
                        ? ExitCodes.OK
                        : ExitCodes.FAILED;
            }
            BufferedReader in = statements != null
                    ? null
                    : new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            return ClientLoader.runSql(
                                    address.forSparkClient(token),
                                    statements,
                                    fmt.name(),
                                    limit,
                                    in,
                                    statements == null && stdinIsATerminal(),
                                    System.out,
                                    System.err)
                            == 0
                    ? ExitCodes.OK
                    : ExitCodes.FAILED;
        }
        var conf = sparkOptions.conf("tracelake sql"); // read before Spark starts: a usage error costs no session
        Warehouse previous = new Warehouse(warehouseOption.warehouse, SparkSessions.hadoopConf(conf));
        if (PreviousLayout.found(previous)) throw new Usage.Error(PreviousLayout.message(warehouseOption.warehouse));
        boolean defaultCatalog = Settings.of(conf).get(Settings.CATALOG).isEmpty();
        // the default catalog is files at the root: a run that is not there is a usage error before Spark starts
        if (asOf != null && defaultCatalog && !knowsRun(previous)) return ExitCodes.USAGE;
        SparkSession spark = sparkOptions.session("tracelake sql");
        try {
            Warehouse warehouse = new Warehouse(
                    warehouseOption.warehouse, spark.sparkContext().hadoopConfiguration());
            if (asOf != null && !defaultCatalog) {
                // the tables' catalog as the session has it (spark.tracelake.catalog names one of its own)
                new org.tracelake.jobs.warehouse.WarehouseTables(spark, warehouse);
                if (!knowsRun(warehouse)) return ExitCodes.USAGE;
            }
            SqlRunner runner = new SqlRunner(spark, fmt, limit, System.out, System.err);
            runner.register(warehouse, asOf);
            boolean ok;
            if (statements != null) {
                ok = runner.runAll(statements);
            } else {
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                ok = runner.interactive(in, stdinIsATerminal());
            }
            return ok ? ExitCodes.OK : ExitCodes.FAILED;
        } finally {
            spark.stop();
        }
    }

    /** Whether the warehouse keeps run {@link #asOf}; says why not, in one line, when it does not. */
    private boolean knowsRun(Warehouse warehouse) {
        if (warehouse.catalog().keepsRun(asOf)) return true;
        String oldest = warehouse.catalog().oldestRunKept();
        System.err.println("--as-of " + asOf + ": no such run in " + warehouse.root()
                + (oldest == null
                        ? " (it has no runs yet)"
                        : " among the runs kept (the oldest is " + oldest
                                + "; `SELECT run_id FROM runs` lists every run)"));
        return false;
    }

    /** The statements to run, or null for the interactive prompt. */
    private List<String> statements() throws Exception {
        String text = execute != null ? execute : query;
        if (file != null) {
            text = Files.readString(file, StandardCharsets.UTF_8);
        }
        return text == null ? null : SqlStatementSplitter.split(text);
    }

    /**
     * Whether prompts make sense: standard input is a terminal. Up to JDK 21 that is System.console() != null; from
     * JDK 22 console() is never null and Console.isTerminal() (absent from the JDK 17 API this is built against)
     * says it.
     */
    @SuppressWarnings("SystemConsoleNull") // handled: the null test holds up to JDK 21, isTerminal() after
    private static boolean stdinIsATerminal() {
        Console console = System.console();
        if (console == null) return false;
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException beforeJdk22) {
            return true;
        }
    }
}
