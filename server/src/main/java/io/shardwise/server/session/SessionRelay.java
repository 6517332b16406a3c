package io.shardwise.server.session;

import io.shardwise.core.RelayPlan;
import io.shardwise.core.RelaySession;
import io.shardwise.core.execute.Condition;
import io.shardwise.core.session.SessionStatements;
import io.shardwise.core.sql.normalize.QueryStatements;
import io.shardwise.server.SessionRegistry;
import java.util.List;

/**
 * The core session's {@link RelaySession} as the server offers it to its relay executor: the
 * statements this server answers by itself never reach the relay, and a relayed statement shows in
 * the processlist and counts as a question, as on the session thread. Event-loop confined, as the
 * relay.
 */
final class SessionRelay implements RelaySession {
    private final RelaySession core;
    private final SessionRegistry registry;
    private final SessionRegistry.Activity activity;
    private final java.util.function.Supplier<String> schema;

    SessionRelay(RelaySession core, SessionRegistry registry, SessionRegistry.Activity activity,
                 java.util.function.Supplier<String> schema) {
        this.core = core;
        this.registry = registry;
        this.activity = activity;
        this.schema = schema;
    }

    /**
     * Only a single plain SELECT (no INTO), INSERT, UPDATE or DELETE (no {@code ;}, no system variables
     * or {@code ()} functions this server answers itself, no user variable assignment, no
     * information_schema) goes on to the engine's own checks. User variables the statement reads may
     * relay: the engine reads them as literals before it plans. Cheap: no lexing here.
     */
    @Override
    public RelayPlan plan(String sql) {
        String s = selectOnly(sql);
        return s == null ? null : core.plan(s);
    }

    /** A prepared statement's execution, under the same rule. */
    @Override
    public RelayPlan prepared(String sql, List<Object> params) {
        String s = selectOnly(sql);
        return s == null ? null : core.prepared(s, params);
    }

    private static String selectOnly(String sql) {
        String s = QueryStatements.strip(sql);
        boolean select = startsWithWord(s, "select");
        if (s.length() < 8 || !select && !startsWithWord(s, "insert") && !startsWithWord(s, "update") && !startsWithWord(s, "delete")
                || s.indexOf(';') >= 0 || s.indexOf("@@") >= 0 || s.indexOf(":=") >= 0 || s.indexOf("()") >= 0
                || SessionStatements.mentionsInformationSchema(s) || select && containsIgnoreCase(s, "into")) {
            return null;
        }
        return s;
    }

    private static boolean startsWithWord(String s, String word) {
        return s.length() > word.length() && s.regionMatches(true, 0, word, 0, word.length())
                && !Character.isLetterOrDigit(s.charAt(word.length()));
    }

    private static boolean containsIgnoreCase(String text, String lowerWord) {
        int n = text.length() - lowerWord.length();
        char first = lowerWord.charAt(0);
        for (int i = 0; i <= n; i++) {
            if (Character.toLowerCase(text.charAt(i)) == first && text.regionMatches(true, i, lowerWord, 0, lowerWord.length())) {
                return true;
            }
        }
        return false;
    }

    /** As a statement it relays: shown in the processlist and counted as a question while it runs on the loop. */
    @Override
    public io.shardwise.core.TransactionCommand transactionCommand(String sql) {
        io.shardwise.core.TransactionCommand command = core.transactionCommand(sql);
        if (command != null) {
            registry.activity(activity, sql, schema.get());
            registry.countQuestion();
        }
        return command;
    }

    @Override
    public void started(String sql, RelayPlan plan) {
        registry.activity(activity, sql, schema.get());
        registry.countQuestion();
        core.started(sql, plan);
    }

    @Override
    public void started(String sql, RelayPlan plan, io.shardwise.core.execute.Diagnostics area) {
        registry.activity(activity, sql, schema.get());
        registry.countQuestion();
        core.started(sql, plan, area);
    }

    @Override
    public io.shardwise.core.execute.ResultCursor merge(RelayPlan plan, List<io.shardwise.core.execute.UnitResult> results,
                                                       io.shardwise.core.execute.Diagnostics area) {
        return core.merge(plan, results, area);
    }

    @Override
    public String translate(String backend, int errno, String message) {
        return core.translate(backend, errno, message);
    }

    @Override
    public void warnings(int unit, String backend, int count, List<Condition> conditions) {
        core.warnings(unit, backend, count, conditions);
    }

    @Override
    public void failed(int errno, String message) {
        core.failed(errno, message);
    }

    @Override
    public void ended() {
        registry.activity(activity, null, schema.get());
        core.ended();
    }

    @Override
    public int warningCount() {
        return core.warningCount();
    }

    @Override
    public boolean inTransaction() {
        return core.inTransaction();
    }

    @Override
    public boolean autocommit() {
        return core.autocommit();
    }

    @Override
    public boolean noBackslashEscapes() {
        return core.noBackslashEscapes();
    }

    @Override
    public void wrote(long affectedRows, long lastInsertId) {
        core.wrote(affectedRows, lastInsertId);
    }

    @Override
    public void nativeOpener(io.shardwise.core.NativeOpener opener) {
        core.nativeOpener(opener);
    }

    @Override
    public void attach(io.shardwise.core.execute.NativeTransaction transaction) {
        core.attach(transaction);
    }

    @Override
    public io.shardwise.core.execute.NativeTransaction nativeTransaction() {
        return core.nativeTransaction();
    }

    @Override
    public List<String> savepoints() {
        return core.savepoints();
    }

    @Override
    public void useNativeReads(io.shardwise.core.execute.NativeReads reads) {
        core.useNativeReads(reads);
    }

    @Override
    public void nativeEnded() {
        core.nativeEnded();
    }

    @Override
    public void killQuery(String backend, long threadId) {
        core.killQuery(backend, threadId);
    }
}
