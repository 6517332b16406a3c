package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.session.LoginAttempt;
import org.junit.jupiter.api.Test;

class ConnectErrorsTest {
    @Test
    void anAddressIsBlockedAfterTheLimitOfFailuresInARowAndOthersAreNot() {
        ConnectErrors errors = new ConnectErrors(3);
        errors.attempt("10.0.0.1").failed();
        errors.attempt("10.0.0.1").failed();
        assertFalse(errors.blocked("10.0.0.1"));
        errors.attempt("10.0.0.1").failed();
        assertTrue(errors.blocked("10.0.0.1"));
        assertFalse(errors.blocked("10.0.0.2"));
    }

    @Test
    void aSuccessfulLoginResetsTheCount() {
        ConnectErrors errors = new ConnectErrors(3);
        errors.attempt("10.0.0.1").failed();
        errors.attempt("10.0.0.1").failed();
        errors.attempt("10.0.0.1").succeeded();
        assertEquals(0, errors.failures("10.0.0.1"));
        errors.attempt("10.0.0.1").failed();
        errors.attempt("10.0.0.1").failed();
        assertFalse(errors.blocked("10.0.0.1"));
    }

    @Test
    void onlyTheFirstVerdictOfAConnectionCounts() {
        ConnectErrors errors = new ConnectErrors(3);
        LoginAttempt deniedThenClosed = errors.attempt("10.0.0.1");
        deniedThenClosed.failed();
        deniedThenClosed.failed();
        assertEquals(1, errors.failures("10.0.0.1"));
        LoginAttempt excused = errors.attempt("10.0.0.1");
        excused.excused();
        excused.failed();
        assertEquals(1, errors.failures("10.0.0.1"));
        LoginAttempt inThenDropped = errors.attempt("10.0.0.1");
        inThenDropped.succeeded();
        inThenDropped.failed();
        assertEquals(0, errors.failures("10.0.0.1"));
    }

    @Test
    void theTableIsBoundedAndKeepsTheBlockedAddresses() {
        ConnectErrors errors = new ConnectErrors(2);
        errors.attempt("blocked").failed();
        errors.attempt("blocked").failed();
        for (int i = 0; i < ConnectErrors.MAX_ADDRESSES + 10; i++) {
            errors.attempt("10.1." + i).failed();
        }
        assertTrue(errors.blocked("blocked"));
        assertEquals(1, errors.failures("10.1." + (ConnectErrors.MAX_ADDRESSES + 9)), "a new address is still counted");
    }
}
