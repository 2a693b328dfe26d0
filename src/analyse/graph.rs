//! The evaluation graph of a game (`--svg`, `--png`): Black's win rate by ply, with the
//! inaccuracies, mistakes and blunders marked, drawn with plotters. Text needs a
//! TrueType font found at run time (`HISHA_FONT`, else DejaVu Sans or Liberation Sans
//! in the usual places); without one the graph is drawn without its labels.

use super::game::GameAnalysis;
use super::score::Mark;
use once_cell::sync::Lazy;
use plotters::coord::Shift;
use plotters::prelude::*;

const FONT_PATHS: [&str; 5] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Largest font file loaded.
const FONT_MAX_BYTES: u64 = 32 << 20;

/// Whether a font was found and registered as `sans-serif`.
static FONT: Lazy<bool> = Lazy::new(|| {
    let env = std::env::var("HISHA_FONT").ok();
    for p in env.iter().map(String::as_str).chain(FONT_PATHS) {
        let small = std::fs::metadata(p).map(|m| m.len() <= FONT_MAX_BYTES).unwrap_or(false);
        if let (true, Ok(bytes)) = (small, std::fs::read(p)) {
            // The font lives as long as the program: plotters keeps a reference.
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                return true;
            }
        }
    }
    false
});

/// Draws the graph of `a` to `path` (SVG when it ends in `.svg`, else PNG).
pub fn draw(path: &str, title: &str, a: &GameAnalysis) -> Result<(), String> {
    let size = (1000, 500);
    if path.to_ascii_lowercase().ends_with(".svg") {
        let root = SVGBackend::new(path, size).into_drawing_area();
        plot(&root, title, a)?;
        root.present().map_err(|e| format!("{path}: {e}"))
    } else {
        let root = BitMapBackend::new(path, size).into_drawing_area();
        plot(&root, title, a)?;
        root.present().map_err(|e| format!("{path}: {e}"))
    }
}

fn plot<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, title: &str, a: &GameAnalysis) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let text = *FONT;
    let (x0, x1) = match (a.plies.first(), a.plies.last()) {
        (Some(f), Some(l)) => ((f.ply - 1) as f64, l.ply as f64),
        _ => (0.0, 1.0),
    };
    let mut builder = ChartBuilder::on(root);
    builder.margin(15);
    if text {
        builder.caption(title, ("sans-serif", 22)).x_label_area_size(40).y_label_area_size(55);
    }
    let mut chart = builder.build_cartesian_2d(x0..x1, 0.0..100.0).map_err(err)?;
    let mut mesh = chart.configure_mesh();
    mesh.light_line_style(RGBColor(235, 235, 235));
    if text {
        mesh.x_desc("ply").y_desc("Black win rate (%)").x_label_formatter(&|x| format!("{x:.0}")).y_label_formatter(&|y| format!("{y:.0}"));
    } else {
        mesh.disable_x_axis().disable_y_axis();
    }
    mesh.draw().map_err(err)?;
    chart.draw_series(LineSeries::new(vec![(x0, 50.0), (x1, 50.0)], RGBColor(150, 150, 150))).map_err(err)?;
    for (i, run) in runs(a).into_iter().enumerate() {
        let series = chart.draw_series(LineSeries::new(run, BLUE.stroke_width(2))).map_err(err)?;
        if text && i == 0 {
            series.label("Black win rate").legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
        }
    }
    for (mark, color) in [(Mark::Inaccuracy, RGBColor(230, 190, 0)), (Mark::Mistake, RGBColor(255, 120, 0)), (Mark::Blunder, RED)] {
        let pts: Vec<(f64, f64)> = a.plies.iter().filter(|p| p.mark == Some(mark)).map(|p| (p.ply as f64, p.after.winrate() * 100.0)).collect();
        let s = chart.draw_series(pts.into_iter().map(|pt| Circle::new(pt, 5, color.filled()))).map_err(err)?;
        if text {
            s.label(mark.name()).legend(move |(x, y)| Circle::new((x + 10, y), 5, color.filled()));
        }
    }
    if text {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// The win-rate curve as runs of consecutive analysed plies, each from the position
/// before its first ply: a ply left out (`--skip`) leaves a gap rather than a line
/// across it.
fn runs(a: &GameAnalysis) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut last = None;
    for p in &a.plies {
        if last != Some(p.ply - 1) {
            runs.push(vec![((p.ply - 1) as f64, p.before.winrate() * 100.0)]);
        }
        if let Some(run) = runs.last_mut() {
            run.push((p.ply as f64, p.after.winrate() * 100.0));
        }
        last = Some(p.ply);
    }
    runs
}
