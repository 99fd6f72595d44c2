package org.tracelake.jobs.readers.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Arg values as text: scalars as they are, structures as compact JSON, one after another through one parser. */
class ChromeEventParserTest {
    @Test
    void structuresComeBackAsCompactJsonCallAfterCall() throws IOException {
        ChromeEventParser events = new ChromeEventParser(false);
        try (JsonParser p = ChromeEventParser.FACTORY.createParser(
                "[[[1, 2], [3]], {\"a\": [\"x\", null]}, 7, null, \"s\", [1.5e3]]")) {
            assertEquals(JsonToken.START_ARRAY, p.nextToken());
            assertEquals("[[1,2],[3]]", events.text(p, p.nextToken())); // Kineto's Input Dims
            assertEquals("{\"a\":[\"x\",null]}", events.text(p, p.nextToken()));
            assertEquals("7", events.text(p, p.nextToken()));
            assertNull(events.text(p, p.nextToken()));
            assertEquals("s", events.text(p, p.nextToken()));
            // a float inside a structure is written back as Jackson reads it, a double (scalars keep their text)
            assertEquals("[1500.0]", events.text(p, p.nextToken()));
        }
    }

    @Test
    void aValueCutShortDoesNotSpoilTheNext() throws IOException {
        ChromeEventParser events = new ChromeEventParser(false);
        try (JsonParser broken = ChromeEventParser.FACTORY.createParser("[1, [2, 3")) {
            broken.nextToken();
            broken.nextToken();
            assertThrows(IOException.class, () -> events.text(broken, broken.nextToken()));
        }
        try (JsonParser p = ChromeEventParser.FACTORY.createParser("[[4, 5]]")) {
            p.nextToken();
            assertEquals("[4,5]", events.text(p, p.nextToken()));
        }
    }
}
