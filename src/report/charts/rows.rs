//! The result rows a chart reads: looked up by profile, cell and metric,
//! and the value drawn for each (exact where known, else the estimate).

use crate::experiment::{Experiment, Results, Row};
use crate::report::labels::value_text;
use std::collections::HashMap;

/// The rows of a run by (profile, cell index, metric): a chart asks for
/// each point it draws, and a missing row (a model without the metric) is
/// left out, not an error.
pub(super) struct Lookup<'a> {
    rows: HashMap<(&'a str, usize, &'a str), &'a Row>,
}

impl<'a> Lookup<'a> {
    /// Indexes every row of `results`.
    pub(super) fn new(results: &'a Results) -> Self {
        Lookup {
            rows: results
                .rows
                .iter()
                .map(|r| ((r.profile.as_str(), r.cell_index, r.metric.as_str()), r))
                .collect(),
        }
    }

    /// The row of `profile` in `cell` for `metric`, if the run has it.
    pub(super) fn get(&self, profile: &str, cell: usize, metric: &str) -> Option<&'a Row> {
        self.rows.get(&(profile, cell, metric)).copied()
    }
}

/// The index of the sweep axis `name` (the spec was checked on load, so
/// an unknown name cannot reach a chart; the first axis if it does).
pub(super) fn axis_index(exp: &Experiment, name: &str) -> usize {
    exp.axes.iter().position(|a| a.name == name).unwrap_or(0)
}

/// The value a chart draws: the exact one where the model has it, else the
/// Monte Carlo estimate; and whether it is exact.
pub(super) fn shown(r: &Row) -> (f64, bool) {
    match r.exact {
        Some(e) => (e, true),
        None => (r.value, false),
    }
}

/// A value as a chart's label writes it: a Monte Carlo estimate marked `≈`.
pub(super) fn shown_text(exp: &Experiment, metric: &str, r: &Row) -> String {
    let (v, exact) = shown(r);
    let text = value_text(exp, metric, v);
    if exact { text } else { format!("≈{text}") }
}
