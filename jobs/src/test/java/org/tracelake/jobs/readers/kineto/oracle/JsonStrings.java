package org.tracelake.jobs.readers.kineto.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Top-level elements of a small JSON array kept as text in an arg (e.g. "Input type", "Concrete Inputs"). */
final class JsonStrings {
    private JsonStrings() {}

    static List<String> elements(String jsonArray) {
        if (jsonArray == null || jsonArray.isEmpty() || jsonArray.charAt(0) != '[') return List.of();
        try {
            JsonNode node = KinetoIndex.JSON.readTree(jsonArray);
            List<String> out = new ArrayList<>(node.size());
            for (JsonNode element : node) out.add(element.isValueNode() ? element.asText() : element.toString());
            return out;
        } catch (IOException e) {
            return List.of();
        }
    }
}
