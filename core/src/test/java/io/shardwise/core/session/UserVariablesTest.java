package io.shardwise.core.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.shardwise.core.sql.normalize.LexicalMode;
import java.util.List;
import org.junit.jupiter.api.Test;

class UserVariablesTest {
    private static final LexicalMode NO_BACKSLASH = new LexicalMode(true, false);

    private static UserVariables vars() {
        UserVariables v = new UserVariables();
        v.set("i", new UserVariables.Value(UserVariables.Type.INTEGER, "7", false));
        v.set("d", new UserVariables.Value(UserVariables.Type.DECIMAL, "1.50", false));
        v.set("f", new UserVariables.Value(UserVariables.Type.DOUBLE, "1.5", false));
        v.set("s", new UserVariables.Value(UserVariables.Type.STRING, "it's a \\ b", false));
        v.set("b", new UserVariables.Value(UserVariables.Type.STRING, "\u0000\u00ff", true));
        return v;
    }

    @Test
    void readsBecomeTypedLiteralsAndSelectItemsKeepTheirLabels() {
        assertEquals("SELECT order_id, 7 AS `@i` FROM orders WHERE user_id = 7 AND amount > CAST(1.50 AS DECIMAL(65,38)) AND r < 1.5e0",
                vars().substitute("SELECT order_id, @i FROM orders WHERE user_id = @I AND amount > @d AND r < @f", LexicalMode.DEFAULT));
        assertEquals("INSERT INTO t VALUES ('it''s a \\\\ b', X'00ff', NULL)",
                vars().substitute("INSERT INTO t VALUES (@s, @b, @never)", LexicalMode.DEFAULT));
        assertEquals("SELECT 'it''s a \\ b' AS `@s`, 1", vars().substitute("SELECT @s, 1", NO_BACKSLASH));
        assertEquals("SELECT 7 + 1 AS `@i + 1`, CONCAT(7, '`') AS `CONCAT(@i, '``')`, 7 x, 7 + b, t.c FROM t",
                vars().substitute("SELECT @i + 1, CONCAT(@i, '`'), @i x, @i + b AS y, t.c FROM t", LexicalMode.DEFAULT)
                        .replace(" AS y", ""), "an expression item is labelled by its text as written, unless aliased");
        assertEquals("SELECT @r := @r + 7 AS `@r := @r + @i` FROM t WHERE k = 7",
                vars().substitute("SELECT @r := @r + @i FROM t WHERE k = @i", LexicalMode.DEFAULT),
                "a statement assigning @r reads it row by row; @i, only read, is constant there");
        assertEquals("SELECT DISTINCT (SELECT 7) AS `(SELECT @i)` FROM t WHERE a = 7",
                vars().substitute("SELECT DISTINCT (SELECT @i) FROM t WHERE a = @i", LexicalMode.DEFAULT));
    }

    @Test
    void assignmentsSetsAndVariableSelectsAreLeftAsWritten() {
        String same = "SELECT @i, @@version, DATABASE()";
        assertSame(same, vars().substitute(same, LexicalMode.DEFAULT));
        String set = "SET @x = @i + 1";
        assertSame(set, vars().substitute(set, LexicalMode.DEFAULT));
        assertEquals("SELECT a INTO @x, @y FROM t WHERE k = 7",
                vars().substitute("SELECT a INTO @x, @y FROM t WHERE k = @i", LexicalMode.DEFAULT));
        String body = "CREATE PROCEDURE p() BEGIN SELECT @i; END";
        assertSame(body, vars().substitute(body, LexicalMode.DEFAULT), "a body reads its variables when it runs");
        String call = "CALL p(@in, @out)";
        assertSame(call, vars().substitute(call, LexicalMode.DEFAULT), "set on the CALL's connection and read back (CallRunner)");
        assertEquals("@r", UserVariables.innerAssignment("SELECT @r := a FROM t", LexicalMode.DEFAULT));
        assertNull(UserVariables.innerAssignment("SET @r := 1", LexicalMode.DEFAULT));
    }

    @Test
    void setExpressionsReadTheValuesOfTheirTurn() {
        assertEquals("7 + 1.50", vars().expression("@i + @d", LexicalMode.DEFAULT));
        assertEquals(UserVariables.Type.INTEGER, UserVariables.literal("42", LexicalMode.DEFAULT).type());
        assertEquals(UserVariables.Value.NULL, UserVariables.literal("NULL", LexicalMode.DEFAULT));
        assertNull(UserVariables.literal("1.5e0", LexicalMode.DEFAULT), "a double's text is the server's to print");
    }

    @Test
    void selectIntoSplitsTheTargetsFromTheSelect() {
        UserVariables.Into into = UserVariables.into("SELECT a, b INTO @x, @`y` FROM t WHERE k = 1", LexicalMode.DEFAULT);
        assertEquals("SELECT a, b  FROM t WHERE k = 1", into.select());
        assertEquals(List.of("x", "y"), into.targets());
        assertEquals(List.of("x"), UserVariables.into("SELECT a FROM t LIMIT 1 INTO @x", LexicalMode.DEFAULT).targets());
        assertNull(UserVariables.into("SELECT a FROM t WHERE b = @x", LexicalMode.DEFAULT));
    }
}
