//! Charts as inline SVG, drawn by `plotters` with its SVG backend.

use crate::page::{Chart, ChartKind};
use plotters::coord::Shift;
use plotters::prelude::*;

const WIDTH: u32 = 640;
const HEIGHT: u32 = 320;

/// Series colours (colour-blind-safe, in order).
const PALETTE: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
];

fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// The chart as an `<svg>` element, or an error message when plotting failed.
pub fn svg(chart: &Chart) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let r = match chart.kind {
            ChartKind::Bars => bars(&root, chart),
            ChartKind::Lines | ChartKind::Scatter => xy(&root, chart),
        };
        r.map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn bars(root: &DrawingArea<SVGBackend<'_>, Shift>, chart: &Chart) -> DrawResult {
    let n = chart.categories.len().max(1);
    let ymax = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(0.0f64, f64::max);
    let ymax = if ymax > 0.0 { ymax * 1.1 } else { 1.0 };
    let mut c = ChartBuilder::on(root)
        .caption(&chart.title, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(60)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..n as f64, 0f64..ymax)?;
    c.configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc(chart.y_label.as_str())
        .draw()?;
    let groups = chart.series.len().max(1) as f64;
    let width = 0.8 / groups;
    for (si, s) in chart.series.iter().enumerate() {
        let col = color(si);
        c.draw_series(s.points.iter().map(|&(x, y)| {
            let x0 = x + 0.1 + width * si as f64;
            Rectangle::new([(x0, 0.0), (x0 + width, y)], col.filled())
        }))?
        .label(s.name.as_str())
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], col.filled()));
    }
    // Category names under their bars (plotters' own labels sit at round x values).
    let style = ("sans-serif", 12).into_font().color(&BLACK);
    for (i, name) in chart.categories.iter().enumerate() {
        let (px, py) = c.backend_coord(&(i as f64 + 0.5, 0.0));
        let short: String = if name.chars().count() > 18 {
            name.chars().take(17).chain(['…']).collect()
        } else {
            name.clone()
        };
        root.draw(&Text::new(
            short,
            (px - 40, py + 6 + 14 * (i as i32 % 2)),
            style.clone(),
        ))?;
    }
    if chart.series.len() > 1 {
        c.configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
    }
    Ok(())
}

fn xy(root: &DrawingArea<SVGBackend<'_>, Shift>, chart: &Chart) -> DrawResult {
    let pts = || chart.series.iter().flat_map(|s| s.points.iter());
    let fold = |f: fn(f64, f64) -> f64, init: f64, y: bool| {
        pts().map(|p| if y { p.1 } else { p.0 }).fold(init, f)
    };
    let (mut x0, mut x1) = (
        fold(f64::min, f64::INFINITY, false),
        fold(f64::max, 0.0, false),
    );
    let (mut y0, mut y1) = (
        fold(f64::min, f64::INFINITY, true),
        fold(f64::max, 0.0, true),
    );
    if !x0.is_finite() {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    if chart.diagonal {
        x0 = x0.min(y0);
        y0 = x0;
        x1 = x1.max(y1);
        y1 = x1;
    }
    y0 = y0.min(0.0);
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    if y1 <= y0 {
        y1 = y0 + 1.0;
    }
    let mut b = ChartBuilder::on(root);
    b.caption(&chart.title, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(60);
    if chart.log_x && x0 > 0.0 {
        let mut c = b.build_cartesian_2d((x0..x1 * 1.05).log_scale(), y0..y1 * 1.05)?;
        c.configure_mesh()
            .x_desc(chart.x_label.as_str())
            .y_desc(chart.y_label.as_str())
            .draw()?;
        draw_xy(&mut c, chart)?;
        c.configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
    } else {
        let pad = (x1 - x0) * 0.05;
        let mut c = b.build_cartesian_2d(x0 - pad..x1 + pad, y0..y1 * 1.05)?;
        c.configure_mesh()
            .x_desc(chart.x_label.as_str())
            .y_desc(chart.y_label.as_str())
            .draw()?;
        if chart.diagonal {
            c.draw_series(LineSeries::new(
                [(x0, x0), (x1, x1)],
                BLACK.mix(0.4).stroke_width(1),
            ))?;
        }
        draw_xy(&mut c, chart)?;
        c.configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
    }
    Ok(())
}

fn draw_xy<X, Y>(
    c: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>,
    chart: &Chart,
) -> DrawResult
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    for (si, s) in chart.series.iter().enumerate() {
        let col = color(si);
        let mut pts = s.points.clone();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        if chart.kind == ChartKind::Lines {
            c.draw_series(LineSeries::new(pts.iter().copied(), col.stroke_width(2)))?;
        }
        c.draw_series(pts.iter().map(move |&p| Circle::new(p, 3, col.filled())))?
            .label(s.name.as_str())
            .legend(move |(x, y)| Circle::new((x + 5, y), 4, col.filled()));
    }
    Ok(())
}
