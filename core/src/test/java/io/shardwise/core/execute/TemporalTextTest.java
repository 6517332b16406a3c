package io.shardwise.core.execute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.shardwise.core.route.ExecutionUnit;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemporalTextTest {
    @Test
    void javaTimeValuesBecomeCastsWithSixDigitsOfMicrosecondsAndSixDecimalsOnlyWhenThereAreAny() {
        assertEquals("CAST('2024-01-02' AS DATE)", TemporalText.of(LocalDate.of(2024, 1, 2)).literal());
        assertEquals("CAST('0001-01-01' AS DATE)", TemporalText.of(LocalDate.of(1, 1, 1)).literal());
        assertEquals("CAST('2024-01-02 03:04:05' AS DATETIME)", TemporalText.of(LocalDateTime.of(2024, 1, 2, 3, 4, 5)).literal());
        assertEquals("CAST('2024-01-02 00:00:00' AS DATETIME)", TemporalText.of(LocalDateTime.of(2024, 1, 2, 0, 0)).literal());
        assertEquals("CAST('2024-01-02 03:04:05.500000' AS DATETIME(6))",
                TemporalText.of(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 500_000_000)).literal());
        assertEquals("CAST('03:04:05.000001' AS TIME(6))", TemporalText.of(LocalTime.of(3, 4, 5, 1_000)).literal());
        assertEquals("CAST('00:00:00' AS TIME)", TemporalText.of(LocalTime.MIDNIGHT).literal());
        assertNull(TemporalText.of("2024-01-02"));
        assertNull(TemporalText.of(null));
    }

    @Test
    void aTimeBeyond838HoursIsClampedAsMariaDbReadsTheBoundValue() {
        assertEquals("CAST('838:59:59' AS TIME)", new TemporalText(TemporalText.Kind.TIME, "960:00:00").literal());
        assertEquals("CAST('-838:59:59.000005' AS TIME(6))", new TemporalText(TemporalText.Kind.TIME, "-1000:00:00.000005").literal());
        assertEquals("CAST('-838:59:59' AS TIME)", new TemporalText(TemporalText.Kind.TIME, "-838:59:59").literal());
        assertEquals("CAST('26:00:00' AS TIME)", new TemporalText(TemporalText.Kind.TIME, "26:00:00").literal());
        assertEquals("CAST('0000-00-00' AS DATE)", new TemporalText(TemporalText.Kind.DATE, "0000-00-00").literal());
    }

    @Test
    void unitsWithoutJavaTimeValuesAreReturnedAsTheyAre() {
        List<ExecutionUnit> units = List.of(new ExecutionUnit("ds0", "SELECT ?", Arrays.asList(1L, null, "x"), Map.of()));
        assertSame(units, TemporalText.typed(units));
        List<ExecutionUnit> typed = TemporalText.typed(List.of(units.get(0),
                new ExecutionUnit("ds1", "SELECT ?, ?", Arrays.asList(LocalDate.of(2024, 1, 2), 5L), Map.of())));
        assertSame(units.get(0), typed.get(0));
        assertEquals(Arrays.asList(new TemporalText(TemporalText.Kind.DATE, "2024-01-02"), 5L), typed.get(1).params());
    }

    @Test
    void inlinedTheyAreTheCastWhileTheJdbcFacesJavaTimeValuesStayQuotedStrings() {
        assertEquals("CAST('-01:00:00' AS TIME)", InlineParameters.literal(new TemporalText(TemporalText.Kind.TIME, "-01:00:00"), null));
        assertEquals("'2024-01-02'", InlineParameters.literal(LocalDate.of(2024, 1, 2), null));
    }
}
