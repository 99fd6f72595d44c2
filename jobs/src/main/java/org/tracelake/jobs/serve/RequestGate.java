package org.tracelake.jobs.serve;

import java.util.List;
import java.util.Map;
import org.apache.spark.connect.proto.AnalyzePlanRequest;
import org.apache.spark.connect.proto.Catalog;
import org.apache.spark.connect.proto.Command;
import org.apache.spark.connect.proto.CommonInlineUserDefinedDataSource;
import org.apache.spark.connect.proto.CommonInlineUserDefinedFunction;
import org.apache.spark.connect.proto.CommonInlineUserDefinedTableFunction;
import org.apache.spark.connect.proto.ConfigRequest;
import org.apache.spark.connect.proto.KeyValue;
import org.apache.spark.connect.proto.Read;
import org.sparkproject.connect.grpc.ForwardingServerCallListener;
import org.sparkproject.connect.grpc.Metadata;
import org.sparkproject.connect.grpc.ServerCall;
import org.sparkproject.connect.grpc.ServerCallHandler;
import org.sparkproject.connect.grpc.ServerInterceptor;
import org.sparkproject.connect.grpc.Status;
import org.sparkproject.connect.protobuf.Any;
import org.sparkproject.connect.protobuf.Descriptors;
import org.sparkproject.connect.protobuf.Message;

/**
 * serve's first gate: every Spark Connect request, as the client sent it, before Spark plans it. It refuses what a
 * plan check could only see too late or not at all: uploading jars or classes ({@code AddArtifacts}), a DataFrame read
 * of a path or an outside source (a DataFrame reader given a path, JDBC), functions whose code the client sends
 * (Scala, Java and Python udfs, udtfs, data sources), server extensions, caching in the cache every client shares,
 * global views, settings outside {@link ServePolicy#SETTABLE}, and every command other than SQL and a temporary view
 * of the client's own session (writes too, unless {@code --allow-writes}). SQL itself goes on to {@link PlanCheck}.
 *
 * <p>Spark creates it by name ({@code spark.connect.grpc.interceptor.classes}); the token is checked before it, by
 * Spark's own interceptor, so an unauthenticated call never gets here.
 */
public final class RequestGate implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String method = call.getMethodDescriptor().getBareMethodName();
        if ("AddArtifacts".equals(method)) {
            call.close(
                    Status.PERMISSION_DENIED.withDescription(
                            ServePolicy.refusal("a served session loads no jar, class or file")),
                    new Metadata());
            return new ServerCall.Listener<>() {};
        }
        ServerCall.Listener<Q> delegate = next.startCall(call, headers);
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(delegate) {
            private boolean refused;

            @Override
            public void onMessage(Q message) {
                if (refused) return;
                String why = message instanceof Message m ? why(m) : null;
                if (why == null) {
                    super.onMessage(message);
                    return;
                }
                refused = true;
                call.close(Status.PERMISSION_DENIED.withDescription(ServePolicy.refusal(why)), new Metadata());
            }

            @Override
            public void onHalfClose() {
                if (!refused) super.onHalfClose();
            }

            @Override
            public void onReady() {
                if (!refused) super.onReady();
            }
        };
    }

    /** Why a request is refused, or null. Walks every message inside it (plans nest relations in expressions). */
    static String why(Message m) {
        String here = whyHere(m);
        if (here != null) return here;
        for (Map.Entry<Descriptors.FieldDescriptor, Object> f : m.getAllFields().entrySet()) {
            if (f.getKey().getJavaType() != Descriptors.FieldDescriptor.JavaType.MESSAGE) continue;
            Object v = f.getValue();
            List<?> values = v instanceof List<?> l ? l : List.of(v);
            for (Object o : values) {
                if (o instanceof Message child) {
                    String why = why(child);
                    if (why != null) return why;
                }
            }
        }
        return null;
    }

    private static String whyHere(Message m) {
        if (m instanceof Read.DataSource) {
            return "a served session reads the warehouse's tables (spark.table(\"events\")), not paths or outside"
                    + " sources (spark.read.format(…).load)";
        }
        if (m instanceof CommonInlineUserDefinedFunction
                || m instanceof CommonInlineUserDefinedTableFunction
                || m instanceof CommonInlineUserDefinedDataSource) {
            return "a function or data source defined by the client would run its code in the server";
        }
        if (m instanceof Any) return "server extensions are not served";
        if (m instanceof AnalyzePlanRequest.Persist) return "the cache is shared by every client of serve";
        if (m instanceof ConfigRequest.Set set) {
            for (KeyValue kv : set.getPairsList()) {
                if (!ServePolicy.settable(kv.getKey())) {
                    return ServePolicy.settingRefused(kv.getKey()).substring(PREFIX);
                }
            }
            return null;
        }
        if (m instanceof Command c) return command(c);
        if (m instanceof Catalog c) return catalog(c);
        return null;
    }

    private static final int PREFIX = ServePolicy.refusal("").length();

    private static String command(Command c) {
        switch (c.getCommandTypeCase()) {
            case SQL_COMMAND:
                return null; // the SQL goes on to PlanCheck
            case CREATE_DATAFRAME_VIEW:
                return c.getCreateDataframeView().getIsGlobal()
                        ? "views every client sees are the server's; createOrReplaceTempView makes one of this session"
                        : null;
            case WRITE_OPERATION:
            case WRITE_OPERATION_V2:
            case MERGE_INTO_TABLE_COMMAND:
                return ServePolicy.writesAllowed()
                        ? null
                        : "a served session only reads (DataFrame write); " + ServePolicy.READ_ONLY;
            default:
                return "a served session runs SQL and reads DataFrames; not "
                        + c.getCommandTypeCase().name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private static String catalog(Catalog c) {
        switch (c.getCatTypeCase()) {
            case CREATE_EXTERNAL_TABLE:
            case REFRESH_BY_PATH:
                return "a served session reads the warehouse's tables, not paths";
            case CREATE_TABLE:
            case RECOVER_PARTITIONS:
                return ServePolicy.writesAllowed()
                        ? null
                        : "a served session only reads (catalog change); " + ServePolicy.READ_ONLY;
            case DROP_GLOBAL_TEMP_VIEW:
                return "views every client sees are the server's";
            case CACHE_TABLE:
            case UNCACHE_TABLE:
            case CLEAR_CACHE:
                return "the cache is shared by every client of serve";
            default:
                return null;
        }
    }
}
