package org.tracelake.schemas.card;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.composer.ComposerException;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.Construct;
import org.yaml.snakeyaml.constructor.DuplicateKeyException;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.reader.UnicodeReader;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Reads a workload card YAML into a {@link WorkloadCard}, treating it as untrusted plain data.
 *
 * <p>Safety: snakeyaml's {@link SafeConstructor} with {@link LoaderOptions} that refuse recursive keys, duplicate
 * keys, more than {@value #MAX_ALIASES} aliases to collections (alias bombs) and documents over
 * {@value #MAX_CARD_BYTES} bytes/code points. Before anything is constructed, every node's tag is checked: only
 * the standard plain-data tags (mapping, sequence, str, int, float, bool, null, timestamp – read as text – and the
 * merge key) are accepted, so a card with a type tag such as {@code !!javax.script.ScriptEngineManager} or any
 * local or global tag is refused with a {@link CardException} that says so. Mapping keys must be scalars. After
 * construction the tree is copied into plain Java values with a cap of 100,000 values, which
 * also bounds what aliases can expand to.
 *
 * <p>A card without {@code workload} (or other sections) loads fine with those fields null; only an unreadable
 * card, one that is not a mapping, or a known field with a value of the wrong type is an error.
 */
public final class WorkloadCardLoader {
    /** Largest card accepted, in bytes (and in code points, via snakeyaml's code-point limit). */
    public static final int MAX_CARD_BYTES = 4 * 1024 * 1024;
    /** Most aliases to mappings/lists a card may use. */
    public static final int MAX_ALIASES = 50;
    /** Deepest nesting of mappings/lists accepted. */
    public static final int MAX_NESTING = 50;

    private static final String PLAIN_DATA_HINT =
            "cards must be plain data (mappings, lists, text, numbers," + " booleans) without type tags";

    private WorkloadCardLoader() {}

    /**
     * Reads a card from {@code in} (UTF-8, or UTF-16/32 with a byte-order mark); does not close the stream.
     *
     * @param sourceName the card's path, used in {@link WorkloadCard#sourceName()} and every error message
     */
    public static WorkloadCard load(InputStream in, String sourceName) throws CardException {
        String src = CardException.displayName(sourceName);
        if (in == null) {
            throw new CardException(src, "no input stream to read the card from");
        }
        byte[] bytes;
        try {
            bytes = in.readNBytes(MAX_CARD_BYTES + 1);
        } catch (IOException e) {
            throw new CardException(src, "cannot read the card: " + e.getMessage(), e);
        }
        if (bytes.length > MAX_CARD_BYTES) {
            throw tooLarge(src);
        }
        return parse(new UnicodeReader(new ByteArrayInputStream(bytes)), Hashes.sha256Hex(bytes), src);
    }

    /** Reads a card from its text. {@link WorkloadCard#cardHash()} is the SHA-256 of the text's UTF-8 bytes. */
    public static WorkloadCard parse(String yaml, String sourceName) throws CardException {
        String src = CardException.displayName(sourceName);
        if (yaml == null) {
            throw new CardException(src, "card is empty");
        }
        byte[] bytes = yaml.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_CARD_BYTES) {
            throw tooLarge(src);
        }
        return parse(new StringReader(yaml), Hashes.sha256Hex(bytes), src);
    }

    /** Lower-case hex SHA-256 of {@code bytes}; same as {@link Hashes#sha256Hex(byte[])}. */
    public static String sha256Hex(byte[] bytes) {
        return Hashes.sha256Hex(bytes);
    }

    /** The loader options used for every card. */
    static LoaderOptions loaderOptions() {
        LoaderOptions o = new LoaderOptions();
        o.setAllowRecursiveKeys(false);
        o.setMaxAliasesForCollections(MAX_ALIASES);
        o.setCodePointLimit(MAX_CARD_BYTES);
        o.setAllowDuplicateKeys(false);
        o.setNestingDepthLimit(MAX_NESTING);
        o.setProcessComments(false);
        o.setWrappedToRootException(false);
        return o;
    }

    private static WorkloadCard parse(Reader reader, String hash, String src) throws CardException {
        LoaderOptions options = loaderOptions();
        CardConstructor constructor = new CardConstructor(options);
        DumperOptions dumperOptions = new DumperOptions();
        Yaml yaml = new Yaml(constructor, new Representer(dumperOptions), dumperOptions, options);
        Object data;
        try {
            Node root = yaml.compose(reader);
            if (root == null) {
                throw new CardException(src, "card is empty");
            }
            checkPlainData(root, src);
            data = constructor.construct(root);
        } catch (YAMLException e) {
            throw translate(e, src);
        } catch (IllegalArgumentException e) {
            // SnakeYAML's Tag refuses a tag such as "!%c" with an IllegalArgumentException, not a YAMLException (found
            // by fuzzing): still the card's fault.
            throw new CardException(src, "the card is not valid YAML: " + e.getMessage());
        } catch (StackOverflowError e) {
            throw new CardException(src, "the card is nested too deeply to read");
        }
        if (data instanceof PlainData.Scalar) {
            data = ((PlainData.Scalar) data).value;
        }
        if (data == null || (data instanceof String && ((String) data).isBlank())) {
            throw new CardException(src, "card is empty");
        }
        if (!(data instanceof Map)) {
            throw new CardException(
                    src,
                    "card top level must be a mapping (keys such as workload:,"
                            + " Model-executor:, metric_source:), found " + PlainData.describe(data, null));
        }
        TreeMap<String, String> flat = new TreeMap<>();
        Map<String, Object> raw = PlainData.normalizeRoot((Map<?, ?>) data, src, flat);
        return new WorkloadCard(src, hash, raw, flat);
    }

    // ------------------------------------------------------------------ tags

    private static final Set<Tag> SCALAR_TAGS =
            Set.of(Tag.STR, Tag.INT, Tag.FLOAT, Tag.BOOL, Tag.NULL, Tag.TIMESTAMP, Tag.MERGE);

    /** Refuses any node whose tag is not a standard plain-data tag, and any non-scalar mapping key. */
    private static void checkPlainData(Node root, String src) throws CardException {
        Set<Node> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Node> todo = new ArrayDeque<>();
        todo.push(root);
        while (!todo.isEmpty()) {
            Node n = todo.pop();
            if (!seen.add(n)) {
                continue;
            }
            Tag tag = n.getTag();
            if (n instanceof ScalarNode) {
                if (!SCALAR_TAGS.contains(tag)) {
                    throw typeTag(src, tag.getValue(), n.getStartMark());
                }
            } else if (n instanceof SequenceNode) {
                if (!Tag.SEQ.equals(tag)) {
                    throw typeTag(src, tag.getValue(), n.getStartMark());
                }
                for (Node item : ((SequenceNode) n).getValue()) {
                    todo.push(item);
                }
            } else if (n instanceof MappingNode) {
                if (!Tag.MAP.equals(tag)) {
                    throw typeTag(src, tag.getValue(), n.getStartMark());
                }
                for (NodeTuple t : ((MappingNode) n).getValue()) {
                    if (!(t.getKeyNode() instanceof ScalarNode)) {
                        throw new CardException(
                                src,
                                where(t.getKeyNode().getStartMark())
                                        + "mapping keys must be plain text, not a mapping or a list; "
                                        + PLAIN_DATA_HINT);
                    }
                    todo.push(t.getKeyNode());
                    todo.push(t.getValueNode());
                }
            } else {
                throw typeTag(src, String.valueOf(tag), n.getStartMark());
            }
        }
    }

    private static CardException typeTag(String src, String tag, Mark mark) {
        String shown = tag;
        if (tag != null && tag.startsWith(Tag.PREFIX)) {
            shown = "!!" + tag.substring(Tag.PREFIX.length());
        }
        return new CardException(
                src,
                where(mark) + "the card uses a YAML type tag (" + shown + "); " + PLAIN_DATA_HINT
                        + ". Remove the tag.");
    }

    // ------------------------------------------------------------------ errors

    private static CardException translate(YAMLException e, String src) {
        if (e instanceof DuplicateKeyException) {
            MarkedYAMLException m = (MarkedYAMLException) e;
            return new CardException(
                    src,
                    where(m.getProblemMark()) + m.getProblem()
                            + " (in the mapping that starts at line " + line(m.getContextMark())
                            + "); each key may appear only once in a mapping",
                    e);
        }
        if (e instanceof ComposerException) {
            ComposerException c = (ComposerException) e;
            String problem = String.valueOf(c.getProblem());
            String prefix = "Global tag is not allowed: ";
            if (problem.startsWith(prefix)) {
                return typeTag(src, problem.substring(prefix.length()), c.getProblemMark());
            }
        }
        if (e instanceof MarkedYAMLException) {
            MarkedYAMLException m = (MarkedYAMLException) e;
            Mark mark = m.getProblemMark() != null ? m.getProblemMark() : m.getContextMark();
            StringBuilder detail = new StringBuilder("malformed YAML");
            if (mark != null) {
                detail.append(" at line ")
                        .append(mark.getLine() + 1)
                        .append(", column ")
                        .append(mark.getColumn() + 1);
            }
            detail.append(": ");
            if (m.getContext() != null) {
                detail.append(m.getContext()).append(", ");
            }
            detail.append(m.getProblem());
            if (m.getContextMark() != null
                    && m.getProblemMark() != null
                    && m.getContextMark().getLine() != m.getProblemMark().getLine()) {
                detail.append(" (context starts at line ")
                        .append(m.getContextMark().getLine() + 1)
                        .append(')');
            }
            return new CardException(src, detail.toString(), e);
        }
        String msg = String.valueOf(e.getMessage());
        if (msg.startsWith("Number of aliases for non-scalar nodes exceeds")) {
            return new CardException(
                    src,
                    "the card uses more than " + MAX_ALIASES + " YAML aliases to mappings"
                            + " or lists (an \"alias bomb\" such as billion laughs?); refusing to expand it."
                            + " A workload card is plain data: write it out without anchors and aliases",
                    e);
        }
        if (msg.contains("exceeds the limit") && msg.contains("code points")) {
            return tooLarge(src);
        }
        if (msg.startsWith("Nesting Depth exceeded")) {
            return new CardException(
                    src,
                    "the card nests mappings/lists more than " + MAX_NESTING + " levels deep; refusing to read it",
                    e);
        }
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof CharacterCodingException) {
                return new CardException(
                        src,
                        "the card is not valid UTF-8 text (or UTF-16/32 with a byte-order" + " mark); save it as UTF-8",
                        e);
            }
        }
        return new CardException(src, "cannot read the card as YAML: " + msg, e);
    }

    private static CardException tooLarge(String src) {
        return new CardException(
                src,
                "the card is larger than " + (MAX_CARD_BYTES / (1024 * 1024))
                        + " MiB; a workload card is a short YAML description, not a data file");
    }

    private static String where(Mark mark) {
        return mark == null ? "" : "line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1) + ": ";
    }

    private static String line(Mark mark) {
        return mark == null ? "?" : Integer.toString(mark.getLine() + 1);
    }

    // ------------------------------------------------------------------ constructor

    /**
     * {@link SafeConstructor} that keeps the written text of ints, floats, booleans and nulls ({@link
     * PlainData.Scalar}) and reads timestamps as text rather than {@code java.util.Date}.
     */
    static final class CardConstructor extends SafeConstructor {
        CardConstructor(LoaderOptions options) {
            super(options);
            keepText(Tag.INT);
            keepText(Tag.FLOAT);
            keepText(Tag.BOOL);
            keepText(Tag.NULL);
            this.yamlConstructors.put(Tag.TIMESTAMP, new ConstructYamlStr());
        }

        private void keepText(Tag tag) {
            Construct inner = this.yamlConstructors.get(tag);
            this.yamlConstructors.put(tag, new AbstractConstruct() {
                @Override
                public Object construct(Node node) {
                    return new PlainData.Scalar(((ScalarNode) node).getValue(), inner.construct(node));
                }
            });
        }

        Object construct(Node root) {
            return constructDocument(root);
        }
    }
}
