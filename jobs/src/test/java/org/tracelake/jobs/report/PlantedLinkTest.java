package org.tracelake.jobs.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.metrics.MetricsExport;

/**
 * Issue 45 item 5: {@code report --out} and {@code export --leaderboard} (both through {@link ReportFileWriter}) and
 * {@code export}'s per-workload files wrote a predictable {@code .<name>.tmp} first and followed a link planted there,
 * overwriting a file outside the output folder. Links are planted at the old temporary names and at the target's own
 * name; the file outside keeps its content.
 */
class PlantedLinkTest {
    @TempDir
    Path tmp;

    @Test
    void aReportWritesThroughNoPlantedLink() throws Exception {
        Path victim = Files.writeString(tmp.resolve("victim.txt"), "precious\n");
        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.createSymbolicLink(out.resolve(".report.html.tmp"), victim);
        Files.createSymbolicLink(out.resolve(".leaderboard.json.tmp"), victim);

        ReportFileWriter.write(new Configuration(), out.resolve("report.html").toString(), "<html>report</html>\n");
        ReportFileWriter.write(
                new Configuration(), out.resolve("leaderboard.json").toString(), "{}\n");

        assertEquals("precious\n", Files.readString(victim), "the file outside the output folder is untouched");
        assertEquals("<html>report</html>\n", Files.readString(out.resolve("report.html")));
        assertEquals("{}\n", Files.readString(out.resolve("leaderboard.json")));
        try (var left = Files.list(out)) {
            assertEquals(
                    List.of(".leaderboard.json.tmp", ".report.html.tmp", "leaderboard.json", "report.html"),
                    left.map(p -> p.getFileName().toString()).sorted().toList(),
                    "no temporary file left; the planted links are left as they were");
        }
    }

    @Test
    void aLinkAtTheTargetsNameIsReplacedNotWrittenThrough() throws Exception {
        Path victim = Files.writeString(tmp.resolve("victim.txt"), "precious\n");
        Path out = Files.createDirectories(tmp.resolve("out"));
        Path target = out.resolve("report.html");
        Files.createSymbolicLink(target, victim);

        ReportFileWriter.write(new Configuration(), target.toString(), "<html>report</html>\n");

        assertEquals("precious\n", Files.readString(victim));
        assertFalse(Files.isSymbolicLink(target));
        assertTrue(Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS));
        assertEquals("<html>report</html>\n", Files.readString(target));
    }

    @Test
    void aFolderGivenWithDotDotIsPrintedAsTheFolderItNames() throws Exception {
        // report --compare --out ../compare, run from a checkout: the path printed is where the file is
        Path checkout = Files.createDirectories(tmp.resolve("tracelake"));
        String written = ReportFileWriter.write(
                new Configuration(), checkout.resolve("../compare/compare.txt").toString(), "compare\n");
        assertEquals(tmp.toRealPath().resolve("compare").resolve("compare.txt").toString(), written);
        assertEquals("compare\n", Files.readString(Path.of(written)));
    }

    @Test
    void aMetricsExportWritesThroughNoPlantedLink() throws Exception {
        Path victim = Files.writeString(tmp.resolve("victim.txt"), "precious\n");
        Path exports = tmp.resolve("exports");
        Files.createDirectories(exports.resolve("metrics"));
        Files.createSymbolicLink(exports.resolve("metrics/.a.json.tmp"), victim);
        FileSystem fs = FileSystem.getLocal(new Configuration()).getRawFileSystem();

        MetricsExport.write(fs, exports.toString(), "a", List.of());

        assertEquals("precious\n", Files.readString(victim));
        assertTrue(Files.readString(exports.resolve("metrics/a.json")).contains("\"workload\" : \"a\""));
    }
}
