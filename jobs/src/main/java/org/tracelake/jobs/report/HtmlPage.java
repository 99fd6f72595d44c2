package org.tracelake.jobs.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A self-contained HTML page: the chart library (Apache ECharts, bundled from {@code resources/report/}), the
 * page's own script and style inlined, and the data as JSON in a {@code <script type="application/json">} block.
 * Trace names (kernel names hold {@code <}, {@code >}, {@code &}) travel only inside that JSON, where every
 * {@code <}, {@code >} and {@code &} is written as a {@code \}{@code u00XX} escape, so no {@code </script>} or
 * markup can appear; the page script puts them on screen with {@code textContent} and ECharts' own encoding.
 * The only text spliced into HTML is the title, HTML-escaped.
 */
public final class HtmlPage {
    /** The bundled ECharts release (resources/report/README.md says where it came from). */
    public static final String ECHARTS_VERSION = "6.1.0";

    private static final ObjectMapper JSON = new ObjectMapper().configure(SerializationFeature.INDENT_OUTPUT, false);

    private HtmlPage() {}

    public static String render(String title, Object data) {
        String lib = resource("echarts.min.js");
        String script = resource("report.js");
        String css = resource("report.css");
        for (String inlined : new String[] {lib, script}) {
            if (inlined.toLowerCase(Locale.ROOT).contains("</script")) {
                throw new IllegalStateException("a bundled script contains </script: it cannot be inlined");
            }
        }
        StringBuilder sb = new StringBuilder(lib.length() + 200_000);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"generator\" content=\"tracelake; Apache ECharts ")
                .append(ECHARTS_VERSION)
                .append("\">\n")
                .append("<title>")
                .append(escapeHtml(title))
                .append("</title>\n")
                .append("<style>\n")
                .append(css)
                .append("</style>\n</head>\n<body>\n")
                .append("<main id=\"report\"><h1>")
                .append(escapeHtml(title))
                .append("</h1>\n")
                .append("<noscript>This report draws its charts with JavaScript; the data is in the page.</noscript>\n")
                .append("</main>\n")
                .append("<script type=\"application/json\" id=\"report-data\">")
                .append(json(data))
                .append("</script>\n")
                .append("<script>\n/* Apache ECharts ")
                .append(ECHARTS_VERSION)
                .append(" (Apache-2.0; bundles ZRender, BSD-3-Clause): see tracelake resources/report/README.md */\n")
                .append(lib)
                .append("\n</script>\n")
                .append("<script>\n")
                .append(script)
                .append("\n</script>\n")
                .append("</body>\n</html>\n");
        return sb.toString();
    }

    /** JSON safe inside a script element: {@code <}, {@code >}, {@code &}, U+2028 and U+2029 as escapes. */
    public static String json(Object data) {
        try {
            return escapeForScript(JSON.writeValueAsString(data));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * In JSON these characters occur only inside strings (they are no part of its syntax), where a
     * {@code \}{@code u} escape means the same character to any JSON parser.
     */
    static String escapeForScript(String json) {
        StringBuilder sb = new StringBuilder(json.length() + 64);
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            switch (c) {
                case '<' -> sb.append("\\u003c");
                case '>' -> sb.append("\\u003e");
                case '&' -> sb.append("\\u0026");
                case '\u2028' -> sb.append("\\u2028");
                case '\u2029' -> sb.append("\\u2029");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    public static String escapeHtml(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    static String resource(String name) {
        String path = "/report/" + name;
        try (InputStream in = HtmlPage.class.getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("missing resource " + path);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
