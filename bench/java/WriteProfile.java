import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetOutputFormat;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.ProjectingInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.kineto.KinetoReader;
import org.tracelake.jobs.warehouse.RowFile;
import org.tracelake.schemas.EventSchema;

/**
 * The events write of one Kineto file, taken apart (issue 28; a benchmark, not a test: nothing here asserts a
 * speed). Prints {@code key=value} lines for bench/sections/write_profile.sh.
 *
 * <p>The file's rows come from tracelake's own Kineto reader (both passes, single thread, as BENCHMARKS.md section
 * (1) times it) and are held in memory; every write below writes those same rows with ingest's own writer,
 * {@link RowFile} (parquet-hadoop fed the reader's {@link InternalRow}s as they are: no Spark, no projection, strings
 * as views of their bytes), in the events table's schema without the partition column {@code workload}, with
 * ingest's settings ({@link RowFile.Settings#forEvents}) unless a line says otherwise.
 *
 * <ul>
 *   <li><b>floor</b>: the write as ingest's task does it, rows already in memory: the least CPU this table's Parquet
 *       costs with ingest's writer and settings.
 *   <li><b>per column</b>: each column alone (the rows seen through a one-column projection), with ingest's
 *       dictionary setting and with the other one: CPU, bytes on disk, whether the chunk came out dictionary-encoded.
 *   <li><b>settings</b>: the whole table with no codec, snappy, no dictionary anywhere, a dictionary everywhere,
 *       min/max statistics on every column, 16 MiB row groups, 64 KiB pages.
 *   <li><b>read and write</b>: the reader's rows handed to the writer as they come, one pass, no rows held — what
 *       ingest's task does for an events file, without Spark around it (thread CPU and process CPU).
 * </ul>
 * Times are CPU seconds (median of ROUNDS rounds after one warm-up), so neighbours on a shared machine move them
 * less than wall time.
 */
public final class WriteProfile {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

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

        Write ingest = new Write(EventSchema.SCHEMA, RowFile.Settings.forEvents(CompressionCodecName.ZSTD), conf);
        Result floor = measure(rows, ingest, out.resolve("floor.parquet"), rounds);
        print("floor_cpu_s", floor.cpu);
        print("floor_process_cpu_s", floor.processCpu);
        print("floor_mb", floor.bytes / 1e6);

        // per column, alone, with ingest's dictionary setting and the other one
        for (StructField f : EventSchema.SCHEMA.fields()) {
            if (f.name().equals(EventSchema.WORKLOAD)) continue;
            boolean dictionary = !EventSchema.NEAR_UNIQUE_COLUMNS.contains(f.name());
            Write one = ingest.column(f.name());
            Result as = measure(rows, one, out.resolve("col.parquet"), rounds);
            Result other = measure(rows, one.dictionary(!dictionary), out.resolve("col.parquet"), rounds);
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
        Map<String, Write> variants = new LinkedHashMap<>();
        variants.put("uncompressed", ingest.codec(CompressionCodecName.UNCOMPRESSED));
        variants.put("snappy", ingest.codec(CompressionCodecName.SNAPPY));
        variants.put("no_dictionary", ingest.dictionary(false));
        variants.put("dictionary_everywhere", ingest.dictionary(true));
        variants.put("statistics_everywhere", ingest.statisticsEverywhere());
        variants.put("row_group_16m", ingest.conf(ParquetOutputFormat.BLOCK_SIZE, 16L << 20));
        variants.put("page_64k", ingest.conf(ParquetOutputFormat.PAGE_SIZE, 64L << 10));
        for (Map.Entry<String, Write> v : variants.entrySet()) {
            Result r = measure(rows, v.getValue(), out.resolve("variant.parquet"), rounds);
            print("variant." + v.getKey() + ".cpu_s", r.cpu);
            print("variant." + v.getKey() + ".mb", r.bytes / 1e6);
        }
        // the floor once more, in the same window as the variants (the machine is shared)
        Result floor2 = measure(rows, ingest, out.resolve("floor.parquet"), rounds);
        print("floor_again_cpu_s", floor2.cpu);
        rows = null;
        System.gc();

        // read and write in one pass, as ingest's task does: the reader's rows straight into the writer, none held
        double[] fusedCpu = new double[rounds];
        double[] fusedProcess = new double[rounds];
        Path fused = out.resolve("fused.parquet");
        for (int r = -1; r < rounds; r++) {
            long cpu = THREADS.getCurrentThreadCpuTime();
            long process = OS.getProcessCpuTime();
            try (EventStream s = reader.open(task, conf);
                    RowFile w = ingest.open(fused)) {
                while (s.hasNext()) w.write(s.next());
                w.commit();
            }
            if (r >= 0) {
                fusedCpu[r] = (THREADS.getCurrentThreadCpuTime() - cpu) / 1e9;
                fusedProcess[r] = (OS.getProcessCpuTime() - process) / 1e9;
            }
        }
        print("fused_cpu_s", median(fusedCpu));
        print("fused_process_cpu_s", median(fusedProcess));
        print("fused_mb", Files.size(fused) / 1e6);
    }

    // ------------------------------------------------------------------------------------------ the writes

    /**
     * One way of writing the rows: ingest's {@link RowFile} with a schema (the events', or one column of it), its
     * settings and a Hadoop configuration (row-group and page sizes).
     */
    record Write(StructType schema, String column, RowFile.Settings settings, Configuration conf) {
        Write(StructType schema, RowFile.Settings settings, Configuration conf) {
            this(schema, null, settings, conf);
        }

        /** The same write of one column alone, with the settings ingest gives that column. */
        Write column(String name) {
            StructType one = new StructType().add(schema.apply(name));
            RowFile.Settings own = new RowFile.Settings(
                    settings.codec(), of(settings.withoutDictionary(), name), of(settings.withoutStatistics(), name));
            return new Write(one, name, own, conf);
        }

        /** The entries of a per-column list that name the column or one of its leaves ({@code args.key_value.key}). */
        private static List<String> of(List<String> columns, String name) {
            return columns.stream()
                    .filter(c -> c.equals(name) || c.startsWith(name + "."))
                    .toList();
        }

        Write with(RowFile.Settings other) {
            return new Write(schema, column, other, conf);
        }

        Write codec(CompressionCodecName codec) {
            return with(new RowFile.Settings(codec, settings.withoutDictionary(), settings.withoutStatistics()));
        }

        /** Dictionary on every column ({@code true}) or none. */
        Write dictionary(boolean everywhere) {
            List<String> off = everywhere ? List.of() : leafColumns();
            return with(new RowFile.Settings(settings.codec(), off, settings.withoutStatistics()));
        }

        Write statisticsEverywhere() {
            return with(new RowFile.Settings(settings.codec(), settings.withoutDictionary(), List.of()));
        }

        Write conf(String key, long value) {
            Configuration c = new Configuration(conf);
            c.setLong(key, value);
            return new Write(schema, column, settings, c);
        }

        /** Parquet's dotted paths of every leaf column ({@code args.key_value.key} for the map). */
        private List<String> leafColumns() {
            List<String> leaves = new ArrayList<>();
            for (StructField f : schema.fields()) {
                if (f.dataType() instanceof org.apache.spark.sql.types.MapType) {
                    leaves.add(f.name() + ".key_value.key");
                    leaves.add(f.name() + ".key_value.value");
                } else {
                    leaves.add(f.name());
                }
            }
            return leaves;
        }

        RowFile open(Path target) throws IOException {
            Files.deleteIfExists(target);
            return new RowFile(
                    new org.apache.hadoop.fs.Path(target.toUri()),
                    schema,
                    column == null ? EventSchema.WORKLOAD : null,
                    settings,
                    conf);
        }

        /** The row as this write's schema sees it: itself, or a one-column projection of it. */
        InternalRow view(InternalRow row, ProjectingInternalRow projection) {
            if (projection == null) return row;
            projection.project(row);
            return projection;
        }

        ProjectingInternalRow projection() {
            if (column == null) return null;
            int ordinal = EventSchema.SCHEMA.fieldIndex(column);
            return ProjectingInternalRow.apply(
                    schema, scala.jdk.javaapi.CollectionConverters.asScala(List.<Object>of(ordinal)).toSeq());
        }
    }

    record Result(double cpu, double processCpu, long bytes, boolean dictionaryUsed) {}

    static Result measure(List<InternalRow> rows, Write write, Path target, int rounds) throws IOException {
        double[] cpu = new double[rounds];
        double[] process = new double[rounds];
        ProjectingInternalRow projection = write.projection();
        for (int r = -1; r < rounds; r++) {
            long t = THREADS.getCurrentThreadCpuTime();
            long p = OS.getProcessCpuTime();
            try (RowFile w = write.open(target)) {
                for (InternalRow row : rows) w.write(write.view(row, projection));
                w.commit();
            }
            if (r >= 0) {
                cpu[r] = (THREADS.getCurrentThreadCpuTime() - t) / 1e9;
                process[r] = (OS.getProcessCpuTime() - p) / 1e9;
            }
        }
        boolean dictionary = false;
        try (ParquetFileReader f = ParquetFileReader.open(
                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(target.toUri()), write.conf()))) {
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
