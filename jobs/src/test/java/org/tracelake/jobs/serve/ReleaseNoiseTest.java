package org.tracelake.jobs.serve;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What serve's log drops, with the texts Spark 4.1.3 logged (the third seen in CI on 2026-12-02, ServeTest, under
 * load), and what it keeps: any other error, and a release of a session that is still there.
 */
class ReleaseNoiseTest {
    private static final String RELEASE_EXECUTE =
            "Spark Connect RPC error during: releaseExecute. UserId: root. SessionId: bc07c468-4122-41d8-8a30-297214052da7.";
    private static final RuntimeException SESSION_CLOSED = new RuntimeException(
            "[INVALID_HANDLE.SESSION_CLOSED] The handle bc07c468-4122-41d8-8a30-297214052da7 is invalid. Session was"
                    + " closed. SQLSTATE: HY000");

    @Test
    void theReleasesOfWhatIsGoneAreDropped() {
        assertTrue(ReleaseNoise.isNoise(
                "Spark Connect RPC error during: releaseSession. UserId: root. SessionId: 1.", null));
        assertTrue(ReleaseNoise.isNoise("Failed to release session", null));
        assertTrue(ReleaseNoise.isNoise(RELEASE_EXECUTE, SESSION_CLOSED));
    }

    @Test
    void everythingElseIsKept() {
        assertFalse(ReleaseNoise.isNoise(RELEASE_EXECUTE, null), "no cause: not known to be harmless");
        assertFalse(ReleaseNoise.isNoise(RELEASE_EXECUTE, new RuntimeException("[INTERNAL_ERROR] boom")));
        assertFalse(ReleaseNoise.isNoise(
                "Spark Connect RPC error during: executePlan. UserId: root. SessionId: 1.", SESSION_CLOSED));
        assertFalse(ReleaseNoise.isNoise(null, SESSION_CLOSED));
    }
}
