import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;
import org.tracelake.jobs.archive.ArchiveScanner;
import org.tracelake.jobs.archive.WorkloadFolder;

/**
 * The archive scan of a refresh alone (issue 39): {@code ArchiveScanner.scan} over an archive, a few rounds, run as a
 * whole process under {@code /usr/bin/time -v}. Mode {@code local} scans the folder as a refresh of a local or mounted
 * archive does; mode {@code remote} scans it through {@code latencyfs://}, the local disk behind a file system that
 * waits {@code latencyMs} per request as an object store does: one request per folder listing, per status, and per
 * page of 1,000 keys of a recursive {@code listFiles} (S3's LIST). A model of the requests' count and order, not a
 * measurement of S3.
 *
 * <p>Usage: {@code ScanProfile ARCHIVE ROUNDS local|remote [latencyMs]}. Prints one key=value line per round.
 */
public final class ScanProfile {
    public static void main(String[] args) throws Exception {
        String archive = args[0];
        int rounds = Integer.parseInt(args[1]);
        boolean remote = args[2].equals("remote");
        long latencyMs = args.length > 3 ? Long.parseLong(args[3]) : 10;
        Configuration conf = new Configuration();
        conf.setClass("fs.latencyfs.impl", LatencyFileSystem.class, org.apache.hadoop.fs.FileSystem.class);
        conf.setLong("latencyfs.ms", latencyMs);
        conf.setBoolean("fs.latencyfs.impl.disable.cache", true);
        String root = remote ? "latencyfs://" + archive : archive;
        for (int r = 0; r < rounds; r++) {
            LatencyFileSystem.REQUESTS.set(0);
            long t0 = System.nanoTime();
            List<WorkloadFolder> scanned = ArchiveScanner.scan(root, conf);
            long files = scanned.stream().mapToLong(w -> w.files().size() + w.cards().size()).sum();
            System.out.printf(
                    Locale.ROOT,
                    "round=%d mode=%s workloads=%d files=%d requests=%d scan_s=%.3f%n",
                    r,
                    args[2],
                    scanned.size(),
                    files,
                    LatencyFileSystem.REQUESTS.get(),
                    (System.nanoTime() - t0) / 1e9);
        }
    }

    /** The local disk under another scheme, each request delayed as an object store's would be. */
    public static final class LatencyFileSystem extends FilterFileSystem {
        static final AtomicLong REQUESTS = new AtomicLong();
        private long latencyMs;

        public LatencyFileSystem() {
            super(new RawLocalFileSystem());
        }

        @Override
        public void initialize(URI name, Configuration conf) throws IOException {
            super.initialize(URI.create("file:///"), conf);
            latencyMs = conf.getLong("latencyfs.ms", 10);
        }

        @Override
        public URI getUri() {
            return URI.create("latencyfs:///");
        }

        @Override
        public String getScheme() {
            return "latencyfs";
        }

        private void request() {
            REQUESTS.incrementAndGet();
            try {
                Thread.sleep(latencyMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private Path local(Path p) {
            return new Path("file", null, p.toUri().getPath());
        }

        private FileStatus mine(FileStatus s) {
            s.setPath(new Path("latencyfs", null, s.getPath().toUri().getPath()));
            return s;
        }

        @Override
        public Path makeQualified(Path path) {
            return new Path("latencyfs", null, path.toUri().getPath());
        }

        @Override
        public FileStatus getFileStatus(Path f) throws IOException {
            request();
            return mine(fs.getFileStatus(local(f)));
        }

        @Override
        public boolean exists(Path f) throws IOException {
            try {
                getFileStatus(f);
                return true;
            } catch (FileNotFoundException e) {
                return false;
            }
        }

        @Override
        public FileStatus[] listStatus(Path f) throws IOException {
            request();
            FileStatus[] out = fs.listStatus(local(f));
            for (FileStatus s : out) mine(s);
            return out;
        }

        /** A flat listing of every key below the folder: one request per 1,000 keys, as S3's LIST pages them. */
        @Override
        public RemoteIterator<LocatedFileStatus> listFiles(Path f, boolean recursive) throws IOException {
            List<LocatedFileStatus> all = new ArrayList<>();
            Deque<Path> dirs = new ArrayDeque<>(List.of(local(f)));
            while (!dirs.isEmpty()) {
                for (FileStatus s : fs.listStatus(dirs.removeFirst())) {
                    if (s.isDirectory()) {
                        if (recursive) dirs.add(s.getPath());
                    } else {
                        // the fields a LIST response carries (a local status would run `ls -ld` for permissions)
                        FileStatus key = new FileStatus(
                                s.getLen(), false, 1, s.getBlockSize(), s.getModificationTime(), s.getPath());
                        all.add(new LocatedFileStatus(mine(key), null));
                    }
                }
            }
            for (int page = 0; page <= all.size() / 1000; page++) request();
            return new RemoteIterator<>() {
                private int i;

                @Override
                public boolean hasNext() {
                    return i < all.size();
                }

                @Override
                public LocatedFileStatus next() {
                    if (i >= all.size()) throw new NoSuchElementException();
                    return all.get(i++);
                }
            };
        }
    }
}
