package org.tracelake.schemas.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WorkloadCardLoaderTest {

    private static CardException refused(String yaml, String source) {
        return assertThrows(CardException.class, () -> WorkloadCardLoader.parse(yaml, source));
    }

    private static void assertStartsWith(String prefix, String message) {
        assertTrue(message.startsWith(prefix), () -> "expected message starting with \"" + prefix + "\": " + message);
    }

    @Test
    void aTagSnakeYamlCannotBuildIsACardError() {
        // Found by fuzzing (ReaderFuzzTestInputs/workloadCardYaml/crash-73e9…): "!%c" makes SnakeYAML's Tag throw an
        // IllegalArgumentException, which escaped the loader.
        assertEquals(
                "fuzz.yaml: the card is not valid YAML: Tag must not contain leading or trailing spaces.",
                refused("!%c", "fuzz.yaml").getMessage());
        assertStartsWith(
                "fuzz.yaml: the card is not valid YAML",
                refused("{{{!%c", "fuzz.yaml").getMessage());
    }

    @Test
    void typeTagCardIsRefused() throws Exception {
        byte[] bytes = WorkloadCardTest.resource("cards/type-tag.yaml");
        CardException e = assertThrows(
                CardException.class,
                () -> WorkloadCardLoader.load(new ByteArrayInputStream(bytes), "cards/type-tag.yaml"));
        String m = e.getMessage();
        assertStartsWith("cards/type-tag.yaml: line 4, column 10: ", m);
        assertTrue(m.contains("the card uses a YAML type tag (!!javax.script.ScriptEngineManager)"), m);
        assertTrue(m.contains("cards must be plain data"), m);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "x: !!java.net.URL [\"http://example.org/\"]\n",
                "x: !<tag:yaml.org,2002:java.net.URL> [\"http://example.org/\"]\n",
                "x: !<tag:example.org,2024:thing> 1\n",
                "x: !thing 1\n",
                "x: !!binary aGVsbG8=\n",
                "x: !!set {a, b}\n",
                "x: !!omap [a: 1]\n",
                "!!python/object:os.system {}\n",
                "workload:\n  model: !!java.util.HashMap {phase: training}\n",
            })
    void anyTypeTagIsRefused(String yaml) {
        CardException e = refused(yaml, "t.yaml");
        assertStartsWith("t.yaml: line ", e.getMessage());
        assertTrue(e.getMessage().contains("uses a YAML type tag"), e.getMessage());
        assertTrue(e.getMessage().contains("plain data"), e.getMessage());
    }

    @Test
    void standardScalarTagsAreFine() throws Exception {
        WorkloadCard c = WorkloadCardLoader.parse(
                "workload:\n  data:\n    dataset: !!str 123\n" + "    batch_size: !!int \"42\"\n    seq_len: ! 512\n",
                "s.yaml");
        assertEquals("123", c.dataset());
        assertEquals(42L, c.batchSize());
        assertEquals(512L, c.seqLen(), "the non-specific tag ! makes text, which still reads as a count");
    }

    @Test
    void billionLaughsIsRefusedQuickly() {
        CardException e = assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> assertThrows(
                        CardException.class,
                        () -> WorkloadCardLoader.load(
                                new ByteArrayInputStream(WorkloadCardTest.resource("cards/billion-laughs.yaml")),
                                "cards/billion-laughs.yaml")));
        String m = e.getMessage();
        assertStartsWith("cards/billion-laughs.yaml: ", m);
        assertTrue(m.contains("more than 50 YAML aliases"), m);
        assertTrue(m.contains("alias bomb"), m);
    }

    @Test
    void smallerAliasBombIsStoppedByTheExpansionCap() {
        // 8 levels x 6 aliases = 48 aliases (under the alias limit) but 6^8 = 1.7 million leaves
        StringBuilder yaml = new StringBuilder("l0: &l0 [x, x, x, x, x, x]\n");
        for (int i = 1; i <= 8; i++) {
            String a = "*l" + (i - 1);
            yaml.append("l")
                    .append(i)
                    .append(": &l")
                    .append(i)
                    .append(" [")
                    .append(String.join(", ", List.of(a, a, a, a, a, a)))
                    .append("]\n");
        }
        CardException e =
                assertTimeoutPreemptively(Duration.ofSeconds(10), () -> refused(yaml.toString(), "bomb.yaml"));
        assertTrue(e.getMessage().contains("expands to more than 100000 values"), e.getMessage());
    }

    @Test
    void fewAliasesAndMergeKeysAreFine() throws Exception {
        WorkloadCard c = WorkloadCardLoader.parse(
                String.join(
                        "\n",
                        "defaults: &plan {tp: 4, pp: 1}",
                        "Model-executor:",
                        "  model_plan_parallelization:",
                        "    <<: *plan",
                        "    dp_shard: 2",
                        "other: *plan",
                        ""),
                "alias.yaml");
        assertEquals(4L, c.tp());
        assertEquals(1L, c.pp());
        assertEquals(2L, c.dpShard());
        assertEquals(Map.of("tp", 4L, "pp", 1L), c.raw().get("other"));
        assertEquals("4", c.flatten().get("other.tp"));
    }

    @Test
    void recursiveAliasIsRefused() {
        CardException e = refused("a: &a [1, *a]\n", "rec.yaml");
        assertStartsWith("rec.yaml: ", e.getMessage());
        assertTrue(e.getMessage().contains("recursive"), e.getMessage());
    }

    @Test
    void nonScalarKeysAreRefused() {
        CardException e = refused("? [a, b]\n: 1\n", "keys.yaml");
        assertStartsWith("keys.yaml: line 1, column 3: mapping keys must be plain text", e.getMessage());
        e = refused("? &k [*k]\n: 1\n", "keys.yaml");
        assertStartsWith("keys.yaml: ", e.getMessage());
    }

    @Test
    void malformedYamlReportsLineAndColumn() {
        CardException e =
                refused("workload:\n  model:\n    phase: training\n  data: [1, 2\nModel-executor: {}\n", "bad.yaml");
        assertStartsWith("bad.yaml: malformed YAML at line ", e.getMessage());
        e = refused("workload:\n  model:\n    phase: training: yes\n", "bad2.yaml");
        assertStartsWith("bad2.yaml: malformed YAML at line 3, column 20: ", e.getMessage());
        assertTrue(e.getMessage().contains("mapping values are not allowed here"), e.getMessage());
        e = refused("workload:\n\tmodel: x\n", "tab.yaml");
        assertStartsWith("tab.yaml: malformed YAML at line 2, column 1: ", e.getMessage());
    }

    @Test
    void emptyCardsAreRefused() {
        for (String yaml : List.of("", "   \n", "# only a comment\n", "---\n", "~\n", "---\n...\n")) {
            CardException e = refused(yaml, "empty.yaml");
            assertEquals("empty.yaml: card is empty", e.getMessage(), () -> "for " + yaml);
        }
        CardException e = assertThrows(
                CardException.class,
                () -> WorkloadCardLoader.load(new ByteArrayInputStream(new byte[0]), "empty.yaml"));
        assertEquals("empty.yaml: card is empty", e.getMessage());
    }

    @Test
    void topLevelMustBeAMapping() {
        assertStartsWith(
                "list.yaml: card top level must be a mapping",
                refused("- a\n- b\n", "list.yaml").getMessage());
        assertStartsWith(
                "text.yaml: card top level must be a mapping",
                refused("just text\n", "text.yaml").getMessage());
        assertStartsWith(
                "num.yaml: card top level must be a mapping",
                refused("42\n", "num.yaml").getMessage());
    }

    @Test
    void duplicateKeysAreRefused() {
        CardException e = refused("workload:\n  model:\n    phase: training\n    phase: inference\n", "dup.yaml");
        String m = e.getMessage();
        assertStartsWith("dup.yaml: line 4, column 5: found duplicate key phase", m);
        assertTrue(m.contains("only once"), m);

        e = refused("1: a\n\"1\": b\n", "dup2.yaml");
        assertTrue(e.getMessage().contains("duplicate key \"1\""), e.getMessage());
    }

    @Test
    void keysAreTheirWrittenText() throws Exception {
        WorkloadCard c = WorkloadCardLoader.parse("on: push\nyes: 1\n0x10: hex\n16: dec\n", "keys.yaml");
        assertEquals(List.of("on", "yes", "0x10", "16"), List.copyOf(c.raw().keySet()));
        assertEquals("push", c.flatten().get("on"));
    }

    @Test
    void moreThanOneDocumentIsRefused() {
        CardException e = refused("a: 1\n---\nb: 2\n", "two.yaml");
        assertStartsWith("two.yaml: malformed YAML at line 2", e.getMessage());
        assertTrue(e.getMessage().contains("single document"), e.getMessage());
    }

    @Test
    void invalidUtf8IsRefused() {
        byte[] bytes = {'a', ':', ' ', (byte) 0xC3, (byte) 0x28, '\n'};
        CardException e = assertThrows(
                CardException.class, () -> WorkloadCardLoader.load(new ByteArrayInputStream(bytes), "latin.yaml"));
        assertStartsWith("latin.yaml: ", e.getMessage());
        assertTrue(e.getMessage().contains("UTF-8"), e.getMessage());
    }

    @Test
    void oversizedCardIsRefused() {
        byte[] big = new byte[WorkloadCardLoader.MAX_CARD_BYTES + 10];
        java.util.Arrays.fill(big, (byte) ' ');
        CardException e = assertThrows(
                CardException.class, () -> WorkloadCardLoader.load(new ByteArrayInputStream(big), "big.yaml"));
        assertStartsWith("big.yaml: the card is larger than 4 MiB", e.getMessage());
    }

    @Test
    void timestampsStayText() throws Exception {
        WorkloadCard c = WorkloadCardLoader.parse("collected: 2024-05-01\nat: 2024-05-01T10:00:00Z\n", "d.yaml");
        assertEquals("2024-05-01", c.raw().get("collected"));
        assertEquals("2024-05-01T10:00:00Z", c.raw().get("at"));
    }

    @Test
    void loadAndParseAgree() throws Exception {
        byte[] bytes = WorkloadCardTest.resource(WorkloadCardTest.FULL);
        WorkloadCard fromStream = WorkloadCardLoader.load(new ByteArrayInputStream(bytes), "c.yaml");
        WorkloadCard fromText = WorkloadCardLoader.parse(new String(bytes, StandardCharsets.UTF_8), "c.yaml");
        assertEquals(fromStream, fromText);
        assertEquals(fromStream.cardHash(), fromText.cardHash());
    }

    @Test
    void missingSourceNameIsShownAsPlaceholder() {
        CardException e = refused("", null);
        assertEquals("<card>: card is empty", e.getMessage());
    }
}
