package org.tracelake.jobs.readers.memory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Locale;
import net.razorvine.pickle.PickleException;
import net.razorvine.pickle.Unpickler;

/**
 * razorvine's unpickler with every object-constructing opcode refused a second time, at dispatch: a belt to
 * {@link PickleGuard}'s braces. Call {@link #loadChecked} only on bytes the guard has passed; should the two ever
 * disagree, this throws before any class is looked up.
 */
public final class PlainUnpickler extends Unpickler {
    private static final String REFUSED = "cRbio\u0081\u0092\u0082\u0083\u0084PQ\u0093\u0097\u0098";

    @Override
    protected Object dispatch(short key) throws PickleException, IOException {
        if (REFUSED.indexOf((char) (key & 0xff)) >= 0) {
            throw new PickleException(
                    String.format(Locale.ROOT, "refused pickle opcode 0x%02x: not plain data", key & 0xff));
        }
        return super.dispatch(key);
    }

    /**
     * The pickle's value. razorvine trusts a pickle's structure: an opcode that pops more values than were pushed (a
     * STOP on an empty stack, found by fuzzing), finds a list where it needs a dict, or appends to a None (also found
     * by fuzzing) fails deep inside it with an index, cast or null error, and a self-containing key overflows the
     * stack. That is a damaged file, not a reader bug, and is reported as one, with where it broke.
     */
    public Object loadChecked(ByteArrayInputStream in) throws IOException {
        int length = in.available();
        try {
            return load(in);
        } catch (IndexOutOfBoundsException | ClassCastException | NullPointerException e) {
            throw new PickleException("a damaged pickle: the opcode before byte " + (length - in.available())
                    + " does not fit the values before it (" + e.getClass().getSimpleName() + ")");
        } catch (StackOverflowError e) {
            // a dict or list that holds itself, then used as a dict key (found by fuzzing): hashing it never ends.
            // Python refuses the same pickle ("unhashable type"); nothing of the reader's is on the stack.
            throw new PickleException("a damaged pickle: the opcode before byte " + (length - in.available())
                    + " hashes a value that contains itself, or one nested too deeply to follow");
        } finally {
            close();
        }
    }
}
