//! How a chart tells its series apart: the colour-blind-safe palette and
//! a point shape per series (drawn on the chart and in its legend).

use super::frame::DrawResult;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Okabe-Ito colours: distinct for colour-blind readers and on white.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(240, 228, 66),
];

/// Colour `i` of the palette.
pub(in crate::report) fn colour(i: usize) -> RGBAColor {
    PALETTE[i % PALETTE.len()].to_rgba()
}

/// The shape of a line chart's points: each series its own, so lines
/// that run close together (or a reader who cannot tell the colours
/// apart) can still be told apart, on the chart and in its legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Marker {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Hexagon,
}

impl Marker {
    const ALL: [Marker; 6] = [
        Marker::Circle,
        Marker::Square,
        Marker::TriangleUp,
        Marker::Diamond,
        Marker::TriangleDown,
        Marker::Hexagon,
    ];

    /// The marker of series `i`.
    pub(super) fn nth(i: usize) -> Marker {
        Self::ALL[i % Self::ALL.len()]
    }

    /// The outline of this shape around (0, 0) with radius `r` (pixels);
    /// empty for the circle, which plotters draws itself.
    fn outline(self, r: i32) -> Vec<(i32, i32)> {
        let polygon = |corners: usize, turn: f64, scale: f64| -> Vec<(i32, i32)> {
            (0..corners)
                .map(|k| {
                    let a = turn + std::f64::consts::TAU * k as f64 / corners as f64;
                    let d = f64::from(r) * scale;
                    ((d * a.cos()).round() as i32, (d * a.sin()).round() as i32)
                })
                .collect()
        };
        use std::f64::consts::FRAC_PI_2;
        match self {
            Marker::Circle => Vec::new(),
            Marker::Square => {
                let h = (f64::from(r) * 0.9).round() as i32;
                vec![(-h, -h), (h, -h), (h, h), (-h, h)]
            }
            Marker::TriangleUp => polygon(3, -FRAC_PI_2, 1.3),
            Marker::Diamond => polygon(4, -FRAC_PI_2, 1.25),
            Marker::TriangleDown => polygon(3, FRAC_PI_2, 1.3),
            Marker::Hexagon => polygon(6, 0.0, 1.1),
        }
    }

    /// Draws this marker centred at `at` (pixels of `canvas`): filled in
    /// `colour` for an exact value, else hollow (white inside, outlined).
    pub(super) fn draw<DB: DrawingBackend>(
        self,
        canvas: &DrawingArea<DB, Shift>,
        at: (i32, i32),
        r: i32,
        colour: RGBAColor,
        filled: bool,
    ) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        let (x, y) = at;
        if self == Marker::Circle {
            if filled {
                canvas.draw(&Circle::new(at, r, colour.filled()))?;
            } else {
                canvas.draw(&Circle::new(at, r, WHITE.filled()))?;
                canvas.draw(&Circle::new(at, r, colour.stroke_width(2)))?;
            }
            return Ok(());
        }
        let pts: Vec<(i32, i32)> = self
            .outline(r)
            .into_iter()
            .map(|(dx, dy)| (x + dx, y + dy))
            .collect();
        if filled {
            canvas.draw(&Polygon::new(pts, colour.filled()))?;
        } else {
            canvas.draw(&Polygon::new(pts.clone(), WHITE.filled()))?;
            let mut ring = pts;
            ring.push(ring[0]);
            canvas.draw(&PathElement::new(ring, colour.stroke_width(2)))?;
        }
        Ok(())
    }
}
