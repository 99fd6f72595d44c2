package org.tracelake.jobs.warehouse;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;

/**
 * The options a Parquet reader of the warehouse's own files is opened with, made once per task. {@code
 * ParquetFileReader.open(InputFile)} without options builds them from a new Hadoop {@code Configuration}, which parses
 * Hadoop's default XML resources again: about 7 ms of CPU for every file opened, most of the time a check or a
 * compaction of thousands of small files took.
 */
final class FooterReads {
    private FooterReads() {}

    static ParquetReadOptions options(Configuration conf) {
        return HadoopReadOptions.builder(conf).build();
    }
}
