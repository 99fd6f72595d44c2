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

    /**
     * Arrays of whole numbers take a path of their own (no generator): each array here comes back exactly as the
     * generator writes it, which a second parser over the same text, copied through a generator, states.
     */
    @Test
    void wholeNumberArraysComeBackAsTheGeneratorWritesThem() throws IOException {
        String[] arrays = {
            "[132, 1, 1]",
            "[]",
            "[-0, 0, -7]",
            "[2147483648, -2147483649, 12345678901234567890]",
            "[1, 2.5, \"x\", [3, 4], {\"a\": [5]}, null, true]",
            "[1, [2, [3]], 4]",
            "[[]]",
            "[7, \"8\"]"
        };
        ChromeEventParser events = new ChromeEventParser(false);
        for (String array : arrays) {
            String expected;
            try (JsonParser q = ChromeEventParser.FACTORY.createParser(array);
                    java.io.StringWriter out = new java.io.StringWriter();
                    com.fasterxml.jackson.core.JsonGenerator g = ChromeEventParser.FACTORY.createGenerator(out)) {
                q.nextToken();
                g.copyCurrentStructure(q);
                g.flush();
                expected = out.toString();
            }
            try (JsonParser p = ChromeEventParser.FACTORY.createParser("[" + array + ", 9]")) {
                p.nextToken();
                assertEquals(expected, events.text(p, p.nextToken()), array);
                assertEquals("9", events.text(p, p.nextToken()), "the parser stands after " + array);
            }
        }
        assertEquals("[132,1,1]", events.text(parserAt("[132, 1, 1]"), JsonToken.START_ARRAY));
    }

    private static JsonParser parserAt(String json) throws IOException {
        JsonParser p = ChromeEventParser.FACTORY.createParser(json);
        p.nextToken();
        return p;
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
