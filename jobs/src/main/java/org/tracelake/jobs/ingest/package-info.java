/**
 * Ingest, the first stage of a refresh: the archive's files read into the run's staging area, nothing committed. One
 * stage in four classes, each at its own level:
 *
 * <ul>
 *   <li>{@link org.tracelake.jobs.ingest.IngestPhase}: the stage as a refresh runs it, on the driver: the progress
 *       lines, the Spark job below, and at the end the staging area dropped;
 *   <li>{@link org.tracelake.jobs.ingest.IngestStaging}: that Spark job, planned on the driver: one task per input
 *       file of every workload, then the {@code workloads} and {@code trace_files} rows the driver writes;
 *   <li>{@code FileIngest}: one task of that job, on an executor: one input file read and its rows written into its
 *       tables' staged partitions, its file report returned;
 *   <li>{@link org.tracelake.jobs.ingest.WorkloadIngest}: what the stage gives back for each workload: its card's
 *       outcome, its file reports, and whether its new tables may replace the old.
 * </ul>
 *
 * Beside them: the workload cards ({@link org.tracelake.jobs.ingest.WorkloadCards}, filled from torchtitan configs in
 * {@code toml/}), two files claiming one rank ({@code DuplicateRanks}) and whether a workload's name can be a
 * partition folder ({@link org.tracelake.jobs.ingest.PartitionNames}).
 */
package org.tracelake.jobs.ingest;
