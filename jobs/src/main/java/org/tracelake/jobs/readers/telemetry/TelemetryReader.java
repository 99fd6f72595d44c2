package org.tracelake.jobs.readers.telemetry;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceInput;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.readers.common.JsonNumbers;
import org.tracelake.jobs.readers.common.RowBuilder;
import org.tracelake.jobs.readers.common.RowStream;
import org.tracelake.schemas.TelemetrySchema;
import org.tracelake.udfs.RankFromFileName;

/**
 * AORTA's per-rank iteration telemetry ({@code rank_NN_metrics.jsonl}, FORMATS.md §4) into
 * {@code iteration_telemetry}: streamed a line at a time (one JSON object per iteration), each line giving one
 * {@code iteration} row plus a {@code range} row per profiled range and a {@code marker} row per marker.
 *
 * <p>{@code loss} may be the bare token {@code NaN} (Jackson's non-numeric numbers are allowed); it is kept as NaN.
 * A line that is not a JSON object — typically the last one, cut short when the run was killed — is dropped with its
 * reason (so the file is reported, with the rest of its lines kept).
 */
public final class TelemetryReader implements TraceReader {
    /** Longest line read: an iteration is a few KB of JSON, even with hundreds of ranges. */
    static final int MAX_LINE_BYTES = 16 << 20;

    static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build());

    /** Top-level keys with their own columns; any other scalar goes to the iteration row's metadata. */
    private static final Set<String> KNOWN =
            Set.of("rank", "world_size", "epoch", "step", "global_step", "loss", "grad_norm", "lr", "profile");

    @Override
    public EventStream open(FileTask task, Configuration conf) throws IOException {
        FileReport report = new FileReport(task);
        TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), true);
        return new Rows(task, report, in);
    }

    private static final class Rows extends RowStream {
        private final TraceInput.Opened in;
        private final BoundedLines lines;
        private final RowBuilder row = new RowBuilder(TelemetrySchema.SCHEMA);
        /** A line gives several rows (its iteration, ranges and markers): those not yet returned. */
        private final Deque<InternalRow> pending = new ArrayDeque<>();

        private long lineNo;
        private long ordinal;
        private long otherRankLines;
        private boolean rankResolved;
        private boolean done;

        Rows(FileTask task, FileReport report, TraceInput.Opened in) {
            super(task, report);
            this.in = in;
            this.lines = new BoundedLines(in, MAX_LINE_BYTES);
        }

        @Override
        protected InternalRow advance() throws IOException {
            while (pending.isEmpty() && !done) readLine();
            return pending.poll();
        }

        @Override
        protected void release() throws IOException {
            in.close();
        }

        private void readLine() throws IOException {
            BoundedLines.Line line = lines.next();
            if (line == null) {
                endOfFile();
                return;
            }
            lineNo++;
            if (line.tooLong()) {
                report.drops.drop("line longer than " + MAX_LINE_BYTES + " bytes");
                return;
            }
            String text = new String(line.bytes(), StandardCharsets.UTF_8);
            if (text.isBlank()) return;
            JsonNode node;
            try {
                node = JSON.readTree(text);
            } catch (JsonProcessingException bad) {
                report.drops.drop(
                        line.terminated()
                                ? "malformed JSON line (not one JSON object per line)"
                                : "truncated last line (no newline at the end and incomplete JSON: the run was stopped while writing)");
                return;
            }
            if (node == null || !node.isObject()) {
                report.drops.drop("line is not a JSON object");
                return;
            }
            emit(node);
        }

        /** The end of the file: what only the whole file tells, then the hash (the base class then releases). */
        private void endOfFile() throws IOException {
            done = true;
            if (!rankResolved) resolveRank(null);
            if (otherRankLines > 0) {
                report.metadata.put(
                        "rank_warning",
                        otherRankLines + " lines carry a rank other than " + report.rank
                                + "; every row of this file is given rank " + report.rank);
            }
            report.metadata.put("lines", Long.toString(lineNo));
            report.contentHash = in.drainAndHash();
        }

        private void resolveRank(Integer fromContent) {
            report.resolveRank(fromContent, RankFromFileName.rank(task.fileName()));
            rankResolved = true;
        }

        private void emit(JsonNode n) {
            Integer rank = JsonNumbers.wholeInt(n.get("rank"));
            if (!rankResolved) resolveRank(rank);
            else if (rank != null && !rank.equals(report.rank)) otherRankLines++;
            Integer worldSize = JsonNumbers.wholeInt(n.get("world_size"));
            if (worldSize != null && report.worldSize == null) report.worldSize = worldSize;
            Long epoch = JsonNumbers.whole(n.get("epoch"));
            Long step = JsonNumbers.whole(n.get("step"));
            Long globalStep = JsonNumbers.whole(n.get("global_step"));
            JsonNode profile = n.get("profile");
            boolean hasProfile = profile != null && profile.isObject();
            JsonNode overlap = hasProfile ? profile.path("overlap") : null;
            boolean hasOverlap = overlap != null && overlap.isObject();
            JsonNode perStream = hasOverlap ? overlap.path("per_stream_ms") : null;
            JsonNode overlapMs = hasOverlap ? overlap.path("overlap_ms") : null;

            Map<String, String> extra = new LinkedHashMap<>();
            Iterator<Map.Entry<String, JsonNode>> fields = n.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                if (KNOWN.contains(f.getKey()) || f.getValue().isContainerNode()) continue;
                extra.put(
                        f.getKey(),
                        clip(
                                f.getValue().isTextual()
                                        ? f.getValue().textValue()
                                        : f.getValue().toString()));
            }

            pending.add(common(TelemetrySchema.KIND_ITERATION, worldSize, epoch, step, globalStep)
                    .set("profile_index", hasProfile ? JsonNumbers.whole(profile.get("index")) : null)
                    .set("loss", JsonNumbers.decimal(n.get("loss")))
                    .set("grad_norm", JsonNumbers.decimal(n.get("grad_norm")))
                    .set("lr", JsonNumbers.decimal(n.get("lr")))
                    .set("total_ms", hasProfile ? JsonNumbers.decimal(profile.get("total_ms")) : null)
                    .set("compute_ms", stream(perStream, "compute"))
                    .set("allreduce_ms", stream(perStream, "allreduce"))
                    .set("reducescatter_ms", stream(perStream, "reducescatter"))
                    .set("aux_ms", stream(perStream, "aux"))
                    .set("overlap_compute_allreduce_ms", stream(overlapMs, "compute_allreduce"))
                    .set("overlap_compute_reducescatter_ms", stream(overlapMs, "compute_reducescatter"))
                    .set("overlap_compute_comm_ms", stream(overlapMs, "compute_comm"))
                    .set("idle_ms", stream(overlapMs, "idle"))
                    .set("per_stream_ms", doubles(perStream))
                    .set("utilization", doubles(hasOverlap ? overlap.path("utilization") : null))
                    .set("metadata", extra.isEmpty() ? null : extra)
                    .build());

            if (!hasProfile) return;
            for (JsonNode r : profile.path("ranges")) {
                if (!r.isObject()) {
                    report.drops.drop("profile range is not an object");
                    continue;
                }
                pending.add(sub(
                        TelemetrySchema.KIND_RANGE,
                        worldSize,
                        epoch,
                        step,
                        globalStep,
                        r,
                        JsonNumbers.decimal(r.get("start_ms")),
                        JsonNumbers.decimal(r.get("end_ms")),
                        JsonNumbers.decimal(r.get("duration_ms"))));
            }
            for (JsonNode m : profile.path("markers")) {
                if (!m.isObject()) {
                    report.drops.drop("profile marker is not an object");
                    continue;
                }
                Double t = JsonNumbers.decimal(m.get("time_ms"));
                pending.add(sub(TelemetrySchema.KIND_MARKER, worldSize, epoch, step, globalStep, m, t, t, 0.0));
            }
        }

        private InternalRow sub(
                String kind,
                Integer worldSize,
                Long epoch,
                Long step,
                Long globalStep,
                JsonNode r,
                Double start,
                Double end,
                Double duration) {
            return common(kind, worldSize, epoch, step, globalStep)
                    .set("stream", text(r.get("stream")))
                    .set("tag", text(r.get("tag")))
                    .set("start_ms", start)
                    .set("end_ms", end)
                    .set("duration_ms", duration)
                    .set("metadata", texts(r.get("metadata")))
                    .build();
        }

        /** The columns every row of a line has. */
        private RowBuilder common(String kind, Integer worldSize, Long epoch, Long step, Long globalStep) {
            return row.set("workload", task.workload())
                    .set("rank", report.rank)
                    .set("source_file", task.path())
                    .set("line", lineNo)
                    .set("ordinal", ordinal++)
                    .set("row_kind", kind)
                    .set("world_size", worldSize)
                    .set("epoch", epoch)
                    .set("step", step)
                    .set("global_step", globalStep);
        }

        /** A stream's (or overlap's) ms: 0 when the overlap object exists without the key (AORTA omits zeros). */
        private static Double stream(JsonNode map, String key) {
            if (map == null) return null;
            if (!map.isObject()) return null;
            JsonNode v = map.get(key);
            return v == null || v.isNull() ? 0.0 : JsonNumbers.decimal(v);
        }

        private static Map<String, Double> doubles(JsonNode map) {
            if (map == null || !map.isObject() || map.isEmpty()) return null;
            Map<String, Double> out = new LinkedHashMap<>();
            map.fields().forEachRemaining(e -> out.put(clip(e.getKey()), JsonNumbers.decimal(e.getValue())));
            return out;
        }

        private static Map<String, String> texts(JsonNode map) {
            if (map == null || !map.isObject() || map.isEmpty()) return null;
            Map<String, String> out = new LinkedHashMap<>();
            map.fields()
                    .forEachRemaining(e -> out.put(
                            clip(e.getKey()),
                            clip(
                                    e.getValue().isTextual()
                                            ? e.getValue().textValue()
                                            : e.getValue().toString())));
            return out;
        }

        private static String text(JsonNode v) {
            return v == null || v.isNull() ? null : clip(v.isTextual() ? v.textValue() : v.toString());
        }

        private static String clip(String s) {
            return s != null && s.length() > 4096 ? s.substring(0, 4096) + "…" : s;
        }
    }
}
