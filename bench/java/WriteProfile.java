import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.kineto.KinetoReader;
import org.tracelake.schemas.EventSchema;

/**
 * The events write of one Kineto file, taken apart (issue 28; a benchmark, not a test: nothing here asserts a
 * speed). Prints {@code key=value} lines for bench/sections/write_profile.sh.
 *
 * <p>The file's rows come from tracelake's own Kineto reader (both passes, single thread, as BENCHMARKS.md section
 * (1) times it) and are held in memory; every write below writes those same rows, in the events table's schema
 * without the partition column {@code workload} (ingest writes one file per workload partition), with ingest's
 * settings unless a line says otherwise: zstd, dictionary off for EventSchema.NEAR_UNIQUE_COLUMNS, parquet-hadoop's
 * default row group (128 MiB) and page (1 MiB) sizes.
 *
 * <ul>
 *   <li><b>floor</b>: parquet-hadoop's {@link ParquetWriter} fed through a {@link WriteSupport} that reads the
 *       reader's {@link InternalRow}s as they are — no Spark, no projection to UnsafeRow, strings handed to
 *       parquet as {@link Binary} views of the UTF8String bytes (no copy). The least CPU parquet-hadoop's record
 *       path can spend on this content.
 *   <li><b>per column</b>: the same writer with a one-column schema, once per column, with ingest's dictionary
 *       setting and with the other one: CPU, bytes on disk, whether the chunk came out dictionary-encoded.
 *   <li><b>settings</b>: the whole table with no codec, no dictionary anywhere, 16 MiB row groups, 64 KiB pages.
 *   <li><b>spark</b>: Spark (local[1]) scanning the file through tracelake's data source and writing Parquet with
 *       ingest's options, against the same scan written to Spark's {@code noop} sink: the difference is what Spark's
 *       write costs (process CPU, every thread, warm rounds).
 *   <li><b>fused</b>: the prototype of writing a file's events in the task — the reader's rows handed to the floor
 *       writer as they come, one pass, no rows held (thread CPU and process CPU).
 * </ul>
 * Times are CPU seconds (median of ROUNDS rounds after one warm-up), so neighbours on a shared machine move them
 * less than wall time.
 */
public final class WriteProfile {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** events' columns as ingest writes them into a workload partition: all but {@code workload}. */
    static final List<Integer> COLUMNS = new ArrayList<>();

    static {
        for (int i = 0; i < EventSchema.SCHEMA.size(); i++) {
            if (!EventSchema.SCHEMA.fields()[i].name().equals(EventSchema.WORKLOAD)) COLUMNS.add(i);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: WriteProfile KINETO-FILE OUT-DIR [ROUNDS]");
            System.exit(2);
        }
        Path file = Path.of(args[0]).toAbsolutePath();
        Path out = Path.of(args[1]).toAbsolutePath();
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Files.createDirectories(out);
        Configuration conf = new Configuration();
        KinetoReader reader = new KinetoReader();
        FileTask task = new FileTask(
                "bench",
                file.toString(),
                Files.size(file),
                Files.getLastModifiedTime(file).toMillis(),
                TraceFormat.KINETO,
                0,
                InputLimits.defaults(),
                "bench");
        print("file_mb", Files.size(file) / 1e6);

        // the reader, both passes, every row built; the last round keeps the rows
        List<InternalRow> rows = null;
        double[] readerCpu = new double[rounds];
        for (int r = -1; r < rounds; r++) {
            boolean keep = r == rounds - 1;
            List<InternalRow> got = keep ? new ArrayList<>(2_000_000) : null;
            long cpu = THREADS.getCurrentThreadCpuTime();
            try (EventStream s = reader.open(task, conf)) {
                while (s.hasNext()) {
                    InternalRow row = s.next();
                    if (keep) got.add(row); // a new row per event (EventRow.build), strings shared through its cache
                }
            }
            if (r >= 0) readerCpu[r] = (THREADS.getCurrentThreadCpuTime() - cpu) / 1e9;
            if (keep) rows = got;
        }
        print("events", rows.size());
        print("reader_cpu_s", median(readerCpu));

        MessageType full = parquetSchema(COLUMNS);
        Settings ingest = Settings.ingest();
        Result floor = measure(rows, full, ingest, out.resolve("floor.parquet"), rounds);
        print("floor_cpu_s", floor.cpu);
        print("floor_process_cpu_s", floor.processCpu);
        print("floor_mb", floor.bytes / 1e6);

        // per column, alone, with ingest's dictionary setting and the other one
        for (int c : COLUMNS) {
            StructField f = EventSchema.SCHEMA.fields()[c];
            MessageType one = parquetSchema(List.of(c));
            boolean dictionary = !EventSchema.NEAR_UNIQUE_COLUMNS.contains(f.name());
            Result as = measure(rows, one, ingest, out.resolve("col.parquet"), rounds);
            Result other = measure(rows, one, ingest.dictionary(!dictionary), out.resolve("col.parquet"), rounds);
            String k = "col." + f.name();
            print(k + ".type", typeName(f.dataType()));
            print(k + ".cpu_s", as.cpu);
            print(k + ".mb", as.bytes / 1e6);
            print(k + ".dict_setting", dictionary ? "on" : "off");
            print(k + ".dict_used", as.dictionaryUsed ? "yes" : "no");
            print(k + ".other_cpu_s", other.cpu);
            print(k + ".other_mb", other.bytes / 1e6);
            print(k + ".other_dict_used", other.dictionaryUsed ? "yes" : "no");
        }

        // whole-table settings, one at a time
        Map<String, Settings> variants = new LinkedHashMap<>();
        variants.put("uncompressed", ingest.codec(CompressionCodecName.UNCOMPRESSED));
        variants.put("snappy", ingest.codec(CompressionCodecName.SNAPPY));
        variants.put("no_dictionary", ingest.dictionary(false));
        variants.put("dictionary_everywhere", ingest.dictionary(true));
        variants.put("row_group_16m", ingest.rowGroup(16L << 20));
        variants.put("page_64k", ingest.page(64 << 10));
        for (Map.Entry<String, Settings> v : variants.entrySet()) {
            Result r = measure(rows, full, v.getValue(), out.resolve("variant.parquet"), rounds);
            print("variant." + v.getKey() + ".cpu_s", r.cpu);
            print("variant." + v.getKey() + ".mb", r.bytes / 1e6);
        }
        // the floor once more, in the same window as the variants and Spark (the machine is shared)
        Result floor2 = measure(rows, full, ingest, out.resolve("floor.parquet"), rounds);
        print("floor_again_cpu_s", floor2.cpu);
        rows = null;
        System.gc();

        // the fused prototype: reader rows straight into the floor writer, one pass, nothing held
        double[] fusedCpu = new double[rounds];
        double[] fusedProcess = new double[rounds];
        for (int r = -1; r < rounds; r++) {
            long cpu = THREADS.getCurrentThreadCpuTime();
            long process = OS.getProcessCpuTime();
            try (EventStream s = reader.open(task, conf);
                    ParquetWriter<InternalRow> w = writer(out.resolve("fused.parquet"), full, ingest, conf)) {
                while (s.hasNext()) w.write(s.next());
            }
            if (r >= 0) {
                fusedCpu[r] = (THREADS.getCurrentThreadCpuTime() - cpu) / 1e9;
                fusedProcess[r] = (OS.getProcessCpuTime() - process) / 1e9;
            }
        }
        print("fused_cpu_s", median(fusedCpu));
        print("fused_process_cpu_s", median(fusedProcess));
        print("fused_mb", Files.size(out.resolve("fused.parquet")) / 1e6);

        spark(file, out, rounds);
    }

    /** Spark's write of the same file's rows: scan + Parquet write against scan + noop, process CPU. */
    static void spark(Path file, Path out, int rounds) throws IOException {
        SparkSession spark = SparkSession.builder()
                .master("local[1]")
                .appName("write profile")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.parquet.compression.codec", "zstd")
                .config("spark.sql.session.timeZone", "UTC")
                .getOrCreate();
        double[] parquet = new double[rounds];
        double[] noop = new double[rounds];
        long bytes = 0;
        for (int r = -1; r < rounds; r++) {
            long t = OS.getProcessCpuTime();
            spark.read().format("tracelake").load(file.toString()).write().format("noop").mode("overwrite").save();
            double n = (OS.getProcessCpuTime() - t) / 1e9;
            t = OS.getProcessCpuTime();
            var w = spark.read().format("tracelake").load(file.toString()).drop(EventSchema.WORKLOAD).write();
            for (String c : EventSchema.NEAR_UNIQUE_COLUMNS) w = w.option("parquet.enable.dictionary#" + c, "false");
            w.mode("overwrite").parquet(out.resolve("spark").toString());
            double p = (OS.getProcessCpuTime() - t) / 1e9;
            if (r >= 0) {
                noop[r] = n;
                parquet[r] = p;
            }
        }
        try (var files = Files.list(out.resolve("spark"))) {
            for (Path f : files.toList()) {
                if (f.getFileName().toString().endsWith(".parquet")) bytes += Files.size(f);
            }
        }
        spark.stop();
        print("spark_scan_noop_process_cpu_s", median(noop));
        print("spark_scan_write_process_cpu_s", median(parquet));
        double[] diff = new double[rounds];
        for (int r = 0; r < rounds; r++) diff[r] = parquet[r] - noop[r];
        print("spark_write_process_cpu_s", median(diff));
        print("spark_mb", bytes / 1e6);
    }

    // ------------------------------------------------------------------------------------------ the floor writer

    record Settings(CompressionCodecName codec, Boolean dictionaryAll, long rowGroup, int page) {
        static Settings ingest() {
            return new Settings(CompressionCodecName.ZSTD, null, ParquetWriter.DEFAULT_BLOCK_SIZE, 1 << 20);
        }

        Settings codec(CompressionCodecName c) {
            return new Settings(c, dictionaryAll, rowGroup, page);
        }

        Settings dictionary(boolean on) {
            return new Settings(codec, on, rowGroup, page);
        }

        Settings rowGroup(long bytes) {
            return new Settings(codec, dictionaryAll, bytes, page);
        }

        Settings page(int bytes) {
            return new Settings(codec, dictionaryAll, rowGroup, bytes);
        }
    }

    record Result(double cpu, double processCpu, long bytes, boolean dictionaryUsed) {}

    static Result measure(List<InternalRow> rows, MessageType schema, Settings s, Path target, int rounds)
            throws IOException {
        Configuration conf = new Configuration();
        double[] cpu = new double[rounds];
        double[] process = new double[rounds];
        for (int r = -1; r < rounds; r++) {
            long t = THREADS.getCurrentThreadCpuTime();
            long p = OS.getProcessCpuTime();
            try (ParquetWriter<InternalRow> w = writer(target, schema, s, conf)) {
                for (InternalRow row : rows) w.write(row);
            }
            if (r >= 0) {
                cpu[r] = (THREADS.getCurrentThreadCpuTime() - t) / 1e9;
                process[r] = (OS.getProcessCpuTime() - p) / 1e9;
            }
        }
        boolean dictionary = false;
        try (ParquetFileReader f = ParquetFileReader.open(
                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(target.toUri()), conf))) {
            for (BlockMetaData b : f.getFooter().getBlocks()) {
                for (ColumnChunkMetaData c : b.getColumns()) {
                    if (c.hasDictionaryPage()
                            || c.getEncodings().contains(Encoding.PLAIN_DICTIONARY)
                            || c.getEncodings().contains(Encoding.RLE_DICTIONARY)) dictionary = true;
                }
            }
        }
        return new Result(median(cpu), median(process), Files.size(target), dictionary);
    }

    static ParquetWriter<InternalRow> writer(Path target, MessageType schema, Settings s, Configuration conf)
            throws IOException {
        Files.deleteIfExists(target);
        Files.deleteIfExists(target.resolveSibling("." + target.getFileName() + ".crc"));
        var b = new Builder(HadoopOutputFile.fromPath(new org.apache.hadoop.fs.Path(target.toUri()), conf), schema)
                .withConf(conf)
                .withCompressionCodec(s.codec())
                .withRowGroupSize(s.rowGroup())
                .withPageSize(s.page())
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0); // Spark's default
        if (s.dictionaryAll() != null) {
            b = b.withDictionaryEncoding(s.dictionaryAll());
        } else {
            b = b.withDictionaryEncoding(true);
            for (String c : EventSchema.NEAR_UNIQUE_COLUMNS) b = b.withDictionaryEncoding(c, false);
        }
        return b.build();
    }

    static final class Builder extends ParquetWriter.Builder<InternalRow, Builder> {
        private final MessageType schema;

        Builder(org.apache.parquet.io.OutputFile file, MessageType schema) {
            super(file);
            this.schema = schema;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<InternalRow> getWriteSupport(Configuration conf) {
            return new RowWriteSupport(schema);
        }
    }

    /** The Parquet schema Spark writes for these columns (optional/required as the Spark schema says). */
    static MessageType parquetSchema(List<Integer> columns) {
        Types.MessageTypeBuilder m = Types.buildMessage();
        for (int c : columns) {
            StructField f = EventSchema.SCHEMA.fields()[c];
            Type.Repetition rep = f.nullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
            DataType t = f.dataType();
            if (t == DataTypes.StringType) {
                m.addField(Types.primitive(PrimitiveTypeName.BINARY, rep)
                        .as(LogicalTypeAnnotation.stringType())
                        .named(f.name()));
            } else if (t == DataTypes.LongType) {
                m.addField(Types.primitive(PrimitiveTypeName.INT64, rep).named(f.name()));
            } else if (t == DataTypes.IntegerType) {
                m.addField(Types.primitive(PrimitiveTypeName.INT32, rep).named(f.name()));
            } else {
                // map<string,string>, as Spark's ParquetSchemaConverter writes it
                m.addField(Types.buildGroup(rep)
                        .as(LogicalTypeAnnotation.mapType())
                        .repeatedGroup()
                        .addField(Types.required(PrimitiveTypeName.BINARY)
                                .as(LogicalTypeAnnotation.stringType())
                                .named("key"))
                        .addField(Types.optional(PrimitiveTypeName.BINARY)
                                .as(LogicalTypeAnnotation.stringType())
                                .named("value"))
                        .named("key_value")
                        .named(f.name()));
            }
        }
        return m.named("spark_schema");
    }

    /** Hands the reader's InternalRow fields to parquet-hadoop's record consumer: no projection, no copies. */
    static final class RowWriteSupport extends WriteSupport<InternalRow> {
        private final MessageType schema;
        private final int[] ordinals;
        private final int[] kinds; // 0 string, 1 long, 2 int, 3 map
        private RecordConsumer out;

        RowWriteSupport(MessageType schema) {
            this.schema = schema;
            int n = schema.getFieldCount();
            ordinals = new int[n];
            kinds = new int[n];
            for (int i = 0; i < n; i++) {
                String name = schema.getFieldName(i);
                ordinals[i] = EventSchema.index(name);
                DataType t = EventSchema.SCHEMA.fields()[ordinals[i]].dataType();
                kinds[i] = t == DataTypes.StringType ? 0 : t == DataTypes.LongType ? 1 : t == DataTypes.IntegerType ? 2 : 3;
            }
        }

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(schema, new HashMap<>());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            out = recordConsumer;
        }

        @Override
        public void write(InternalRow row) {
            out.startMessage();
            for (int i = 0; i < ordinals.length; i++) {
                int o = ordinals[i];
                if (row.isNullAt(o)) continue;
                String name = schema.getFieldName(i);
                out.startField(name, i);
                switch (kinds[i]) {
                    case 0 -> out.addBinary(binary(row.getUTF8String(o)));
                    case 1 -> out.addLong(row.getLong(o));
                    case 2 -> out.addInteger(row.getInt(o));
                    default -> writeMap(row.getMap(o));
                }
                out.endField(name, i);
            }
            out.endMessage();
        }

        private void writeMap(MapData map) {
            out.startGroup();
            int n = map.numElements();
            if (n > 0) {
                out.startField("key_value", 0);
                var keys = map.keyArray();
                var values = map.valueArray();
                for (int j = 0; j < n; j++) {
                    out.startGroup();
                    out.startField("key", 0);
                    out.addBinary(binary(keys.getUTF8String(j)));
                    out.endField("key", 0);
                    if (!values.isNullAt(j)) {
                        out.startField("value", 1);
                        out.addBinary(binary(values.getUTF8String(j)));
                        out.endField("value", 1);
                    }
                    out.endGroup();
                }
                out.endField("key_value", 0);
            }
            out.endGroup();
        }

        /** A view of the string's UTF-8 bytes (the reader's strings live on the heap): no copy. */
        private static Binary binary(UTF8String s) {
            if (s.getBaseObject() instanceof byte[] bytes) {
                return Binary.fromReusedByteArray(
                        bytes, (int) (s.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET), s.numBytes());
            }
            return Binary.fromReusedByteArray(s.getBytes());
        }
    }

    // ---------------------------------------------------------------------------------------------- helpers

    static String typeName(DataType t) {
        return t == DataTypes.StringType
                ? "string"
                : t == DataTypes.LongType ? "bigint" : t == DataTypes.IntegerType ? "int" : "map<string,string>";
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static void print(String key, Object value) {
        System.out.println(key + "=" + (value instanceof Double d ? String.format(Locale.ROOT, "%.3f", d) : value));
    }
}
