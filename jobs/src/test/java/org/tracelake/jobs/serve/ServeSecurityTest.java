package org.tracelake.jobs.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.connect.proto.AddArtifactsRequest;
import org.apache.spark.connect.proto.AddArtifactsResponse;
import org.apache.spark.connect.proto.Command;
import org.apache.spark.connect.proto.CreateDataFrameViewCommand;
import org.apache.spark.connect.proto.ExecutePlanRequest;
import org.apache.spark.connect.proto.ExecutePlanResponse;
import org.apache.spark.connect.proto.Plan;
import org.apache.spark.connect.proto.Read;
import org.apache.spark.connect.proto.Relation;
import org.apache.spark.connect.proto.SQL;
import org.apache.spark.connect.proto.SparkConnectServiceGrpc;
import org.apache.spark.connect.proto.UserContext;
import org.apache.spark.connect.proto.WriteOperation;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkproject.connect.grpc.ManagedChannel;
import org.sparkproject.connect.grpc.Metadata;
import org.sparkproject.connect.grpc.Status;
import org.sparkproject.connect.grpc.StatusRuntimeException;
import org.sparkproject.connect.grpc.netty.NettyChannelBuilder;
import org.sparkproject.connect.grpc.stub.MetadataUtils;
import org.sparkproject.connect.grpc.stub.StreamObserver;
import org.sparkproject.connect.protobuf.ByteString;
import org.tracelake.jobs.sql.ConnectSql;
import org.tracelake.jobs.sql.ResultPrinter;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * Issue 45's attacks on {@code serve}, each from a second client of a real {@code tracelake serve} process: no token,
 * a wrong token, a planted file read by SQL and by the DataFrame API, writes outside the warehouse and into it, a jar
 * (SQL and an uploaded artifact), Java reflection, a view another client sees redefined, a setting that would open a
 * catalog. With the token a query equals the local answer; a non-loopback --host without a token of the user's own
 * does not start.
 */
class ServeSecurityTest {
    @TempDir
    Path tmp;

    private Process serve;

    @AfterEach
    void stop() throws InterruptedException {
        if (serve != null && serve.isAlive()) {
            serve.destroy();
            if (!serve.waitFor(60, TimeUnit.SECONDS)) serve.destroyForcibly();
        }
    }

    @Test
    void aSecondClientReadsTheWarehouseAndNothingElse() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp).generated("a", 2, 2, 1, 0);
        assertTrue(archive.refresh(spark).allOk());
        Path secret = tmp.resolve("planted.txt");
        Files.writeString(secret, "SECRET-7c1f\n");
        Path outside = tmp.resolve("outside");

        Path stdout = tmp.resolve("serve.out");
        serve = MainProcess.startTo(
                stdout,
                tmp.resolve("serve.err"),
                "serve",
                "--warehouse",
                archive.warehouse.toString(),
                "--port",
                "0",
                "--master",
                "local[1]",
                "--conf",
                "spark.sql.shuffle.partitions=2",
                "--conf",
                "spark.tracelake.serve.warmupQueries=0"); // the warm-up is ServeTest's
        assertTrue(
                MainProcess.waitFor(
                        () -> MainProcess.serveAddress(stdout) != null || !serve.isAlive(), Duration.ofSeconds(300)),
                "serve never said where it listens");
        assertTrue(serve.isAlive(), "serve ended: " + Files.readString(tmp.resolve("serve.err")));
        String url = MainProcess.serveAddress(stdout);
        String banner = Files.readString(stdout);
        assertTrue(banner.contains("channel not encrypted"), banner);
        assertTrue(banner.contains("read-only"), banner);

        // the token: new, in a file and folder only the owner may read
        Path tokenFile = archive.warehouse.resolve("_serve").resolve("token");
        String token = MainProcess.serveToken(archive.warehouse);
        assertEquals(64, token.length(), "32 random bytes in hex");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile.getParent())));

        // no token, a wrong token: refused before anything runs
        String query = "SELECT workload, count(*) AS n FROM events GROUP BY workload ORDER BY workload";
        Result none = sql(url, null, query);
        assertEquals(1, none.code);
        assertEquals("", none.out);
        assertTrue(none.err.contains("refused the token: No authentication token provided"), none.err);
        Result wrong = sql(url, "0".repeat(64), query);
        assertEquals(1, wrong.code);
        assertTrue(wrong.err.contains("Invalid authentication token"), wrong.err);

        // with the token: the local answer
        Result ok = sql(url, token, query);
        assertEquals(0, ok.code, ok.err);
        long local =
                spark.read().format("iceberg").load(archive.table("events")).count();
        assertEquals("workload,n\na," + local + "\n", ok.out, "the events of workload a, as a local read counts them");

        sqlAttacks(url, token, archive, secret, outside, tokenFile);

        // the same by the DataFrame API, as spark.read.text(path) sends it
        assertDenied(
                execute(
                        url,
                        token,
                        Plan.newBuilder()
                                .setRoot(Relation.newBuilder()
                                        .setRead(Read.newBuilder()
                                                .setDataSource(Read.DataSource.newBuilder()
                                                        .setFormat("text")
                                                        .addPaths(secret.toString()))))
                                .build()),
                "a DataFrame read of a path");

        assertDenied(
                execute(
                        url,
                        token,
                        Plan.newBuilder()
                                .setCommand(Command.newBuilder()
                                        .setWriteOperation(WriteOperation.newBuilder()
                                                .setInput(sqlRelation("SELECT 1 AS x"))
                                                .setSource("parquet")
                                                .setPath(outside.toString())))
                                .build()),
                "a DataFrame write");
        assertFalse(Files.exists(outside), "nothing written outside the warehouse");
        assertEquals(
                local,
                spark.read().format("iceberg").load(archive.table("events")).count(),
                "events unchanged");

        Path jar = tmp.resolve("evil.jar"); // written by sqlAttacks
        assertDenied(addArtifact(url, token, "jars/evil.jar", Files.readAllBytes(jar)), "an uploaded jar");

        assertDenied(
                execute(
                        url,
                        token,
                        Plan.newBuilder()
                                .setCommand(Command.newBuilder()
                                        .setCreateDataframeView(CreateDataFrameViewCommand.newBuilder()
                                                .setInput(sqlRelation("SELECT 'forged' AS metric"))
                                                .setName("metrics")
                                                .setIsGlobal(true)
                                                .setReplace(true)))
                                .build()),
                "a global view");
        // the same SQL through serve's local endpoint (the way `sql` on this machine takes), and what only it reads
        int port = RunningServe.find(archive.warehouse.toString()).localPort();
        assertTrue(port > 0, "serve announces its local endpoint");
        String localWay = "local:" + port;
        Result noneLocal = sql(localWay, "", query);
        assertEquals(1, noneLocal.code);
        assertEquals("", noneLocal.out);
        assertTrue(noneLocal.err.contains("serve refused the token"), noneLocal.err);
        Result wrongLocal = sql(localWay, "0".repeat(64), query);
        assertEquals(1, wrongLocal.code);
        assertTrue(wrongLocal.err.contains("serve refused the token"), wrongLocal.err);
        assertEquals(ok, sql(localWay, token, query), "the same answer both ways");
        sqlAttacks(localWay, token, archive, secret, outside, tokenFile);
        LocalEndpointAttacks.strangers(port, token, query);

        assertTrue(serve.isAlive(), "serve still up after every attack");
        serve.destroy();
        assertTrue(serve.waitFor(120, TimeUnit.SECONDS));
        assertFalse(Files.exists(tokenFile), "the token goes with the server");
    }

    @Test
    void anotherAddressWithoutATokenOfTheUsersOwnDoesNotStart() throws Exception {
        Path warehouse = Files.createDirectories(tmp.resolve("warehouse"));
        Path stderr = tmp.resolve("serve.err");
        serve = MainProcess.startTo(
                tmp.resolve("serve.out"),
                stderr,
                "serve",
                "--warehouse",
                warehouse.toString(),
                "--host",
                "0.0.0.0",
                "--port",
                "0");
        assertTrue(serve.waitFor(120, TimeUnit.SECONDS));
        assertEquals(2, serve.exitValue());
        List<String> lines = Files.readString(stderr).lines().toList();
        assertEquals(1, lines.size(), "one line: " + lines);
        assertTrue(lines.get(0).startsWith("--host 0.0.0.0 opens serve to other machines"), lines.get(0));
        assertFalse(Files.exists(warehouse.resolve("_serve")), "no token written");
    }

    /**
     * The attacks a client makes with SQL alone, through either way in: Spark Connect ({@code sc://…}) or serve's
     * local endpoint ({@code local:PORT}).
     */
    private void sqlAttacks(String url, String token, TestArchive archive, Path secret, Path outside, Path tokenFile)
            throws Exception {
        SparkSession spark = SharedSpark.get();
        // a planted file, read by SQL: refused, its content never printed
        for (String read : List.of(
                "SELECT * FROM text.`" + secret + "`",
                "SELECT * FROM csv.`" + secret + "`",
                "SELECT * FROM text.`" + tokenFile + "`",
                "SELECT * FROM binaryFile.`" + archive.warehouse + "`",
                "CREATE TEMPORARY VIEW v USING text OPTIONS (path '" + secret + "')",
                "CREATE TEMPORARY VIEW v AS SELECT * FROM text.`" + secret + "`")) {
            refused(url, token, read);
        }
        // into a view: Spark's own analysis refuses it first (a view takes no data); with one line all the same
        refusedSomehow(url, token, "LOAD DATA LOCAL INPATH '" + secret + "' INTO TABLE events");
        // writes: outside the warehouse and into it, refused, nothing written
        for (String write : List.of(
                "INSERT OVERWRITE DIRECTORY '" + outside + "' USING parquet SELECT 1 AS x",
                "CREATE TABLE t USING parquet LOCATION '" + outside + "' AS SELECT 1 AS x",
                "CREATE TABLE t2 (x INT) USING parquet LOCATION '" + outside + "'",
                "DROP VIEW events",
                "ALTER VIEW metrics AS SELECT 1 AS x",
                "CACHE TABLE events")) {
            refused(url, token, write);
        }
        for (String intoAView : List.of(
                "INSERT INTO events SELECT * FROM events", "TRUNCATE TABLE events", "DELETE FROM events WHERE true")) {
            refusedSomehow(url, token, intoAView);
        }
        // code: a jar by SQL, a function from a jar, reflection, an uploaded artifact
        Path jar = tmp.resolve("evil.jar");
        Files.write(jar, new byte[] {'P', 'K', 3, 4});
        for (String code : List.of(
                "ADD JAR '" + jar + "'",
                "ADD FILE '" + secret + "'",
                "CREATE TEMPORARY FUNCTION evil AS 'evil.Evil' USING JAR '" + jar + "'",
                "CREATE FUNCTION evil AS 'evil.Evil'")) {
            refused(url, token, code);
        }
        for (String reflection : List.of(
                "SELECT java_method('java.lang.System', 'getProperty', 'user.home')",
                "SELECT reflect('java.lang.System', 'exit', 0)")) {
            refusedSomehow(url, token, reflection);
        }
        // settings: what opens a catalog or a file system is the server's; display settings are the client's
        refused(
                url,
                token,
                "SET spark.sql.catalog.evil=org.apache.spark.sql.execution.datasources.v2.jdbc.JDBCTableCatalog");
        refused(url, token, "SET spark.hadoop.fs.file.impl=evil.FileSystem");
        Result tz = sql(url, token, "SET spark.sql.session.timeZone=Europe/Paris");
        assertEquals(0, tz.code, tz.err);

        // views: a client cannot change what another client sees
        refused(url, token, "CREATE OR REPLACE VIEW metrics AS SELECT 'forged' AS metric");
        refused(url, token, "CREATE OR REPLACE GLOBAL TEMPORARY VIEW metrics AS SELECT 'forged' AS metric");
        long metrics =
                spark.read().format("iceberg").load(archive.table("metrics")).count();
        Result own = sql(
                url,
                token,
                "CREATE OR REPLACE TEMPORARY VIEW metrics AS SELECT 'forged' AS metric",
                "SELECT count(*) AS n FROM metrics",
                "DROP VIEW metrics");
        assertEquals(0, own.code, own.err);
        assertEquals("n\n1\n", own.out, "a temporary view of the client's own session");
        Result other = sql(url, token, "SELECT count(*) AS n FROM metrics");
        assertEquals("n\n" + metrics + "\n", other.out, "the next client sees the warehouse's metrics");
    }

    private record Result(int code, String out, String err) {}

    /** Statements through Spark Connect ({@code sc://HOST:PORT}) or serve's local endpoint ({@code local:PORT}). */
    private static Result sql(String url, String token, String... statements) throws InterruptedException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        int code = url.startsWith("local:")
                ? LocalClient.run(
                        Integer.parseInt(url.substring("local:".length())),
                        token,
                        List.of(statements),
                        "csv",
                        100,
                        o,
                        e)
                : ConnectSql.run(url, token, List.of(statements), ResultPrinter.Format.CSV, 100, o, e);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A statement refused with one line in serve's words, and nothing printed. */
    private static void refused(String url, String token, String statement) throws InterruptedException {
        Result r = sql(url, token, statement);
        assertEquals(1, r.code, statement + " ran: " + r.out);
        assertEquals("", r.out, statement);
        List<String> lines = r.err.lines().toList();
        assertEquals(1, lines.size(), statement + ": " + r.err);
        assertTrue(lines.get(0).contains("tracelake serve refuses this: "), statement + ": " + lines.get(0));
        assertFalse(r.err.contains("SECRET-7c1f"), statement);
    }

    /**
     * A statement that fails with one line and prints nothing: where Spark's own analysis may refuse it before serve's
     * check looks (a write into a view; reflection where Spark disables it).
     */
    private static void refusedSomehow(String url, String token, String statement) throws InterruptedException {
        Result r = sql(url, token, statement);
        assertEquals(1, r.code, statement + " ran: " + r.out);
        assertEquals("", r.out, statement);
        assertEquals(1, r.err.lines().count(), statement + ": " + r.err);
        assertFalse(r.err.contains("SECRET-7c1f"), statement);
    }

    private static void assertDenied(StatusRuntimeException e, String what) {
        assertNotEquals(null, e, what + " went through");
        assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode(), what + ": " + e);
        assertTrue(e.getStatus().getDescription().startsWith("tracelake serve refuses this: "), what + ": " + e);
    }

    private static Relation sqlRelation(String query) {
        return Relation.newBuilder().setSql(SQL.newBuilder().setQuery(query)).build();
    }

    private static ManagedChannel channel(String url) {
        java.net.URI uri = java.net.URI.create(url);
        return NettyChannelBuilder.forAddress(uri.getHost(), uri.getPort())
                .usePlaintext()
                .build();
    }

    private static Metadata bearer(String token) {
        Metadata m = new Metadata();
        m.put(Metadata.Key.of("Authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
        return m;
    }

    /** Sends one plan as a Spark Connect client does; returns the error it ended with, or null. */
    private static StatusRuntimeException execute(String url, String token, Plan plan) throws InterruptedException {
        ManagedChannel channel = channel(url);
        try {
            SparkConnectServiceGrpc.SparkConnectServiceBlockingStub stub = SparkConnectServiceGrpc.newBlockingStub(
                            channel)
                    .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(bearer(token)));
            Iterator<ExecutePlanResponse> it = stub.executePlan(ExecutePlanRequest.newBuilder()
                    .setSessionId(UUID.randomUUID().toString())
                    .setUserContext(UserContext.newBuilder().setUserId("second-client"))
                    .setPlan(plan)
                    .build());
            while (it.hasNext()) it.next();
            return null;
        } catch (StatusRuntimeException e) {
            return e;
        } finally {
            channel.shutdownNow();
            channel.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    /** Uploads one artifact as the JVM client's addArtifact does; returns the error it ended with, or null. */
    private static StatusRuntimeException addArtifact(String url, String token, String name, byte[] data)
            throws InterruptedException {
        ManagedChannel channel = channel(url);
        try {
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<StatusRuntimeException> error = new AtomicReference<>();
            StreamObserver<AddArtifactsRequest> requests = SparkConnectServiceGrpc.newStub(channel)
                    .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(bearer(token)))
                    .addArtifacts(new StreamObserver<AddArtifactsResponse>() {
                        @Override
                        public void onNext(AddArtifactsResponse r) {}

                        @Override
                        public void onError(Throwable t) {
                            error.set(
                                    t instanceof StatusRuntimeException s
                                            ? s
                                            : Status.fromThrowable(t).asRuntimeException());
                            done.countDown();
                        }

                        @Override
                        public void onCompleted() {
                            done.countDown();
                        }
                    });
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(data);
            requests.onNext(AddArtifactsRequest.newBuilder()
                    .setSessionId(UUID.randomUUID().toString())
                    .setUserContext(UserContext.newBuilder().setUserId("second-client"))
                    .setBatch(AddArtifactsRequest.Batch.newBuilder()
                            .addArtifacts(AddArtifactsRequest.SingleChunkArtifact.newBuilder()
                                    .setName(name)
                                    .setData(AddArtifactsRequest.ArtifactChunk.newBuilder()
                                            .setData(ByteString.copyFrom(data))
                                            .setCrc(crc.getValue()))))
                    .build());
            requests.onCompleted();
            assertTrue(done.await(60, TimeUnit.SECONDS), "no answer to the upload");
            return error.get();
        } finally {
            channel.shutdownNow();
            channel.awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
