package org.tracelake.jobs.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.tracelake.jobs.serve.ServeToken;

/**
 * A Spark Connect address as {@code sql --remote} takes it: {@code sc://HOST:PORT}, optionally followed by Spark's
 * parameters ({@code /;token=T;use_ssl=true}). The token is taken apart (the thin client sends it as a header);
 * any other parameter leaves the statement to Spark's own client.
 */
record RemoteAddress(String base, String token, List<String> others) {
    static RemoteAddress parse(String url) {
        int semi = url.indexOf(';');
        if (semi < 0) return new RemoteAddress(stripSlash(url), null, List.of());
        String base = stripSlash(url.substring(0, semi));
        String token = null;
        List<String> others = new ArrayList<>();
        for (String p : url.substring(semi + 1).split(";")) {
            if (p.isEmpty()) continue;
            if (p.startsWith("token=")) token = p.substring("token=".length());
            else others.add(p);
        }
        return new RemoteAddress(base, token, List.copyOf(others));
    }

    /**
     * The token when the address has none: Spark Connect's variable, else the file serve wrote into a local
     * warehouse ({@code _serve/token}), else null (a server that needs one then says so).
     */
    static String token(String warehouse) throws IOException {
        return ServeToken.forClients(warehouse);
    }

    /**
     * The address for Spark's JVM client: the token as its parameter, and a loopback address named {@code localhost},
     * the one name to which that client sends a token without TLS.
     */
    String forSparkClient(String token) {
        String b = base;
        for (String loop : List.of("sc://127.0.0.1:", "sc://[::1]:")) {
            if (token != null && b.startsWith(loop)) b = "sc://localhost:" + b.substring(loop.length());
        }
        List<String> params = new ArrayList<>(others);
        if (token != null) params.add("token=" + token);
        return params.isEmpty() ? b : b + "/;" + String.join(";", params);
    }

    private static String stripSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }
}
