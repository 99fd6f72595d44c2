/**
 * METRICS.md section 2 ("Classifying activity") as plain static Java functions, so that every reader and
 * every metric classifies a GPU activity, a collective and a message size the same way, and {@link
 * org.tracelake.udfs.UdfRegistry} exposes the same functions to Spark SQL.
 *
 * <p>Every function is pure and null-safe: a null (or unusable) input gives a null output, never an
 * exception, because trace fields are often absent and a UDF that throws fails a whole Spark job.
 */
package org.tracelake.udfs;
