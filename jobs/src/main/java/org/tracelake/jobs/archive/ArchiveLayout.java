package org.tracelake.jobs.archive;

import java.util.List;
import java.util.Locale;
import org.tracelake.jobs.readers.FormatDetector;

/**
 * Where a file sits in an archive and what that makes it (DESIGN.md "Input"), the one rule both the refresh's
 * {@link ArchiveScanner} and the {@code tracelake} data source follow: every folder directly below the root is a
 * workload, whatever depth its traces sit at ({@code <w>/profile_traces/iteration_13/rank0_trace.json.gz} belongs to
 * {@code <w>}, not to {@code iteration_13}); its card is the {@code *.yaml} at the top of that folder; dot and
 * underscore names are not inputs.
 */
public final class ArchiveLayout {
    private ArchiveLayout() {}

    /**
     * Where a file is, given the names of the folders between the root and the file (outermost first) and its own name.
     *
     * @param workloadFolder the workload folder's name (the first folder below the root), or null for a file at the
     *                       top of the root, which belongs to no workload folder
     * @param card           whether the file is its workload's card (a {@code *.yaml} at the top of the workload folder)
     */
    public record Place(String workloadFolder, boolean card) {}

    public static Place place(List<String> foldersBelowRoot, String fileName) {
        if (foldersBelowRoot.isEmpty()) return new Place(null, false);
        return new Place(foldersBelowRoot.get(0), foldersBelowRoot.size() == 1 && isCardName(fileName));
    }

    /** A card's name: {@code *.yaml} or {@code *.yml}, any case (only at the top of a workload folder is it the card). */
    public static boolean isCardName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".yaml") || lower.endsWith(".yml");
    }

    /**
     * Dot and underscore files are tool droppings (.DS_Store, _SUCCESS), not inputs — except NVRx's Flight Recorder
     * dumps, {@code _dump_<rank>} (FORMATS.md §9). A hidden folder is skipped whole.
     */
    public static boolean hidden(String name) {
        return name.startsWith(".") || (name.startsWith("_") && !FormatDetector.isFlightRecorderName(name));
    }
}
