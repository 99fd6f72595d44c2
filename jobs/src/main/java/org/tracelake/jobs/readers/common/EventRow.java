package org.tracelake.jobs.readers.common;

import static org.tracelake.jobs.readers.common.CatalystValues.utf8;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.tracelake.jobs.readers.ActivityClassifier;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.schemas.EventSchema;
import org.tracelake.udfs.ActivityClass;

/**
 * One {@code events} row being filled, reused from event to event: every events reader sets the columns it knows by
 * name and {@link #build} turns them into Spark's internal row, each value put at its column's position in
 * {@link EventSchema} (looked up by name once), so no reader depends on the schema's column order.
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
    /** Every other field of the event, values as text; copied into the row by {@link #build}, so it is reused. */
    public final Map<String, String> args = new LinkedHashMap<>();

    private final ActivityClassifier classifier = new ActivityClassifier();
    /**
     * The UTF-8 form of the strings every row repeats (the file's path and workload, phases, categories, names, arg
     * keys), encoded once per file instead of once per row; a value shared by rows is safe, as Spark's strings are
     * immutable.
     */
    private final Utf8Cache repeated = new Utf8Cache();

    public void clear() {
        rank = device = groupSize = null;
        pid = tid = ph = cat = name = activityClass = kernelCategory = collective = dtype = bytesSource = null;
        pgName = pgRanks = null;
        stream = tsNs = durNs = step = correlation = externalId = launchTsNs = null;
        inNelems = outNelems = inBytes = outBytes = seq = null;
        ordinal = 0;
        args.clear();
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

    /** The row in Spark's internal form, with the file's workload, path and format. */
    public InternalRow build(FileTask task, FileReport report) {
        Object[] v = new Object[WIDTH];
        v[WORKLOAD] = repeated.utf8(task.workload());
        v[RANK] = rank;
        v[SOURCE_FILE] = repeated.utf8(task.path());
        v[FORMAT] = repeated.utf8(report.format);
        v[ORDINAL] = ordinal;
        v[PID] = repeated.utf8(pid);
        v[TID] = repeated.utf8(tid);
        v[DEVICE] = device;
        v[STREAM] = stream;
        v[PH] = repeated.utf8(ph);
        v[CAT] = repeated.utf8(cat);
        v[NAME] = repeated.utf8(name);
        v[TS_NS] = tsNs;
        v[DUR_NS] = durNs;
        v[STEP] = step;
        v[CORRELATION] = correlation;
        v[EXTERNAL_ID] = externalId;
        v[LAUNCH_TS_NS] = launchTsNs;
        v[ACTIVITY_CLASS] = repeated.utf8(activityClass);
        v[KERNEL_CATEGORY] = repeated.utf8(kernelCategory);
        v[COLLECTIVE] = repeated.utf8(collective);
        v[IN_NELEMS] = inNelems;
        v[OUT_NELEMS] = outNelems;
        v[DTYPE] = repeated.utf8(dtype);
        v[IN_BYTES] = inBytes;
        v[OUT_BYTES] = outBytes;
        v[BYTES_SOURCE] = repeated.utf8(bytesSource);
        v[GROUP_SIZE] = groupSize;
        v[PG_NAME] = repeated.utf8(pgName);
        v[PG_RANKS] = repeated.utf8(pgRanks);
        v[SEQ] = seq;
        v[ARGS] = stringMap(args);
        return new GenericInternalRow(v);
    }

    /** The events' args, keys through {@link #repeated} (a file has a few dozen), values as they come. */
    private ArrayBasedMapData stringMap(Map<String, String> map) {
        if (map.isEmpty()) return null;
        Object[] keys = new Object[map.size()];
        Object[] values = new Object[map.size()];
        int i = 0;
        for (Map.Entry<String, String> e : map.entrySet()) {
            keys[i] = repeated.utf8(e.getKey());
            values[i++] = utf8(e.getValue());
        }
        return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
    }

    private static final int WIDTH = EventSchema.SCHEMA.size();
    private static final int WORKLOAD = EventSchema.index(EventSchema.WORKLOAD);
    private static final int RANK = EventSchema.index(EventSchema.RANK);
    private static final int SOURCE_FILE = EventSchema.index(EventSchema.SOURCE_FILE);
    private static final int FORMAT = EventSchema.index(EventSchema.FORMAT);
    private static final int ORDINAL = EventSchema.index(EventSchema.ORDINAL);
    private static final int PID = EventSchema.index(EventSchema.PID);
    private static final int TID = EventSchema.index(EventSchema.TID);
    private static final int DEVICE = EventSchema.index(EventSchema.DEVICE);
    private static final int STREAM = EventSchema.index(EventSchema.STREAM);
    private static final int PH = EventSchema.index(EventSchema.PH);
    private static final int CAT = EventSchema.index(EventSchema.CAT);
    private static final int NAME = EventSchema.index(EventSchema.NAME);
    private static final int TS_NS = EventSchema.index(EventSchema.TS_NS);
    private static final int DUR_NS = EventSchema.index(EventSchema.DUR_NS);
    private static final int STEP = EventSchema.index(EventSchema.STEP);
    private static final int CORRELATION = EventSchema.index(EventSchema.CORRELATION);
    private static final int EXTERNAL_ID = EventSchema.index(EventSchema.EXTERNAL_ID);
    private static final int LAUNCH_TS_NS = EventSchema.index(EventSchema.LAUNCH_TS_NS);
    private static final int ACTIVITY_CLASS = EventSchema.index(EventSchema.ACTIVITY_CLASS);
    private static final int KERNEL_CATEGORY = EventSchema.index(EventSchema.KERNEL_CATEGORY);
    private static final int COLLECTIVE = EventSchema.index(EventSchema.COLLECTIVE);
    private static final int IN_NELEMS = EventSchema.index(EventSchema.IN_NELEMS);
    private static final int OUT_NELEMS = EventSchema.index(EventSchema.OUT_NELEMS);
    private static final int DTYPE = EventSchema.index(EventSchema.DTYPE);
    private static final int IN_BYTES = EventSchema.index(EventSchema.IN_BYTES);
    private static final int OUT_BYTES = EventSchema.index(EventSchema.OUT_BYTES);
    private static final int BYTES_SOURCE = EventSchema.index(EventSchema.BYTES_SOURCE);
    private static final int GROUP_SIZE = EventSchema.index(EventSchema.GROUP_SIZE);
    private static final int PG_NAME = EventSchema.index(EventSchema.PG_NAME);
    private static final int PG_RANKS = EventSchema.index(EventSchema.PG_RANKS);
    private static final int SEQ = EventSchema.index(EventSchema.SEQ);
    private static final int ARGS = EventSchema.index(EventSchema.ARGS);
}
