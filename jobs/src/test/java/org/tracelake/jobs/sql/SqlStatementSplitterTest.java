package org.tracelake.jobs.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Statement splitting: ';' ends a statement only outside quotes and comments. */
class SqlStatementSplitterTest {
    @Test
    void splitsAtSemicolonsOutsideQuotesAndComments() {
        assertEquals(
                List.of("SELECT 1", "SELECT ';' AS s, \"a;b\" AS t, `c;d`", "-- x; y\nSELECT 2", "SELECT /* ; */ 3"),
                SqlStatementSplitter.split(
                        "SELECT 1; SELECT ';' AS s, \"a;b\" AS t, `c;d`;\n-- x; y\nSELECT 2;\nSELECT /* ; */ 3"));
        assertEquals(List.of("SELECT 'it\\'s;'"), SqlStatementSplitter.split("SELECT 'it\\'s;';"));
        assertEquals(List.of(), SqlStatementSplitter.split("  ;\n-- only a comment;\n /* and this */ ; "));
    }

    @Test
    void scanKeepsAnUnfinishedStatement() {
        SqlStatementSplitter.Scan s = SqlStatementSplitter.scan("SELECT 1;\nSELECT 'open;\n");
        assertEquals(List.of("SELECT 1"), s.statements());
        assertEquals("\nSELECT 'open;\n", s.rest());
        assertTrue(SqlStatementSplitter.isBlank(" -- c\n/* d */ "));
    }

    @Test
    void printsNumbersShortAndStable() {
        assertEquals("2.25", ResultPrinter.cell(2.25));
        assertEquals("0.089", ResultPrinter.cell(0.089));
        assertEquals("20937965632.0", ResultPrinter.cell(2.0937965632E10));
        assertEquals("258.844", ResultPrinter.cell(258.84412345));
        assertEquals("1.6e-08", ResultPrinter.cell(1.6e-8));
        assertEquals("NULL", ResultPrinter.cell(null));
    }
}
