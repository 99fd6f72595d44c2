package org.tracelake.jobs.sql;

import java.io.PrintStream;
import java.net.URI;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.spark.connect.proto.ExecutePlanRequest;
import org.apache.spark.connect.proto.ExecutePlanResponse;
import org.apache.spark.connect.proto.Expression;
import org.apache.spark.connect.proto.Limit;
import org.apache.spark.connect.proto.Plan;
import org.apache.spark.connect.proto.Project;
import org.apache.spark.connect.proto.Relation;
import org.apache.spark.connect.proto.SQL;
import org.apache.spark.connect.proto.SparkConnectServiceGrpc;
import org.apache.spark.connect.proto.UserContext;
import org.sparkproject.connect.grpc.ManagedChannel;
import org.sparkproject.connect.grpc.Metadata;
import org.sparkproject.connect.grpc.StatusRuntimeException;
import org.sparkproject.connect.grpc.netty.NettyChannelBuilder;
import org.sparkproject.connect.grpc.stub.MetadataUtils;

/**
 * {@code sql --remote} for statements given on the command line or in a file: a thin Spark Connect client that speaks
 * the protocol's gRPC service directly (the generated stubs Spark's own Connect jar carries, already on tracelake's
 * classpath), with no Scala {@code SparkSession}. Each statement goes as a SQL relation limited to the rows printed (for JSON,
 * {@code to_json(struct(*))} of them, as the JVM client's {@code toJSON} sends it); the rows come back as Arrow
 * batches, decoded by {@link ArrowRows}. Plain Spark Connect plans, so a server sees an ordinary client; the output is {@link ResultPrinter}'s, as locally.
 *
 * <p>Why not the JVM client: a one-line query from a fresh process spent ~4 s in its start (Scala reflection, its own
 * class loader outside the class-data archive, its encoders), several times the query. The prompt, which starts once,
 * keeps using that client ({@code RemoteSql}).
 */
public final class ConnectSql implements AutoCloseable {
    private final ManagedChannel channel;
    private final SparkConnectServiceGrpc.SparkConnectServiceBlockingStub stub;
    private final String sessionId = UUID.randomUUID().toString();
    private final UserContext user;
    private final BufferAllocator allocator = new RootAllocator();

    private ConnectSql(String host, int port, String token) {
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(host, port)
                .maxInboundMessageSize(128 * 1024 * 1024); // the Connect client's default
        // As Spark's own clients: a token goes over a plain channel only to this machine, to any other host over TLS.
        if (token == null || isLoopback(host)) builder.usePlaintext();
        else builder.useTransportSecurity();
        channel = builder.build();
        SparkConnectServiceGrpc.SparkConnectServiceBlockingStub s = SparkConnectServiceGrpc.newBlockingStub(channel);
        if (token != null) {
            Metadata headers = new Metadata();
            headers.put(AUTHORIZATION, "Bearer " + token);
            s = s.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
        }
        stub = s;
        user = UserContext.newBuilder()
                .setUserId(System.getProperty("user.name", ""))
                .build();
    }

    private static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("Authorization", Metadata.ASCII_STRING_MARSHALLER);

    /** Whether a host name or address is this machine's loopback. */
    static boolean isLoopback(String host) {
        if (host.equals("localhost")) return true;
        try {
            return java.net.InetAddress.getByName(host).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /**
     * Whether this client can take the address: {@code sc://HOST:PORT} with nothing after it (the token is given
     * apart; TLS or other parameters are left to the full client).
     */
    public static boolean handles(String url) {
        return address(url) != null;
    }

    /** HOST and PORT of {@code sc://HOST:PORT[/]}, or null. */
    private static URI address(String url) {
        try {
            URI uri = new URI(url);
            String rest = uri.getRawPath() == null ? "" : uri.getRawPath();
            if (!"sc".equals(uri.getScheme()) || uri.getHost() == null || !(rest.isEmpty() || rest.equals("/")))
                return null;
            if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getUserInfo() != null) return null;
            return uri;
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * Runs {@code statements} in order, printing each result; stops at the first that fails. Returns the exit code:
     * 0 all ran, 1 one failed or the server could not be reached.
     */
    public static int run(
            String url,
            String token,
            List<String> statements,
            ResultPrinter.Format format,
            int limit,
            PrintStream out,
            PrintStream err)
            throws InterruptedException {
        URI uri = address(url);
        if (uri == null) throw new IllegalArgumentException("not sc://HOST:PORT: " + url);
        try (ConnectSql client = new ConnectSql(uri.getHost(), uri.getPort() < 0 ? 15002 : uri.getPort(), token)) {
            for (int i = 0; i < statements.size(); i++) {
                try {
                    client.execute(statements.get(i), format, limit, out);
                } catch (StatusRuntimeException e) {
                    if (i == 0 && e.getStatus().getCode() == org.sparkproject.connect.grpc.Status.Code.UNAVAILABLE) {
                        err.println("cannot reach " + url + ": " + SqlRunner.message(rootCause(e))
                                + " (is `tracelake serve` running there?)");
                    } else if (e.getStatus().getCode() == org.sparkproject.connect.grpc.Status.Code.UNAUTHENTICATED) {
                        err.println(url + " refused the token: " + e.getStatus().getDescription() + " (" + TOKEN_HINT
                                + ")");
                    } else {
                        String d = e.getStatus().getDescription();
                        err.println("error: " + SqlRunner.message(d == null ? e : new Exception(d)));
                    }
                    return 1;
                }
            }
            return 0;
        }
    }

    /**
     * One statement, as a SQL relation under the limit: one round trip. The server runs a command (SET, CREATE VIEW,
     * …) once, as the statement is analysed, as it does for the JVM client's SQL command; only a result with columns
     * is printed.
     */
    void execute(String statement, ResultPrinter.Format format, int limit, PrintStream out) {
        Relation result = Relation.newBuilder()
                .setSql(SQL.newBuilder().setQuery(statement))
                .build();
        switch (format) {
            case JSON -> {
                // toJSON as the JVM client sends it: to_json(struct(*)) over the limited rows, made by the server.
                Expression star = Expression.newBuilder()
                        .setUnresolvedStar(Expression.UnresolvedStar.newBuilder())
                        .build();
                Relation json = Relation.newBuilder()
                        .setProject(Project.newBuilder()
                                .setInput(limited(result, limit))
                                .addExpressions(function("to_json", function("struct", star))))
                        .build();
                for (Object[] row : fetch(json).rows()) out.println(row[0]);
            }
            case TABLE -> {
                ArrowRows rows = fetch(limited(result, ResultPrinter.oneMore(limit)));
                if (rows.columns().length > 0) ResultPrinter.printTable(rows.columns(), rows.rows(), limit, out);
            }
            case CSV -> {
                ArrowRows rows = fetch(limited(result, limit));
                if (rows.columns().length > 0) ResultPrinter.printCsv(rows.columns(), rows.rows(), out);
            }
        }
    }

    /** Executes a relation and decodes every Arrow batch it returns. */
    private ArrowRows fetch(Relation relation) {
        ArrowRows rows = new ArrowRows();
        Iterator<ExecutePlanResponse> responses =
                stub.executePlan(request(Plan.newBuilder().setRoot(relation).build()));
        while (responses.hasNext()) {
            ExecutePlanResponse r = responses.next();
            if (r.hasSchema()) rows.schema(r.getSchema());
            if (r.hasArrowBatch()) {
                try (ArrowStreamReader reader =
                        new ArrowStreamReader(r.getArrowBatch().getData().newInput(), allocator)) {
                    VectorSchemaRoot root = reader.getVectorSchemaRoot();
                    while (reader.loadNextBatch()) rows.add(root);
                    if (rows.columns() == null) rows.schema(root);
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(
                            "an Arrow batch from the server does not read: " + e.getMessage(), e);
                }
            }
        }
        return rows;
    }

    private ExecutePlanRequest request(Plan plan) {
        return ExecutePlanRequest.newBuilder()
                .setSessionId(sessionId)
                .setUserContext(user)
                .setClientType(CLIENT_TYPE)
                .setPlan(plan)
                .build();
    }

    private static Relation limited(Relation input, int n) {
        return Relation.newBuilder()
                .setLimit(Limit.newBuilder().setInput(input).setLimit(n))
                .build();
    }

    private static Expression function(String name, Expression argument) {
        return Expression.newBuilder()
                .setUnresolvedFunction(Expression.UnresolvedFunction.newBuilder()
                        .setFunctionName(name)
                        .addArguments(argument))
                .build();
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        return t;
    }

    private static final String CLIENT_TYPE = "tracelake-sql";

    /** Where {@code sql --remote} takes the token from, in the order it looks. */
    public static final String TOKEN_HINT = "sql --remote passes ;token= of the address, else"
            + " SPARK_CONNECT_AUTHENTICATE_TOKEN, else WAREHOUSE/_serve/token of --warehouse";

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow();
        channel.awaitTermination(5, TimeUnit.SECONDS);
        allocator.close();
    }
}
