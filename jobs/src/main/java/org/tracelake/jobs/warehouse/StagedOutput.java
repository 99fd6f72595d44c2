package org.tracelake.jobs.warehouse;

import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * Where one file of a table is written until its commit, for both of the project's Parquet writers ({@link RowFile},
 * {@link BlockFile}): a file of a name of its own (beside the target, or in a folder of unfinished files), which
 * {@link #commit} renames into place. Until then nothing is visible to a reader of the folder (the name starts with a
 * dot), and a task that fails or is run twice (a retry, a speculative copy) leaves one whole file, never a half or a
 * second one: every attempt writes the same rows to the same target name, and the first to commit wins. Dropped
 * without a commit, the file is deleted.
 *
 * <p>On an object store (S3A: a file system whose output streams can be aborted, {@link
 * CommonPathCapabilities#ABORTABLE_STREAM}) the file is written under its own name at once: an object appears whole
 * when its upload completes and not before, so nothing half-written is ever seen, and a rename there would be a copy of
 * the whole file. A file dropped without a commit is aborted (its upload discarded), never completed; a second
 * attempt replaces the first's object with the same rows.
 */
final class StagedOutput {
    /** What finishes the file's content (the Parquet footer) once every row is in. */
    interface Finish {
        void run() throws IOException;
    }

    private final Path target;
    /** Where the file is written until its commit: beside the target, or the target itself on an object store. */
    private final Path aside;

    private final FileSystem fs;
    /** The object store's stream, written in place (null elsewhere): aborted rather than closed without a commit. */
    private final InPlace inPlace;

    private final OutputFile output;

    StagedOutput(Path file, Path asideDir, Configuration conf) throws IOException {
        this.target = file;
        this.fs = file.getFileSystem(conf);
        if (fs.hasPathCapability(file, CommonPathCapabilities.ABORTABLE_STREAM)) {
            this.aside = file;
            this.inPlace = new InPlace(fs, file);
            this.output = inPlace;
        } else {
            this.aside = new Path(asideDir, "." + file.getName() + "." + UUID.randomUUID() + ".tmp");
            this.inPlace = null;
            LocalDisk.mkdirs(fs, file.getParent());
            this.output = LocalDisk.output(fs, aside, conf);
        }
    }

    /** What the Parquet writer writes to. */
    OutputFile output() {
        return output;
    }

    /** Finishes the file and puts it in place; an earlier attempt's file already there is kept (same rows). */
    void commit(Finish finish) throws IOException {
        if (inPlace != null) {
            try {
                finish.run(); // the upload completes: the object appears whole
            } catch (IOException | RuntimeException e) {
                inPlace.abort();
                throw e;
            }
            return;
        }
        try {
            finish.run();
        } catch (IOException | RuntimeException e) {
            LocalDisk.delete(fs, aside);
            throw e;
        }
        if (!LocalDisk.moveUnlessThere(fs, aside, target))
            throw new IOException("could not move " + aside + " to " + target);
    }

    /** Without a commit: {@code close} ends the writer's stream as it is, and the stand-in is dropped. */
    void drop(Finish close) throws IOException {
        if (inPlace != null) {
            inPlace.abort(); // not a close, which would complete the upload of a partial file
            return;
        }
        try {
            close.run();
        } finally {
            LocalDisk.delete(fs, aside);
        }
    }

    /** The target file of an object store, written in place; its stream is kept so that it can be aborted. */
    private static final class InPlace implements OutputFile {
        private final FileSystem fs;
        private final Path path;
        private FSDataOutputStream stream;

        InPlace(FileSystem fs, Path path) {
            this.fs = fs;
            this.path = path;
        }

        @Override
        public PositionOutputStream create(long blockSizeHint) throws IOException {
            return createOrOverwrite(blockSizeHint);
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
            stream = fs.create(path, true);
            return HadoopStreams.wrap(stream);
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }

        @Override
        public String getPath() {
            return path.toString();
        }

        void abort() {
            if (stream != null) stream.abort();
        }
    }
}
