package org.tracelake.jobs.readers.rocprof;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.readers.common.DeviceRanks;
import org.tracelake.jobs.readers.common.EventRow;
import org.tracelake.jobs.readers.common.JsonInput;
import org.tracelake.jobs.readers.common.JsonNumbers;
import org.tracelake.jobs.readers.common.RowStream;
import org.tracelake.jobs.readers.common.TimeBases;
import org.tracelake.udfs.ActivityClass;
import org.tracelake.udfs.CollectiveKind;

/**
 * rocprofv3 JSON ({@code <pid>_results.json[.gz]}, top key {@code rocprofiler-sdk-tool}), streamed twice with
 * Jackson's token parser: the first pass ({@link RocprofIndex}) reads the small sections, which may follow the
 * records; the second streams {@code buffer_records.kernel_dispatch} and {@code memory_copy}, one small record tree
 * at a time, into {@code kernel} and {@code gpu_memcpy} rows. Times are the host's monotonic ns (FORMATS.md §3).
 */
public final class RocprofReader implements TraceReader {
    static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    static final String KERNEL_DISPATCH = "kernel_dispatch";
    static final String MEMORY_COPY = "memory_copy";

    @Override
    public EventStream open(FileTask task, Configuration conf) throws IOException {
        FileReport report = new FileReport(task);
        RocprofIndex index = JsonInput.firstPass(task, conf, FACTORY, report, RocprofIndex::build);
        if (!index.sawTool) {
            throw new IOException(
                    "no \"" + RocprofIndex.TOOL + "\" array: this JSON is not rocprofv3 --output-format json");
        }
        DeviceRanks ranks = new DeviceRanks(task.fileName(), index.devicesUsed);
        ranks.describe(report, index.devicesUsed);
        report.timeBase = TimeBases.MONOTONIC;
        report.metadata.put(
                "time_base_note",
                "ts_ns is the host monotonic clock in ns (about the uptime), not the "
                        + "epoch: align with Kineto or AORTA traces of the same run by kernel sequence");
        report.metadata.putAll(index.metadata);
        return new Rows(task, report, index, ranks, JsonInput.open(task, conf, FACTORY, false, p -> {}));
    }

    /**
     * The second pass, resumable between pulls: the parser walks root → tool array → process objects →
     * buffer_records → record arrays, and {@link #position} says at which level it stands.
     */
    private static final class Rows extends RowStream {
        private enum Level {
            ROOT,
            PROCESSES,
            PROCESS,
            BUFFERS,
            RECORDS,
            DONE
        }

        private static final Pattern COPY_DIRECTION = Pattern.compile("MEMORY_COPY_([A-Z]+)_TO_([A-Z]+)");

        private final RocprofIndex index;
        private final DeviceRanks ranks;
        private final JsonInput input;
        private final JsonParser p;
        private final EventRow row = new EventRow();
        private Level position = Level.ROOT;
        private int processIdx = -1;
        private String recordKind;
        private long ordinal;
        /** The row the last step produced, if any. */
        private InternalRow next;

        Rows(FileTask task, FileReport report, RocprofIndex index, DeviceRanks ranks, JsonInput input) {
            super(task, report);
            this.index = index;
            this.ranks = ranks;
            this.input = input;
            this.p = input.p();
        }

        @Override
        protected InternalRow advance() throws IOException {
            while (next == null && position != Level.DONE) step();
            InternalRow row = next;
            next = null;
            return row;
        }

        @Override
        protected void release() throws IOException {
            input.close();
        }

        /** Advances the walk by one token-level decision; may leave a row in {@link #next}. */
        private void step() throws IOException {
            switch (position) {
                case ROOT -> {
                    if (p.currentToken() == null && p.nextToken() != JsonToken.START_OBJECT) throw changed();
                    JsonToken t = p.nextToken();
                    if (t != JsonToken.FIELD_NAME) throw changed();
                    boolean tool = p.currentName().equals(RocprofIndex.TOOL);
                    if (p.nextToken() == JsonToken.START_ARRAY && tool) position = Level.PROCESSES;
                    else p.skipChildren();
                }
                case PROCESSES -> {
                    JsonToken t = p.nextToken();
                    if (t == JsonToken.START_OBJECT) {
                        processIdx++;
                        position = Level.PROCESS;
                    } else {
                        walkDone();
                    }
                }
                case PROCESS -> {
                    JsonToken t = p.nextToken();
                    if (t == JsonToken.END_OBJECT) {
                        position = Level.PROCESSES;
                        return;
                    }
                    if (t != JsonToken.FIELD_NAME)
                        throw new IOException("file ends inside a " + RocprofIndex.TOOL + " element");
                    boolean buffers = p.currentName().equals("buffer_records");
                    if (p.nextToken() == JsonToken.START_OBJECT && buffers) position = Level.BUFFERS;
                    else p.skipChildren();
                }
                case BUFFERS -> {
                    JsonToken t = p.nextToken();
                    if (t == JsonToken.END_OBJECT) {
                        position = Level.PROCESS;
                        return;
                    }
                    if (t != JsonToken.FIELD_NAME) throw new IOException("file ends inside buffer_records");
                    String kind = p.currentName();
                    boolean wanted = kind.equals(KERNEL_DISPATCH) || kind.equals(MEMORY_COPY);
                    if (p.nextToken() == JsonToken.START_ARRAY && wanted) {
                        recordKind = kind;
                        position = Level.RECORDS;
                    } else {
                        p.skipChildren();
                    }
                }
                case RECORDS -> {
                    JsonToken t = p.nextToken();
                    if (t == JsonToken.END_ARRAY) {
                        position = Level.BUFFERS;
                    } else if (t == JsonToken.START_OBJECT) {
                        long at = ordinal++;
                        JsonNode record = RocprofIndex.JSON.readTree(p);
                        next = recordKind.equals(KERNEL_DISPATCH) ? kernelRow(record, at) : copyRow(record, at);
                    } else if (t == null) {
                        throw new IOException("file ends inside buffer_records." + recordKind);
                    } else {
                        p.skipChildren();
                        report.drops.drop(recordKind + " entry is not an object");
                    }
                }
                case DONE -> {}
            }
        }

        private void walkDone() {
            position = Level.DONE;
        }

        private IOException changed() {
            return new IOException("the file changed between the two passes (no " + RocprofIndex.TOOL
                    + " where it was): was it being rewritten?");
        }

        private RocprofProcess process() {
            return index.processes.get(processIdx);
        }

        private InternalRow kernelRow(JsonNode r, long at) {
            JsonNode info = r.path("dispatch_info");
            Long kernelId = JsonNumbers.whole(info.path("kernel_id"));
            RocprofProcess.KernelSymbol symbol =
                    kernelId == null ? null : process().kernels.get(kernelId);
            if (!common(
                    r,
                    at,
                    process().device(JsonNumbers.whole(info.path("agent_id").path("handle"))))) return null;
            row.cat = ActivityClass.CAT_KERNEL;
            row.name = symbol != null ? symbol.name() : kernelId == null ? "unknown kernel" : "kernel_id " + kernelId;
            row.arg(
                    "short_name",
                    symbol == null || symbol.name().equals(symbol.shortName()) ? null : symbol.shortName());
            row.arg("queue", JsonNumbers.whole(info.path("queue_id").path("handle")));
            row.arg("grid_size", xyz(info.path("grid_size")));
            row.arg("workgroup_size", xyz(info.path("workgroup_size")));
            row.arg("kernel_id", kernelId);
            row.arg("dispatch_id", JsonNumbers.whole(info.path("dispatch_id")));
            row.arg("private_segment_size", JsonNumbers.whole(info.path("private_segment_size")));
            row.arg("group_segment_size", JsonNumbers.whole(info.path("group_segment_size")));
            return finishRow();
        }

        private InternalRow copyRow(JsonNode r, long at) {
            Integer dst =
                    process().device(JsonNumbers.whole(r.path("dst_agent_id").path("handle")));
            Integer src =
                    process().device(JsonNumbers.whole(r.path("src_agent_id").path("handle")));
            if (!common(r, at, dst != null ? dst : src)) return null;
            String op =
                    process().operationName(JsonNumbers.whole(r.path("kind")), JsonNumbers.whole(r.path("operation")));
            row.cat = ActivityClass.CAT_GPU_MEMCPY;
            row.name = copyName(op);
            row.arg("operation", op);
            row.arg("bytes", JsonNumbers.whole(r.path("bytes")));
            row.arg("src_device", src);
            row.arg("dst_device", dst);
            return finishRow();
        }

        /** Columns every record has; false (and a counted drop) when its times are unusable. */
        private boolean common(JsonNode r, long at, Integer device) {
            Long start = JsonNumbers.whole(r.path("start_timestamp"));
            Long end = JsonNumbers.whole(r.path("end_timestamp"));
            if (start == null || end == null) {
                report.drops.drop(recordKind + " record without start/end timestamp");
                return false;
            }
            if (end < start) {
                report.drops.drop(recordKind + " record ending before it starts");
                return false;
            }
            row.clear();
            row.ordinal = at;
            row.pid = process().pid;
            Long thread = JsonNumbers.whole(r.path("thread_id"));
            row.tid = thread == null ? null : thread.toString();
            row.device = device;
            row.rank = ranks.forDevice(device);
            row.stream = JsonNumbers.whole(r.path("stream_id").path("handle"));
            row.ph = "X";
            row.tsNs = start;
            row.durNs = end - start;
            row.correlation = JsonNumbers.whole(r.path("correlation_id").path("internal"));
            Long external = JsonNumbers.whole(r.path("correlation_id").path("external"));
            row.externalId = external == null || external == 0 ? null : external;
            row.arg("thread_id", thread);
            return true;
        }

        private InternalRow finishRow() {
            row.classify(null);
            if (row.isComm()) row.collective = CollectiveKind.of(null, row.name, null);
            return row.build(task, report);
        }

        /** "MEMORY_COPY_HOST_TO_DEVICE" → "Memcpy HtoD", the spelling CUDA tools and Kineto use. */
        private static String copyName(String operation) {
            if (operation == null) return "Memcpy";
            Matcher m = COPY_DIRECTION.matcher(operation);
            return m.matches()
                    ? "Memcpy " + m.group(1).charAt(0) + "to" + m.group(2).charAt(0)
                    : "Memcpy " + operation;
        }

        private static String xyz(JsonNode n) {
            if (n.isMissingNode()) return null;
            return "[" + n.path("x").asText() + ", " + n.path("y").asText() + ", "
                    + n.path("z").asText() + "]";
        }
    }
}
