package org.tracelake.jobs.metrics.side;

import java.util.List;

/**
 * A side table as its family reads it: the columns it reads, in the order its decoder reads them by position (the
 * workload, which the rows are grouped by, is not among them), and, for a table holding rows of several kinds, the
 * one {@code row_kind} it keeps (null: every row).
 */
public record SideTable(String name, List<String> columns, String rowKind) {}
