package org.tracelake.jobs.readers.xla;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.tracelake.jobs.readers.ActivityClassifier;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.ScalaMaps;
import org.tracelake.schemas.EventSchema;
import org.tracelake.udfs.ActivityClass;

/**
 * One {@code events} row being filled, reused from event to event: the Nsight, rocprof, XLA JSON and XSpace readers
 * set the columns they know by name and {@link #toRow} lays them out in {@link EventSchema} order, so no reader
 * repeats a 32-argument constructor call. (Shared by those four readers; it belongs in {@code readers/}, next to
 * {@code FileReport}, once the Kineto reader can use it too.)
 */
public final class EventRow {
    public Integer rank;
    public long ordinal;
    public String pid;
    public String tid;
    public Integer device;
    public Long stream;
    public String ph;
    public String cat;
    public String name;
    public Long tsNs;
    public Long durNs;
    public Long step;
    public Long correlation;
    public Long externalId;
    public Long launchTsNs;
    public String activityClass;
    public String kernelCategory;
    public String collective;
    public Long inNelems;
    public Long outNelems;
    public String dtype;
    public Long inBytes;
    public Long outBytes;
    public String bytesSource;
    public Integer groupSize;
    public String pgName;
    public String pgRanks;
    public Long seq;
    /** Every other field of the event, values as text; a fresh map per row because the Row keeps it. */
    public Map<String, String> args = new LinkedHashMap<>();
    private final ActivityClassifier classifier = new ActivityClassifier();

    public void clear() {
        rank = device = groupSize = null;
        pid = tid = ph = cat = name = activityClass = kernelCategory = collective = dtype = bytesSource = null;
        pgName = pgRanks = null;
        stream = tsNs = durNs = step = correlation = externalId = launchTsNs = null;
        inNelems = outNelems = inBytes = outBytes = seq = null;
        args = new LinkedHashMap<>();
    }

    /** Puts an arg when it has a value; null and empty values are left out. */
    public void arg(String key, Object value) {
        if (value == null) return;
        String text = value.toString();
        if (!text.isEmpty()) args.put(key, text);
    }

    /** Activity class and kernel category from the udfs (METRICS.md §2); null for anything that is not GPU activity. */
    public void classify(String hloCategory) {
        ActivityClassifier.Classes classes = classifier.classify(cat, name, hloCategory);
        activityClass = classes.activityClass();
        kernelCategory = classes.kernelCategory();
    }

    public boolean isComm() {
        return ActivityClass.COMM.equals(activityClass);
    }

    public Row toRow(FileTask task, FileReport report) {
        return RowFactory.create(
                task.workload(), rank, task.path(), report.format, ordinal,
                pid, tid, device, stream, ph, cat, name,
                tsNs, durNs, step, correlation, externalId, launchTsNs,
                activityClass, kernelCategory, collective,
                inNelems, outNelems, dtype, inBytes, outBytes, bytesSource, groupSize, pgName, pgRanks, seq,
                args.isEmpty() ? null : ScalaMaps.of(args));
    }

    static {
        if (EventSchema.SCHEMA.size() != 32) {
            throw new IllegalStateException("EventRow.toRow() is out of step with EventSchema");
        }
    }
}
