package org.tracelake.jobs.readers;

import java.io.IOException;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;

/** A streaming reader for one format: opens a file and yields its rows lazily. Runs on executors. */
public interface TraceReader extends Serializable {
    EventStream open(FileTask task, Configuration conf) throws IOException;
}
