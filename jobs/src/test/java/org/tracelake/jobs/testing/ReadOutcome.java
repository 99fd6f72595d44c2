package org.tracelake.jobs.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.tracelake.jobs.readers.DropCounter;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.ReadErrors;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.schemas.EventSchema;

/**
 * What a reader made of one file, in the form the reader equality tests (Kineto, XLA JSON) store and compare once
 * the reader they replaced is gone: the rows (each row's values by column), the report's fields and the error that
 * ended the file. {@link #lines} is the section of an {@link ExpectedOutcomes} file: the report a field a line, the
 * error, the row count, then one digest per row (the first 16 hex digits of the SHA-256 of the row's values as
 * {@link #values} writes them). Nothing here depends on where the file was: a test's temporary folder changes every
 * run, so the report's task (path and time) is left out and a row's source file is its name.
 */
public record ReadOutcome(List<List<Object>> rows, Map<String, Object> report, String error) {

    /** The section of the expected file, as {@link ExpectedOutcomes} writes it. */
    public List<String> lines() {
        List<String> out = new ArrayList<>(reportLines());
        if (error != null) out.add("error " + oneLine(error));
        out.add("rows " + rows.size());
        for (List<Object> row : rows) out.add(digest(row));
        return out;
    }

    /** The report a field a line, its metadata an entry a line (in their order). */
    public List<String> reportLines() {
        List<String> out = new ArrayList<>();
        report.forEach((k, v) -> {
            if (v instanceof Map<?, ?> map) {
                map.forEach((mk, mv) -> out.add("report " + k + "." + mk + "=" + oneLine(String.valueOf(mv))));
            } else {
                out.add("report " + k + "=" + oneLine(String.valueOf(v)));
            }
        });
        return out;
    }

    /** The outcome of reading the file to its end, or of the error that ended it (with the rows made before it). */
    public static ReadOutcome read(TraceReader reader, FileTask task) {
        return read(reader, task, stream -> {});
    }

    /**
     * As {@link #read(TraceReader, FileTask)}; {@code whenRead} sees the stream of a file read to its end without a
     * fatal error, after its last row, for what a test asks of the reader's own state (how many passes it made).
     */
    public static ReadOutcome read(TraceReader reader, FileTask task, Consumer<EventStream> whenRead) {
        EventStream stream;
        try {
            stream = reader.open(task, new Configuration());
        } catch (IOException | RuntimeException e) {
            return new ReadOutcome(List.of(), Map.of(), ReadErrors.describe(e));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (stream.hasNext()) rows.add(values(stream.next()));
        try {
            stream.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        FileReport report = stream.report();
        if (!report.fatal) whenRead.accept(stream);
        return new ReadOutcome(rows, reportFields(report), report.fatal ? report.error : null);
    }

    /** A row's values by column, strings as text and maps as their entries in order, the source file by its name. */
    public static List<Object> values(InternalRow row) {
        StructField[] fields = EventSchema.SCHEMA.fields();
        List<Object> out = new ArrayList<>(fields.length);
        for (int i = 0; i < fields.length; i++) {
            DataType type = fields[i].dataType();
            if (row.isNullAt(i)) {
                out.add(null);
            } else if (type instanceof MapType) {
                MapData map = row.getMap(i);
                ArrayData keys = map.keyArray();
                ArrayData vals = map.valueArray();
                List<String> entries = new ArrayList<>();
                for (int k = 0; k < map.numElements(); k++) {
                    entries.add(keys.getUTF8String(k) + "=" + (vals.isNullAt(k) ? null : vals.getUTF8String(k)));
                }
                out.add(fields[i].name() + ":" + entries);
            } else if (fields[i].name().equals(EventSchema.SOURCE_FILE)) {
                String path = row.getUTF8String(i).toString(); // its folder may be a test's temporary one
                out.add(fields[i].name() + ":" + path.substring(path.lastIndexOf('/') + 1));
            } else if (type.equals(DataTypes.StringType)) {
                out.add(fields[i].name() + ":" + row.getUTF8String(i));
            } else {
                out.add(fields[i].name() + ":" + row.get(i, type));
            }
        }
        return out;
    }

    /** Every public field of the report but its task (the file's path and time), the drops by reason. */
    public static Map<String, Object> reportFields(FileReport report) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Field f : FileReport.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getName().equals("task")) continue;
            try {
                Object v = f.get(report);
                out.put(f.getName(), v instanceof DropCounter d ? d.byReason() + " total " + d.total() : v);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        return out;
    }

    /** The first 16 hex digits of the SHA-256 of the row's values as text. */
    public static String digest(List<Object> row) {
        try {
            byte[] sha =
                    MessageDigest.getInstance("SHA-256").digest(row.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A value on one line of the expected file: backslashes and line breaks escaped, a long one by its digest. */
    public static String oneLine(String s) {
        if (s.length() > 1000) return "digest " + digest(List.of(s)) + " of " + s.length() + " chars";
        return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
    }
}
