package org.tracelake.jobs.refresh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.RunSchema;
import scala.collection.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What a refresh commits once its data files are written (issue 29 item 5, issue 39): which workloads replace their
 * partitions of which tables ({@code ok}: every table; {@code ledger}: {@code trace_files} only, a failed workload's;
 * {@code vanished}: removed), the exports, {@code metrics_history}, {@code regressions}, {@code workload_changes} and
 * its {@code runs} row. A run writes this journal ({@code <warehouse>/_journal/<run>.json}) before its first commit
 * and deletes it once its run row is written; a run killed in between leaves it, and the next writer to hold the lock
 * finishes it with the same routine ({@link RunCommit}), so that the warehouse ends as if the killed run had finished.
 */
record RunJournal(
        String runId,
        boolean metrics,
        List<String> ok,
        List<String> ledger,
        List<String> vanished,
        List<Row> changes,
        Row run) {
    static final String DIR = "_journal";
    /** Where a journal that cannot be read is moved, under {@link #DIR}. */
    static final String DAMAGED = "damaged";

    private static final org.apache.logging.log4j.Logger LOG =
            org.apache.logging.log4j.LogManager.getLogger("tracelake.progress");
    private static final ObjectMapper JSON = new ObjectMapper();

    static Path path(Warehouse warehouse, String runId) {
        return new Path(warehouse.root() + "/" + DIR + "/" + runId + ".json");
    }

    /** Written whole (to a file of its own, then renamed), so a kill while writing leaves no half journal. */
    void write(Warehouse warehouse) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("run_id", runId);
        root.put("metrics", metrics);
        ok.forEach(root.putArray("ok")::add);
        ledger.forEach(root.putArray("ledger")::add);
        vanished.forEach(root.putArray("vanished")::add);
        ArrayNode ch = root.putArray("changes");
        for (Row r : changes) {
            ArrayNode a = ch.addArray();
            for (int i = 0; i < r.size(); i++) a.add(r.isNullAt(i) ? null : r.getString(i));
        }
        ArrayNode runValues = root.putArray("run");
        StructField[] fields = RunSchema.RUNS.fields();
        for (int i = 0; i < fields.length; i++) {
            Object v = run.get(i);
            if (v == null) runValues.addNull();
            else if (v instanceof Timestamp t) runValues.add(t.getTime());
            else if (v instanceof Boolean b) runValues.add(b);
            else if (v instanceof Long l) runValues.add(l);
            else if (v instanceof Seq<?> seq) {
                ArrayNode a = runValues.addArray();
                for (Object e : CollectionConverters.asJava(seq)) a.add(String.valueOf(e));
            } else runValues.add(v.toString());
        }
        FileSystem fs = warehouse.fs();
        Path target = path(warehouse, runId);
        Path tmp = new Path(target.getParent(), "." + runId + ".json.tmp");
        fs.mkdirs(target.getParent());
        try (OutputStream out = fs.create(tmp, true)) {
            JSON.writeValue(out, root);
        }
        if (!fs.rename(tmp, target)) throw new IOException("could not write the run journal " + target);
    }

    void delete(Warehouse warehouse) throws IOException {
        warehouse.fs().delete(path(warehouse, runId), false);
    }

    /** The journals runs left behind (not this run's), oldest run first. */
    static List<RunJournal> leftBehind(Warehouse warehouse, String currentRunId) throws IOException {
        FileSystem fs = warehouse.fs();
        Path dir = new Path(warehouse.root() + "/" + DIR);
        List<RunJournal> out = new ArrayList<>();
        if (!fs.exists(dir)) return out;
        List<FileStatus> files = new ArrayList<>(List.of(fs.listStatus(dir)));
        files.sort(Comparator.comparing(f -> f.getPath().getName()));
        for (FileStatus f : files) {
            String name = f.getPath().getName();
            if (!name.endsWith(".json") || name.startsWith(".") || name.equals(currentRunId + ".json")) continue;
            RunJournal j = readOrSetAside(fs, f.getPath());
            if (j != null) out.add(j);
        }
        return out;
    }

    /**
     * The journal, or null when it cannot be read (a disk that lost its end, an editor's stray save): it is moved to
     * {@code _journal/damaged/}, kept for a person, with a warning naming it. Its run is then as one killed before it
     * wrote a journal: its uncommitted data files are dropped, and its workloads whose ledger rows ({@code
     * trace_files}, committed last) it had not committed still differ from their folders, so the next run redoes them.
     * Without this, every later run failed on it with a Jackson error or a NullPointerException naming neither the file
     * nor the fix (issue 45, item 7).
     */
    private static RunJournal readOrSetAside(FileSystem fs, Path file) throws IOException {
        String why;
        try (InputStream in = fs.open(file)) {
            return parse(JSON.readTree(in));
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            why = "not JSON (" + e.getOriginalMessage() + ")";
        } catch (RuntimeException e) { // a field missing or of the wrong kind
            why = "not a run journal (" + e.getClass().getSimpleName() + ")";
        }
        Path aside = new Path(new Path(file.getParent(), DAMAGED), file.getName());
        fs.mkdirs(aside.getParent());
        fs.delete(aside, false);
        if (!fs.rename(file, aside)) throw new IOException("could not move the damaged run journal " + file + " aside");
        LOG.warn("the run journal " + file + " is damaged: " + why + "; moved to " + aside + ". Its run's uncommitted"
                + " data files are dropped, and workloads whose ledger it had not committed are read again");
        return null;
    }

    private static RunJournal parse(JsonNode root) {
        List<String> ok = new ArrayList<>();
        root.get("ok").forEach(n -> ok.add(n.asText()));
        List<String> ledger = new ArrayList<>();
        root.get("ledger").forEach(n -> ledger.add(n.asText()));
        List<String> vanished = new ArrayList<>();
        root.get("vanished").forEach(n -> vanished.add(n.asText()));
        List<Row> changes = new ArrayList<>();
        for (JsonNode c : root.get("changes")) {
            changes.add(RowFactory.create(text(c.get(0)), text(c.get(1)), text(c.get(2)), text(c.get(3))));
        }
        StructField[] fields = RunSchema.RUNS.fields();
        Object[] values = new Object[fields.length];
        JsonNode run = root.get("run");
        for (int i = 0; i < fields.length; i++) {
            JsonNode v = run.get(i);
            DataType t = fields[i].dataType();
            if (v == null || v.isNull()) values[i] = null;
            else if (t.equals(DataTypes.TimestampType)) values[i] = new Timestamp(v.asLong());
            else if (t.equals(DataTypes.LongType)) values[i] = v.asLong();
            else if (t.equals(DataTypes.BooleanType)) values[i] = v.asBoolean();
            else if (v.isArray()) {
                List<String> items = new ArrayList<>();
                v.forEach(e -> items.add(e.asText()));
                values[i] = CollectionConverters.asScala(items).toSeq();
            } else values[i] = v.asText();
        }
        return new RunJournal(
                root.get("run_id").asText(),
                root.get("metrics").asBoolean(),
                ok,
                ledger,
                vanished,
                changes,
                RowFactory.create(values));
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
    }
}
