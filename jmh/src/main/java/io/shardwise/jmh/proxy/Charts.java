package io.shardwise.jmh.proxy;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Line charts of the proxy experiments as PNG (XChart, headless). One colour per variant, the same
 * in every chart; a dashed line is the second measure of a variant (p95 beside the average).
 * Threads and connections double at each step, so the x axis is logarithmic.
 */
final class Charts {
    static final int WIDTH = 1100;
    static final int HEIGHT = 520;

    private static final BasicStroke DASHED = new BasicStroke(1.6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
            new float[] {6f, 4f}, 0f);

    /** A line: its x and y values (points whose y is not a number are left out), solid or dashed. */
    record Line(String name, int colorIndex, boolean dashed, List<Double> x, List<Double> y) {}

    private Charts() {}

    static void write(Path png, String title, String xTitle, String yTitle, boolean logX, boolean logY, List<Line> lines) {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        XYStyler styler = chart.getStyler();
        styler.setXAxisLogarithmic(logX);
        styler.setYAxisLogarithmic(logY);
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setLegendLayout(Styler.LegendLayout.Vertical);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotGridLinesColor(new Color(0xDD, 0xDD, 0xDD));
        styler.setDecimalPattern("#,##0.##");
        for (Line line : lines) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (int i = 0; i < line.x().size(); i++) {
                double y = line.y().get(i);
                if (!Double.isNaN(y) && !(logY && y <= 0)) {
                    xs.add(line.x().get(i));
                    ys.add(y);
                }
            }
            if (xs.isEmpty()) {
                continue;
            }
            XYSeries series = chart.addSeries(line.name(), xs, ys);
            Color color = Palette.color(line.colorIndex());
            series.setLineColor(color);
            series.setMarkerColor(color);
            series.setMarker(SeriesMarkers.CIRCLE);
            if (line.dashed()) {
                series.setLineStyle(DASHED);
            }
        }
        try {
            Files.createDirectories(png.toAbsolutePath().getParent());
            BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }

    /** Colours that stay apart in print and for the common colour-vision deficiencies (Okabe–Ito). */
    static final class Palette {
        private static final Color[] COLORS = {
            new Color(0x00, 0x00, 0x00), new Color(0xE6, 0x9F, 0x00), new Color(0x56, 0xB4, 0xE9),
            new Color(0x00, 0x9E, 0x73), new Color(0xD5, 0x5E, 0x00), new Color(0xCC, 0x79, 0xA7),
            new Color(0x00, 0x72, 0xB2), new Color(0xF0, 0xE4, 0x42)};

        private Palette() {}

        static Color color(int index) {
            return COLORS[Math.floorMod(index, COLORS.length)];
        }
    }
}
