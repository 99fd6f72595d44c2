package org.tracelake.jobs.readers.nsys;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which tables and columns an Nsight export has. Exports are lazy (a table exists only when it has rows) and
 * vary by version and by tools that add columns afterwards, so every query selects columns by name and puts
 * {@code NULL} where one is missing.
 */
final class SqliteSchema {
    private final Set<String> tables = new HashSet<>();
    private final Map<String, Set<String>> columns = new HashMap<>();
    private final Connection conn;

    SqliteSchema(Connection conn) throws SQLException {
        this.conn = conn;
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")) {
            while (rs.next()) tables.add(rs.getString(1));
        }
    }

    boolean has(String table) {
        return tables.contains(table);
    }

    boolean has(String table, String column) {
        return columnsOf(table).contains(column);
    }

    /** {@code alias.column} when the table has the column, else {@code NULL}; for select lists and joins. */
    String col(String alias, String table, String column) {
        return has(table, column) ? alias + "." + quote(column) : "NULL";
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    private Set<String> columnsOf(String table) {
        return columns.computeIfAbsent(table, t -> {
            Set<String> names = new HashSet<>();
            if (!tables.contains(t)) return names;
            try (PreparedStatement ps = conn.prepareStatement("SELECT name FROM pragma_table_info(?)")) {
                ps.setString(1, t);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) names.add(rs.getString(1));
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot list the columns of " + t + ": " + e.getMessage(), e);
            }
            return names;
        });
    }
}
