package org.tracelake.jobs.readers;

import java.io.IOException;

/** The input is refused as a whole (hostile, unsupported or broken beyond reading); the message says why. */
public class InputRefusedException extends IOException {
    public InputRefusedException(String message) {
        super(message);
    }

    public InputRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
