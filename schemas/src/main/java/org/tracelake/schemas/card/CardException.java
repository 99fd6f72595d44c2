package org.tracelake.schemas.card;

/**
 * A workload card that cannot be read, or a value in it that cannot be read as the type its field needs.
 *
 * <p>The message always starts with the source name (the card's path, or the source of a filled-in value such as
 * {@code toml:train_config.toml}) followed by {@code ": "} and a detail a person can act on, e.g.
 * {@code workloads/llama/llama.yaml: workload.data.batch_size: expected a whole number, found "8B"}.
 */
public class CardException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String sourceName;
    private final String detail;

    public CardException(String sourceName, String detail) {
        this(sourceName, detail, null);
    }

    public CardException(String sourceName, String detail, Throwable cause) {
        super(displayName(sourceName) + ": " + detail, cause);
        this.sourceName = displayName(sourceName);
        this.detail = detail;
    }

    /** The card path (or value source) the message starts with. */
    public String sourceName() {
        return sourceName;
    }

    /** The message without the leading source name. */
    public String detail() {
        return detail;
    }

    static String displayName(String sourceName) {
        return sourceName == null || sourceName.isBlank() ? "<card>" : sourceName;
    }
}
