package org.tracelake.jobs.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class whose fixture (a {@code @BeforeAll} archive) is built from these real traces, relative to
 * {@link SharedTraces#root()}. Without them every test of the class is reported skipped, with one line saying where
 * to put them; under CI's switch ({@link SharedTraces#REQUIRE}) the class fails instead.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(SharedTraces.Condition.class)
public @interface RealTraces {
    String[] value();
}
