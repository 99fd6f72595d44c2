package org.tracelake.jobs.cli;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/** Run ids sort by time and are unique enough for one warehouse: {@code 20261122T034512Z-1a2b}. */
public final class RunIds {
    private RunIds() {}

    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT);

    public static String newId() {
        return FORMAT.format(ZonedDateTime.now(ZoneOffset.UTC))
                + String.format(
                        Locale.ROOT, "-%04x", ThreadLocalRandom.current().nextInt(0x10000));
    }
}
