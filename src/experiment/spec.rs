//! Experiment specs: strict TOML with every error naming file, line and field.

use crate::limits::LimitError;
use crate::systems::{self, Model, ParamError, ParamValue, Params};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// A spec that could not be read, parsed or validated.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {field}: {message}", file.display(), if *line > 0 { format!(":{line}") } else { String::new() })]
pub struct SpecError {
    /// The spec file.
    pub file: PathBuf,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// The offending field.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

type Table = BTreeMap<String, Spanned<toml::Value>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    name: Option<Spanned<String>>,
    title: Option<String>,
    system: Spanned<String>,
    scenario: Spanned<String>,
    trials: Spanned<i64>,
    seed: Option<u64>,
    confidence: Option<Spanned<f64>>,
    metrics: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    variants: Table,
    #[serde(default)]
    base: Table,
    #[serde(default)]
    profile: Vec<Table>,
    #[serde(default)]
    sweep: Table,
    #[serde(default)]
    chart: Vec<Spanned<RawChart>>,
    #[serde(default)]
    expect: Vec<Spanned<RawExpect>>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct RawExpect {
    metric: String,
    profile: Option<String>,
    #[serde(default)]
    cell: toml::Table,
    value: f64,
    tolerance: Option<f64>,
}

/// An expected value for `krunch check`.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    /// Profile index.
    pub profile: usize,
    /// Sweep cell index.
    pub cell: usize,
    /// Metric name.
    pub metric: String,
    /// The expected value.
    pub value: f64,
    /// Standard error of `value` (0 when it is exact or stated by hand).
    pub std_error: f64,
    /// Smallest change the check must be able to catch, if given: trials
    /// are raised until it can.
    pub tolerance: Option<f64>,
    /// Where it was written (`file:line`).
    pub source: String,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct RawChart {
    kind: String,
    metric: String,
    x: Option<String>,
    y: Option<String>,
    profile: Option<String>,
    by: Option<String>,
    #[serde(default)]
    at: toml::Table,
}

/// Kinds of chart a spec can ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum ChartSpec {
    /// One bar per profile for `metric` (at each sweep cell, grouped).
    Bar {
        /// Metric name.
        metric: String,
    },
    /// `metric` along sweep axis `x`, one line per profile. With more sweep
    /// axes: one line per value of `by` too, or (without `by`, several
    /// profiles) one panel per value of the next axis; axes fixed by `at`
    /// show that slice, any others their first value.
    Line {
        /// Metric name.
        metric: String,
        /// Sweep axis on the x axis.
        x: String,
        /// Sweep axis whose values get a line each.
        by: Option<String>,
        /// Axes held at one value: (axis index, value index).
        at: Vec<(usize, usize)>,
    },
    /// A distribution family (`hits={k}`) along `k`: P(= k) and P(>= k)
    /// per profile, a panel per sweep cell.
    Distribution {
        /// The family's name before `={k}` (`hits`).
        family: String,
        /// The metric it headlines (see [`at_least::Listed::headline`]).
        ///
        /// [`at_least::Listed::headline`]: super::at_least::Listed::headline
        metric: String,
    },
    /// `metric` over sweep axes `x` and `y` for one profile.
    Heatmap {
        /// Metric name.
        metric: String,
        /// Horizontal axis.
        x: String,
        /// Vertical axis.
        y: String,
        /// Profile shown.
        profile: String,
    },
}

/// One sweep axis: a parameter name and its values in order.
#[derive(Clone, Debug)]
pub struct Axis {
    /// The parameter swept.
    pub name: String,
    /// Its values.
    pub values: Vec<ParamValue>,
}

/// Where a parameter a profile ran on got its value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    /// The spec's `[base]`.
    Base,
    /// The profile's own table.
    Profile,
    /// `--variant NAME=VALUE` on the command line.
    Override,
    /// A preset's stat line: `param = preset` filled it in.
    Preset {
        /// The preset parameter (`weapon`).
        param: String,
        /// The preset chosen (`shoota`).
        preset: String,
    },
    /// The scenario's declared default (the spec does not set it).
    Default,
}

/// One parameter a profile ran on (sweep axes aside): its value, or
/// `None` where it changes with the sweep (a stat of a swept preset).
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// Parameter name.
    pub name: String,
    /// Its value in every cell, or `None` when it changes with the sweep.
    pub value: Option<ParamValue>,
    /// Where the value came from.
    pub source: Source,
}

/// A validated experiment: every model is already built, so running it
/// cannot fail on input.
pub struct Experiment {
    /// Short name (output folder).
    pub name: String,
    /// Human title.
    pub title: String,
    /// Source file.
    pub file: PathBuf,
    /// Rule set.
    pub system: String,
    /// Scenario.
    pub scenario: String,
    /// Trials per cell and profile.
    pub trials: u64,
    /// Seed of all random streams.
    pub seed: u64,
    /// Confidence level of intervals.
    pub confidence: f64,
    /// Rule variants of the spec (defaults filled in).
    pub variants: Vec<(String, String)>,
    /// Rule variants in force for each profile (the spec's, then the
    /// profile's own overrides).
    pub profile_variants: Vec<Vec<(String, String)>>,
    /// The rule variants the scenario's models read: the ones that can
    /// change a result, and so the ones reports name.
    pub variants_read: std::collections::BTreeSet<String>,
    /// Profile names in order.
    pub profiles: Vec<String>,
    /// Sweep axes.
    pub axes: Vec<Axis>,
    /// Metric names to report (a subset of the models' metrics).
    pub metrics: Vec<String>,
    /// Charts to draw.
    pub charts: Vec<ChartSpec>,
    /// Hex SHA-256 of the spec file's bytes.
    pub spec_hash: String,
    /// Parameter overrides from the command line, applied to every profile.
    pub overrides: Vec<(String, ParamValue)>,
    /// `[[expect]]` entries.
    pub expectations: Vec<Expected>,
    /// `models[cell][profile]`, cells in row-major order of `axes`.
    pub models: Vec<Vec<Box<dyn Model>>>,
    /// What the spec should be told but is not wrong: preset stats the
    /// scenario does not read (left out), one line each, naming the file,
    /// line and field.
    pub notes: Vec<String>,
    /// The spec's `[base]` as written.
    pub base: Vec<(String, ParamValue)>,
    /// Every parameter each profile ran on, by name: given, filled in by a
    /// preset, or the scenario's default (sweep axes aside).
    pub inputs: Vec<Vec<Input>>,
}

/// Why an `[[expect]]` entry (or a baseline's) names nothing in the spec.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LocateError {
    /// No profile has this name.
    #[error("no profile named '{name}' (profiles: {})", .profiles.join(", "))]
    NoProfile {
        /// The name given.
        name: String,
        /// The spec's profiles.
        profiles: Vec<String>,
    },
    /// No profile named, and the spec has several.
    #[error("name the profile: the spec has several")]
    ProfileNeeded,
    /// The cell names an axis the sweep does not have.
    #[error("'{0}' is not a sweep axis")]
    NotAnAxis(String),
    /// The cell leaves out a sweep axis.
    #[error("give the sweep value of '{0}'")]
    AxisNeeded(String),
    /// The cell gives a value the axis does not sweep.
    #[error("{axis}={value} is not among the sweep's values")]
    NotSwept {
        /// The axis.
        axis: String,
        /// The value given.
        value: String,
    },
    /// The model there does not report the metric.
    #[error("unknown metric '{0}': the spec has no such metric (see `krunch list`)")]
    UnknownMetric(String),
}

impl LocateError {
    /// The entry's field at fault: `profile`, `cell` or `metric`.
    pub fn field(&self) -> &'static str {
        match self {
            LocateError::NoProfile { .. } | LocateError::ProfileNeeded => "profile",
            LocateError::NotAnAxis(_)
            | LocateError::AxisNeeded(_)
            | LocateError::NotSwept { .. } => "cell",
            LocateError::UnknownMetric(_) => "metric",
        }
    }
}

impl ChartSpec {
    /// The metric the chart draws.
    pub fn metric(&self) -> &str {
        match self {
            ChartSpec::Bar { metric }
            | ChartSpec::Line { metric, .. }
            | ChartSpec::Distribution { metric, .. }
            | ChartSpec::Heatmap { metric, .. } => metric,
        }
    }
}

impl Experiment {
    /// The spec's rule variants that its scenario reads (the others cannot
    /// change a result, so reports do not name them).
    pub fn variants_in_use(&self) -> Vec<(String, String)> {
        self.in_use(&self.variants)
    }

    /// Profile `p`'s rule variants that its scenario reads.
    pub fn profile_variants_in_use(&self, p: usize) -> Vec<(String, String)> {
        self.in_use(&self.profile_variants[p])
    }

    fn in_use(&self, list: &[(String, String)]) -> Vec<(String, String)> {
        list.iter()
            .filter(|(k, _)| self.variants_read.contains(k))
            .cloned()
            .collect()
    }

    /// [`locate`](Self::locate), then checks that the model there reports
    /// `metric`.
    pub fn locate_metric(
        &self,
        profile: Option<&str>,
        cell: &toml::Table,
        metric: &str,
    ) -> Result<(usize, usize), LocateError> {
        let (p, c) = self.locate(profile, cell)?;
        if self.models[c][p].metrics().iter().any(|m| m.name == metric) {
            Ok((p, c))
        } else {
            Err(LocateError::UnknownMetric(metric.to_string()))
        }
    }

    /// Finds the profile (by name; optional when there is one) and the sweep
    /// cell (by axis values; every axis must be given) an expectation names.
    pub fn locate(
        &self,
        profile: Option<&str>,
        cell: &toml::Table,
    ) -> Result<(usize, usize), LocateError> {
        let profile = match profile {
            Some(name) => self
                .profiles
                .iter()
                .position(|p| p == name)
                .ok_or_else(|| LocateError::NoProfile {
                    name: name.to_string(),
                    profiles: self.profiles.clone(),
                })?,
            None if self.profiles.len() == 1 => 0,
            None => return Err(LocateError::ProfileNeeded),
        };
        if let Some(k) = cell
            .keys()
            .find(|k| !self.axes.iter().any(|a| &a.name == *k))
        {
            return Err(LocateError::NotAnAxis(k.clone()));
        }
        let mut index = 0;
        for axis in &self.axes {
            let given = cell
                .get(&axis.name)
                .ok_or_else(|| LocateError::AxisNeeded(axis.name.clone()))?;
            let wanted = to_param(given).map(|v| v.to_string()).unwrap_or_default();
            let pos = axis
                .values
                .iter()
                .position(|v| v.to_string() == wanted)
                .ok_or_else(|| LocateError::NotSwept {
                    axis: axis.name.clone(),
                    value: wanted.clone(),
                })?;
            index = index * axis.values.len() + pos;
        }
        Ok((profile, index))
    }

    /// Sets the trial count from `--trials`, if given, within
    /// [`MAX_TRIALS`](crate::limits::MAX_TRIALS).
    pub fn set_trials(&mut self, trials: Option<u64>) -> Result<(), LimitError> {
        if let Some(t) = trials {
            crate::limits::check_trials(t)?;
            self.trials = t;
        }
        Ok(())
    }

    /// The sweep values of cell `index`, one per axis.
    pub fn cell_values(&self, index: usize) -> Vec<ParamValue> {
        let mut rest = index;
        let mut out = vec![ParamValue::Int(0); self.axes.len()];
        for (i, axis) in self.axes.iter().enumerate().rev() {
            out[i] = axis.values[rest % axis.values.len()].clone();
            rest /= axis.values.len();
        }
        out
    }
}

/// The dotted name of the key at byte `offset` of a TOML text (`base.bs`,
/// `profile[1].weapon`, `sweep`), for errors the TOML parser reports by
/// position only: the table header in force and the key on that line.
pub(super) fn field_at(text: &str, offset: usize) -> String {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let mut header = String::new();
    let mut arrays: BTreeMap<String, usize> = BTreeMap::new();
    let header_of = |line: &str, arrays: &mut BTreeMap<String, usize>| -> Option<String> {
        let t = line.trim();
        if let Some(inner) = t.strip_prefix("[[").and_then(|r| r.split("]]").next()) {
            let name = inner.trim().trim_end_matches(']').trim().to_string();
            if name.is_empty() {
                return None;
            }
            let n = arrays.entry(name.clone()).or_insert(0);
            *n += 1;
            Some(format!("{name}[{}]", *n - 1))
        } else {
            t.strip_prefix('[')
                .and_then(|r| r.split(']').next())
                .map(|inner| inner.trim().to_string())
                .filter(|h| !h.is_empty())
        }
    };
    for line in text[..line_start].lines() {
        if let Some(h) = header_of(line, &mut arrays) {
            header = h;
        }
    }
    let here = &text[line_start..line_end];
    if let Some(h) = header_of(here, &mut arrays) {
        return h;
    }
    if here.trim_start().starts_with('#') {
        return "comment".to_string();
    }
    // the key before '=', or the first word of a line that lacks one
    let key = here
        .split('=')
        .next()
        .map(|k| {
            let k = if here.contains('=') {
                k
            } else {
                k.split_whitespace().next().unwrap_or("")
            };
            k.trim().trim_matches('"').trim_matches('\'').to_string()
        })
        .filter(|k| !k.is_empty());
    match (header.is_empty(), key) {
        (true, Some(k)) => k,
        (false, Some(k)) => format!("{header}.{k}"),
        (false, None) => header,
        // no key to name: the TOML syntax itself is at fault
        (true, None) => "toml".to_string(),
    }
}

/// 1-based line of a byte offset range's start.
pub(super) fn line_of(text: &str, span: &Range<usize>) -> usize {
    text[..span.start.min(text.len())].matches('\n').count() + 1
}

fn to_param(v: &toml::Value) -> Option<ParamValue> {
    Some(match v {
        toml::Value::Integer(i) => ParamValue::Int(*i),
        toml::Value::Float(f) => ParamValue::Float(*f),
        toml::Value::String(s) => ParamValue::Str(s.clone()),
        toml::Value::Boolean(b) => ParamValue::Bool(*b),
        _ => return None,
    })
}

/// Longest report name, in bytes: with the staging prefix and a process id
/// it stays well inside the 255 bytes a file name may have, also when
/// `compare` joins two names.
pub const MAX_NAME_LEN: usize = 100;

/// A report name that cannot name a folder under `--out`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// The name is empty.
    #[error("the name is empty: it names the report folder under --out")]
    Empty,
    /// The name is longer than [`MAX_NAME_LEN`] bytes.
    #[error(
        "the name is {0} bytes long, more than the {max} allowed (it names the report folder)",
        max = MAX_NAME_LEN
    )]
    TooLong(usize),
    /// The name has other characters than letters, digits, `_` and `-`.
    #[error("'{0}' must be letters, digits, '_' or '-' (it names the report folder under --out)")]
    Characters(String),
}

/// Checks a report name: it names one folder directly under `--out`, so it
/// must be one plain path component (letters, digits, `_`, `-`), never
/// empty, `.` or `..`, and at most [`MAX_NAME_LEN`] bytes.
pub fn check_name(name: &str) -> Result<(), NameError> {
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if name.len() > MAX_NAME_LEN {
        return Err(NameError::TooLong(name.len()));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(NameError::Characters(name.to_string()));
    }
    Ok(())
}

/// The spec path that means standard input (`krunch run -`).
pub const STDIN: &str = "-";

/// Standard input, read once (at most the spec size limit) and kept: a
/// spec given as `-` twice, or loaded twice by `compare`, reads the same
/// text.
fn stdin_text() -> Result<String, String> {
    use std::io::Read;
    static TEXT: std::sync::OnceLock<Result<String, String>> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let max = crate::limits::MAX_SPEC_BYTES;
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(max + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("reading standard input: {e}"))?;
        if bytes.len() as u64 > max {
            return Err(format!(
                "standard input holds more than {max} bytes, more than a spec may"
            ));
        }
        if bytes.is_empty() {
            return Err(
                "standard input is empty: pipe a spec in (`krunch run - < spec.toml`)".into(),
            );
        }
        String::from_utf8(bytes).map_err(|e| {
            format!(
                "standard input is not UTF-8 text (byte {})",
                e.utf8_error().valid_up_to() + 1
            )
        })
    })
    .clone()
}

/// Reads and validates the spec at `path` (`-`: standard input).
pub fn load(path: &Path) -> Result<Experiment, SpecError> {
    load_with(path, &[])
}

/// Turns `text` into the value a spec would give it: whole number, real
/// number, flag, or word.
pub fn param_from_text(text: &str) -> ParamValue {
    ParamValue::from_text(text)
}

/// Reads the spec at `path` with `overrides` (`NAME=VALUE` from the command
/// line) applied to every profile: a rule variant's name sets that variant,
/// any other name overrides that parameter.
pub fn load_with(path: &Path, overrides: &[(String, String)]) -> Result<Experiment, SpecError> {
    let from_stdin = path == Path::new(STDIN);
    // what errors and reports call a spec read from standard input
    let path = if from_stdin {
        Path::new("<stdin>")
    } else {
        path
    };
    let err = |line: usize, field: &str, message: String| SpecError {
        file: path.to_path_buf(),
        line,
        field: field.to_string(),
        message,
    };
    let text = if from_stdin {
        stdin_text().map_err(|m| err(0, "file", m))?
    } else {
        crate::limits::read_text(path, crate::limits::MAX_SPEC_BYTES)
            .map_err(|e| err(0, "file", e.to_string()))?
    };
    let raw: RawSpec = toml::from_str(&text).map_err(|e| {
        let line = e.span().map_or(0, |s| line_of(&text, &s));
        let message = e.message().trim().to_string();
        let named = message.split('`').nth(1).filter(|_| {
            message.starts_with("unknown field") || message.starts_with("missing field")
        });
        let field = match (named, e.span()) {
            (Some(f), _) => f.to_string(),
            (None, Some(span)) => field_at(&text, span.start),
            (None, None) => "toml".to_string(),
        };
        let message = match named {
            Some(f) if message.starts_with("missing field") => {
                let what = match f {
                    "trials" => " (trials per cell and profile, e.g. trials = 100000)",
                    "system" => " (the rule set: `krunch list` shows them)",
                    "scenario" => " (`krunch list SYSTEM` shows them)",
                    _ => "",
                };
                format!("missing: set {f} = ...{what}")
            }
            _ => message,
        };
        err(line, &field, message)
    })?;
    let at = |s: &Range<usize>| line_of(&text, s);
    // The name becomes a folder under --out that is replaced whole: check it
    // before anything else, so no name can reach outside --out.
    let name = match &raw.name {
        Some(n) => {
            check_name(n.get_ref()).map_err(|e| err(at(&n.span()), "name", e.to_string()))?;
            n.get_ref().clone()
        }
        None if from_stdin => "stdin".to_string(),
        None => {
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            check_name(&stem).map_err(|m| {
                err(
                    0,
                    "name",
                    format!("the file name gives the report name, and {m}: set name = \"...\""),
                )
            })?;
            stem
        }
    };
    let system = raw.system.get_ref().clone();
    let scenario = raw.scenario.get_ref().clone();
    let info =
        systems::rule_set(&system).map_err(|e| err(at(&raw.system.span()), "system", e.message))?;
    let catalogue = info
        .scenario(&scenario)
        .map(|sc| (sc.metrics)())
        .map_err(|e| err(at(&raw.scenario.span()), "scenario", e.message))?;
    let trials = *raw.trials.get_ref();
    if !(1..=crate::limits::MAX_TRIALS as i64).contains(&trials) {
        return Err(err(
            at(&raw.trials.span()),
            "trials",
            format!(
                "{trials} is impossible: must be from 1 to {}",
                crate::limits::MAX_TRIALS
            ),
        ));
    }
    let confidence = match &raw.confidence {
        Some(c) if !(0.5..1.0).contains(c.get_ref()) => {
            return Err(err(
                at(&c.span()),
                "confidence",
                format!("{} must be in [0.5, 1)", c.get_ref()),
            ));
        }
        Some(c) => *c.get_ref(),
        None => 0.95,
    };

    // Variants: known names, allowed values, defaults filled in; a profile
    // may override them in its own `variants = { ... }`.
    let apply_variants = |list: &mut Vec<(String, String)>,
                          entries: Vec<(String, toml::Value, usize)>,
                          section: &str|
     -> Result<(), SpecError> {
        for (k, value, line) in entries {
            let field = format!("{section}.{k}");
            let Some(def) = info.variants.iter().find(|v| v.name == k) else {
                let known: Vec<&str> = info.variants.iter().map(|v| v.name).collect();
                let listed = if known.is_empty() {
                    format!("rule set '{system}' has no rule variants")
                } else {
                    format!("known: {}", known.join(", "))
                };
                return Err(err(
                    line,
                    &field,
                    format!(
                        "unknown rule variant '{k}' ({listed}){}",
                        systems::did_you_mean(&k, known.iter().copied())
                    ),
                ));
            };
            match value.as_str() {
                Some(s) if def.values.contains(&s) => {
                    for entry in list.iter_mut().filter(|(n, _)| *n == k) {
                        entry.1 = s.to_string();
                    }
                }
                _ => {
                    // a word shown as written, not as TOML quotes it
                    let shown = value
                        .as_str()
                        .map_or_else(|| value.to_string(), str::to_string);
                    return Err(err(
                        line,
                        &field,
                        format!(
                            "'{shown}' is not one of: {}{}",
                            def.values.join(", "),
                            systems::did_you_mean(&shown, def.values.iter().copied())
                        ),
                    ));
                }
            }
        }
        Ok(())
    };
    let mut variant_list: Vec<(String, String)> = info
        .variants
        .iter()
        .map(|v| (v.name.to_string(), v.values[0].to_string()))
        .collect();
    apply_variants(
        &mut variant_list,
        raw.variants
            .iter()
            .map(|(k, sp)| (k.clone(), sp.get_ref().clone(), at(&sp.span())))
            .collect(),
        "variants",
    )?;

    // Where each parameter came from, for error lines.
    let table_params =
        |table: &Table, section: &str| -> Result<Vec<(String, ParamValue, usize)>, SpecError> {
            table
                .iter()
                .map(|(k, sp)| {
                    let v = to_param(sp.get_ref()).ok_or_else(|| {
                        let message = match sp.get_ref() {
                            toml::Value::Table(_) if section.starts_with("profile") => format!(
                                "a table is not a parameter value{}",
                                systems::did_you_mean(k, ["variants"])
                            ),
                            toml::Value::Table(_) => {
                                "a table is not a parameter value (rule variants go in [variants])"
                                    .to_string()
                            }
                            _ => "expected a number, word or true/false".to_string(),
                        };
                        err(at(&sp.span()), &format!("{section}.{k}"), message)
                    })?;
                    Ok((k.clone(), v, at(&sp.span())))
                })
                .collect()
        };
    // `metrics = [...]` written after `[sweep]` (or `[base]`) belongs to
    // that table in TOML: say so rather than call it a parameter
    for (section, table) in [("sweep", &raw.sweep), ("base", &raw.base)] {
        for key in ["metrics", "title", "trials", "seed", "name", "confidence"] {
            if let Some(sp) = table.get(key) {
                return Err(err(
                    at(&sp.span()),
                    &format!("{section}.{key}"),
                    format!(
                        "`{key}` is inside [{section}] here: in TOML a key after a [table] header belongs to that table; move `{key} = ...` above the first [table] header"
                    ),
                ));
            }
        }
    }
    let base = table_params(&raw.base, "base")?;
    let mut axes = Vec::new();
    let mut axis_lines = BTreeMap::new();
    for (k, sp) in &raw.sweep {
        let values = match sp.get_ref() {
            toml::Value::Array(a) if !a.is_empty() => a
                .iter()
                .map(to_param)
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    err(
                        at(&sp.span()),
                        &format!("sweep.{k}"),
                        "values must be numbers, words or flags".into(),
                    )
                })?,
            _ => {
                return Err(err(
                    at(&sp.span()),
                    &format!("sweep.{k}"),
                    "expected a non-empty array of values".into(),
                ));
            }
        };
        // a value twice would give two identical rows for every profile
        if let Some((i, v)) = values
            .iter()
            .enumerate()
            .find(|(i, v)| values[..*i].contains(v))
        {
            return Err(err(
                at(&sp.span()),
                &format!("sweep.{k}"),
                format!(
                    "{v} is listed twice (values {} and {}): each value once",
                    values.iter().position(|w| w == v).unwrap_or(0) + 1,
                    i + 1
                ),
            ));
        }
        axis_lines.insert(k.clone(), at(&sp.span()));
        axes.push(Axis {
            name: k.clone(),
            values,
        });
    }
    let sweep_line = axis_lines.values().copied().min().unwrap_or(0);
    let cells = axes
        .iter()
        .try_fold(1usize, |n, a| n.checked_mul(a.values.len()))
        .filter(|&n| n <= crate::limits::MAX_CELLS)
        .ok_or_else(|| {
            let product: f64 = axes.iter().map(|a| a.values.len() as f64).product();
            err(
                sweep_line,
                "sweep",
                format!(
                    "{product:.0} sweep cells is more than the {} allowed: sweep fewer values, or split the spec",
                    crate::limits::MAX_CELLS
                ),
            )
        })?;
    if raw.profile.is_empty() {
        return Err(err(
            0,
            "profile",
            "at least one [[profile]] is needed".into(),
        ));
    }
    if cells.saturating_mul(raw.profile.len()) > crate::limits::MAX_MODELS {
        return Err(err(
            sweep_line,
            "sweep",
            format!(
                "{cells} sweep cells x {} profiles = {} models, more than the {} allowed: sweep fewer values or split the profiles over several specs",
                raw.profile.len(),
                cells.saturating_mul(raw.profile.len()),
                crate::limits::MAX_MODELS
            ),
        ));
    }
    let mut profiles = Vec::new();
    let mut profile_params = Vec::new();
    let mut profile_lines = Vec::new();
    let mut profile_variants = Vec::new();
    for (i, table) in raw.profile.iter().enumerate() {
        let mut table = table.clone();
        let mut own_variants = variant_list.clone();
        if let Some(sp) = table.remove("variants") {
            let line = at(&sp.span());
            let toml::Value::Table(entries) = sp.into_inner() else {
                return Err(err(
                    line,
                    &format!("profile[{i}].variants"),
                    "expected a table such as { overwatch = \"original\" }".into(),
                ));
            };
            apply_variants(
                &mut own_variants,
                entries.into_iter().map(|(k, v)| (k, v, line)).collect(),
                &format!("profile[{i}].variants"),
            )?;
        }
        profile_variants.push(own_variants);
        let mut params = table_params(&table, &format!("profile[{i}]"))?;
        let (name, name_line) = match params.iter().position(|(k, _, _)| k == "name") {
            Some(pos) => {
                let (_, v, line) = params.remove(pos);
                (v.to_string(), line)
            }
            None => (format!("profile {}", i + 1), 0),
        };
        if name.is_empty() || name.len() > MAX_NAME_LEN {
            return Err(err(
                name_line,
                &format!("profile[{i}].name"),
                format!(
                    "a profile name has 1 to {MAX_NAME_LEN} bytes, not {}",
                    name.len()
                ),
            ));
        }
        if profiles.contains(&name) {
            return Err(err(
                name_line,
                &format!("profile[{i}].name"),
                format!("profile name '{name}' is used twice"),
            ));
        }
        // a sweep over the same field would replace the profile's own
        // value in every cell, silently
        if let Some((k, v, line)) = params.iter().find(|(k, _, _)| raw.sweep.contains_key(k)) {
            return Err(err(
                *line,
                &format!("profile[{i}].{k}"),
                format!(
                    "profile '{name}' sets {k} = {v}, but [sweep] sweeps {k} (line {}), which would replace it in every cell: remove one of the two",
                    axis_lines.get(k).copied().unwrap_or(0)
                ),
            ));
        }
        profiles.push(name);
        profile_lines.push(params.iter().map(|(_, _, l)| *l).min().unwrap_or(0));
        profile_params.push(params);
    }

    let mut param_overrides = Vec::new();
    for (i, (name, value)) in overrides.iter().enumerate() {
        let field = format!("--variant {name}");
        // the last would win, silently
        if let Some((_, first)) = overrides[..i].iter().find(|(n, _)| n == name) {
            return Err(err(
                0,
                &field,
                format!("given twice ({name}={first}, then {name}={value}): give each once"),
            ));
        }
        if let Some(def) = info.variants.iter().find(|v| v.name == name) {
            if !def.values.contains(&value.as_str()) {
                return Err(err(
                    0,
                    &field,
                    format!(
                        "'{value}' is not one of: {}{}",
                        def.values.join(", "),
                        systems::did_you_mean(value, def.values.iter().copied())
                    ),
                ));
            }
            for list in profile_variants.iter_mut().chain([&mut variant_list]) {
                for entry in list.iter_mut().filter(|(n, _)| n == name) {
                    entry.1 = value.clone();
                }
            }
        } else if raw.sweep.contains_key(name) {
            return Err(err(
                0,
                &field,
                format!("'{name}' is a sweep axis of this spec: change the sweep instead"),
            ));
        } else {
            param_overrides.push((name.clone(), param_from_text(value)));
        }
    }
    let mut experiment = Experiment {
        name,
        title: raw.title.clone().unwrap_or_default(),
        file: path.to_path_buf(),
        system: system.clone(),
        scenario: scenario.clone(),
        trials: trials as u64,
        seed: raw.seed.unwrap_or(0),
        confidence,
        variants: variant_list,
        profile_variants,
        variants_read: Default::default(),
        profiles,
        axes,
        metrics: Vec::new(),
        charts: Vec::new(),
        spec_hash: sha256_hex(text.as_bytes()),
        overrides: param_overrides.clone(),
        expectations: Vec::new(),
        models: Vec::with_capacity(cells),
        notes: Vec::new(),
        base: base
            .iter()
            .map(|(k, v, _)| (k.clone(), v.clone()))
            .collect(),
        inputs: Vec::new(),
    };
    let decls = info
        .scenario(&scenario)
        .map(|sc| (sc.params)())
        .unwrap_or_default();
    let mut inputs: Vec<BTreeMap<String, Input>> = vec![BTreeMap::new(); profile_params.len()];
    if experiment.title.is_empty() {
        experiment.title = experiment.name.clone();
    }
    for cell in 0..cells {
        let values = experiment.cell_values(cell);
        let mut row = Vec::with_capacity(profile_params.len());
        for (pi, pp) in profile_params.iter().enumerate() {
            let mut params = Params::new();
            let mut lines: BTreeMap<String, (usize, String)> = BTreeMap::new();
            for (k, v, line) in &base {
                params.set(k, v.clone());
                lines.insert(k.clone(), (*line, format!("base.{k}")));
            }
            for (k, v, line) in pp {
                params.set(k, v.clone());
                lines.insert(k.clone(), (*line, format!("profile[{pi}].{k}")));
            }
            for (k, v) in &param_overrides {
                params.set(k, v.clone());
                lines.insert(k.clone(), (0, format!("--variant {k}")));
            }
            for (axis, v) in experiment.axes.iter().zip(&values) {
                params.set(&axis.name, v.clone());
                lines.insert(
                    axis.name.clone(),
                    (axis_lines[&axis.name], format!("sweep.{}", axis.name)),
                );
            }
            let mut variants = Params::new();
            for (k, v) in &experiment.profile_variants[pi] {
                variants.set(k, ParamValue::Str(v.clone()));
            }
            let model = systems::build(&system, &scenario, &params, &variants).map_err(
                |e: ParamError| {
                    // A missing parameter has no line of its own: point at the
                    // preset that lacks it, or at the profile.
                    let (line, field) = match lines.get(&e.field) {
                        Some(found) => found.clone(),
                        None => {
                            // the preset that lacks it, or the profile
                            let near = info
                                .scenario(&scenario)
                                .ok()
                                .and_then(|sc| {
                                    (sc.params)().into_iter().find_map(|d| {
                                        matches!(d.kind, systems::ParamKind::Preset { .. })
                                            .then(|| lines.get(&d.name).map(|(l, _)| *l))
                                            .flatten()
                                    })
                                })
                                .unwrap_or(profile_lines[pi]);
                            (near, e.field.clone())
                        }
                    };
                    let context = if values.is_empty() {
                        format!("profile '{}'", experiment.profiles[pi])
                    } else {
                        let cell: Vec<String> = experiment
                            .axes
                            .iter()
                            .zip(&values)
                            .map(|(a, v)| format!("{}={v}", a.name))
                            .collect();
                        format!(
                            "profile '{}' at {}",
                            experiment.profiles[pi],
                            cell.join(", ")
                        )
                    };
                    err(line, &field, format!("{} ({context})", e.message))
                },
            )?;
            experiment.variants_read.extend(variants.names_read());
            let here = ran_on(info, &decls, &params, &lines);
            let seen = &mut inputs[pi];
            // a value that differs between cells, or is set in some cells
            // only (a swept preset's stat), changes with the sweep
            for old in seen.values_mut() {
                if !here
                    .iter()
                    .any(|i| i.name == old.name && i.value == old.value)
                {
                    old.value = None;
                }
            }
            for input in here {
                if !seen.contains_key(&input.name) {
                    let value = if cell == 0 { input.value.clone() } else { None };
                    seen.insert(input.name.clone(), Input { value, ..input });
                }
            }
            if cell == 0 {
                for (field, preset, unread) in
                    systems::registry::unread_preset_stats(&system, &scenario, &params)
                {
                    let (line, at) = lines
                        .get(&field)
                        .cloned()
                        .unwrap_or((profile_lines[pi], field.clone()));
                    let note = format!(
                        "{}:{line}: {at}: scenario '{scenario}' does not read {} of {field} '{preset}', so {} left out",
                        path.display(),
                        unread.join(", "),
                        if unread.len() == 1 {
                            "it is"
                        } else {
                            "they are"
                        }
                    );
                    if !experiment.notes.contains(&note) {
                        experiment.notes.push(note);
                    }
                }
            }
            // every distribution family also gives its "at least k"
            row.push(super::at_least::with_at_least(model, &catalogue));
        }
        experiment.models.push(row);
    }
    experiment.inputs = inputs
        .into_iter()
        .map(|m| m.into_values().collect())
        .collect();

    // Metrics: every name must exist in some model (distribution rows such as
    // `hits=3` exist only where that many shots are possible).
    let mut available: Vec<String> = Vec::new();
    for m in experiment.models.iter().flatten().flat_map(|m| m.metrics()) {
        if !available.contains(&m.name) {
            available.push(m.name.clone());
        }
    }
    experiment.metrics = match &raw.metrics {
        None => available.clone(),
        Some(list) if list.get_ref().is_empty() => {
            return Err(err(
                at(&list.span()),
                "metrics",
                "the list is empty: name at least one metric, or leave `metrics` out for all"
                    .into(),
            ));
        }
        Some(list) => {
            let names = list.get_ref();
            if let Some((i, m)) = names
                .iter()
                .enumerate()
                .find(|(i, m)| names[..*i].contains(m))
            {
                return Err(err(
                    at(&list.span()),
                    "metrics",
                    format!(
                        "'{m}' is listed twice (entries {} and {}): each metric once",
                        names.iter().position(|n| n == m).unwrap_or(0) + 1,
                        i + 1
                    ),
                ));
            }
            for m in list.get_ref() {
                if !available.contains(m) {
                    return Err(err(
                        at(&list.span()),
                        "metrics",
                        format!(
                            "unknown metric '{m}'{} (`krunch list {system} {scenario}` lists the metrics)",
                            systems::did_you_mean(m, available.iter().map(String::as_str))
                        ),
                    ));
                }
            }
            list.get_ref().clone()
        }
    };
    experiment.metrics = with_at_least_members(&experiment.metrics, &available);
    let families = super::at_least::listed(&experiment);
    for c in &raw.chart {
        let line = at(&c.span());
        let c = c.get_ref();
        if c.kind == "distribution" {
            if c.by.is_some() || !c.at.is_empty() || c.x.is_some() || c.y.is_some() {
                let field = ["by", "at", "x", "y"]
                    .into_iter()
                    .zip([
                        c.by.is_some(),
                        !c.at.is_empty(),
                        c.x.is_some(),
                        c.y.is_some(),
                    ])
                    .find_map(|(f, given)| given.then_some(f))
                    .unwrap_or("by");
                return Err(err(
                    line,
                    &format!("chart.{field}"),
                    "a distribution chart draws its family along k, a panel per sweep cell: it takes no `x`, `y`, `by` or `at`".into(),
                ));
            }
            let head = family_head(&c.metric);
            let Some(family) = families.iter().find(|f| f.head == head) else {
                let names: Vec<String> = families.iter().map(|f| f.id.to_string()).collect();
                return Err(err(
                    line,
                    "chart.metric",
                    if names.is_empty() {
                        format!(
                            "'{}' is not a distribution family: a distribution chart draws a family such as `hits={{k}}` (P(exactly k)), and the spec's metrics list none",
                            c.metric
                        )
                    } else {
                        format!(
                            "'{}' is not a distribution family: a distribution chart draws one of {}",
                            c.metric,
                            names.join(", ")
                        )
                    },
                ));
            };
            experiment.charts.push(ChartSpec::Distribution {
                family: family.head.clone(),
                metric: family.headline(),
            });
            continue;
        }
        if !experiment.metrics.contains(&c.metric) {
            return Err(err(
                line,
                "chart.metric",
                format!("metric '{}' is not among the spec's metrics", c.metric),
            ));
        }
        let axis = |a: &Option<String>, f: &str| -> Result<String, SpecError> {
            match a {
                Some(a) if experiment.axes.iter().any(|x| &x.name == a) => Ok(a.clone()),
                Some(a) => Err(err(line, f, format!("'{a}' is not a sweep axis"))),
                None => Err(err(line, f, "missing: name a sweep axis".into())),
            }
        };
        if c.kind != "line" && (c.by.is_some() || !c.at.is_empty()) {
            let field = if c.by.is_some() {
                "chart.by"
            } else {
                "chart.at"
            };
            return Err(err(
                line,
                field,
                format!(
                    "only a line chart takes `by` and `at` (this is a {})",
                    c.kind
                ),
            ));
        }
        let chart = match c.kind.as_str() {
            "bar" => ChartSpec::Bar {
                metric: c.metric.clone(),
            },
            "line" => {
                let x = axis(&c.x, "chart.x")?;
                let by = match &c.by {
                    None => None,
                    Some(b) if b == &x => {
                        return Err(err(
                            line,
                            "chart.by",
                            format!("'{b}' is already the x axis"),
                        ));
                    }
                    b => Some(axis(b, "chart.by")?),
                };
                let mut at = Vec::new();
                for (name, value) in &c.at {
                    let Some(ai) = experiment.axes.iter().position(|a| &a.name == name) else {
                        return Err(err(
                            line,
                            "chart.at",
                            format!("'{name}' is not a sweep axis"),
                        ));
                    };
                    if name == &x || by.as_ref() == Some(name) {
                        return Err(err(
                            line,
                            "chart.at",
                            format!(
                                "'{name}' is drawn along the chart, so it cannot be held at one value"
                            ),
                        ));
                    }
                    let wanted = to_param(value).map(|v| v.to_string()).unwrap_or_default();
                    let values = &experiment.axes[ai].values;
                    let Some(vi) = values.iter().position(|v| v.to_string() == wanted) else {
                        let swept: Vec<String> = values.iter().map(ToString::to_string).collect();
                        return Err(err(
                            line,
                            "chart.at",
                            format!(
                                "{name} = {value} is not swept (it sweeps {})",
                                swept.join(", ")
                            ),
                        ));
                    };
                    at.push((ai, vi));
                }
                ChartSpec::Line {
                    metric: c.metric.clone(),
                    x,
                    by,
                    at,
                }
            }
            "heatmap" => {
                let profile = c
                    .profile
                    .clone()
                    .unwrap_or_else(|| experiment.profiles[0].clone());
                if !experiment.profiles.contains(&profile) {
                    return Err(err(
                        line,
                        "chart.profile",
                        format!("no profile named '{profile}'"),
                    ));
                }
                ChartSpec::Heatmap {
                    metric: c.metric.clone(),
                    x: axis(&c.x, "chart.x")?,
                    y: axis(&c.y, "chart.y")?,
                    profile,
                }
            }
            other => {
                return Err(err(
                    line,
                    "chart.kind",
                    format!("'{other}' is not one of: bar, line, heatmap, distribution"),
                ));
            }
        };
        experiment.charts.push(chart);
    }
    for e in &raw.expect {
        let line = at(&e.span());
        let e = e.get_ref();
        let (profile, cell) = experiment
            .locate_metric(e.profile.as_deref(), &e.cell, &e.metric)
            .map_err(|e| err(line, &format!("expect.{}", e.field()), e.to_string()))?;
        if let Some(t) = e.tolerance.filter(|t| !(*t > 0.0 && *t < 1e6)) {
            return Err(err(
                line,
                "expect.tolerance",
                format!("{t} must be positive (and below 1e6)"),
            ));
        }
        let kind = experiment.models[cell][profile]
            .metrics()
            .iter()
            .find(|m| m.name == e.metric)
            .map(|m| m.kind);
        check_expected_value(&e.metric, kind, e.value)
            .map_err(|e| err(line, "expect.value", e.to_string()))?;
        experiment.expectations.push(Expected {
            profile,
            cell,
            metric: e.metric.clone(),
            value: e.value,
            std_error: 0.0,
            tolerance: e.tolerance,
            source: format!("{}:{line}", path.display()),
        });
    }
    if experiment.charts.is_empty() {
        // the first three metrics, and each family (up to three) drawn
        // whole as one distribution chart
        let mut charts: Vec<ChartSpec> = Vec::new();
        let mut drawn = 0;
        for m in &experiment.metrics {
            let chart = match families.iter().find(|f| f.holds(m)) {
                Some(f) => ChartSpec::Distribution {
                    family: f.head.clone(),
                    metric: f.headline(),
                },
                None if drawn == 3 => continue,
                None => {
                    drawn += 1;
                    match experiment.axes.first() {
                        Some(a) => ChartSpec::Line {
                            metric: m.clone(),
                            x: a.name.clone(),
                            by: None,
                            at: Vec::new(),
                        },
                        None => ChartSpec::Bar { metric: m.clone() },
                    }
                }
            };
            let families_drawn = charts
                .iter()
                .filter(|c| matches!(c, ChartSpec::Distribution { .. }))
                .count();
            let full = matches!(chart, ChartSpec::Distribution { .. }) && families_drawn == 3;
            if !full && !charts.contains(&chart) {
                charts.push(chart);
            }
        }
        experiment.charts = charts;
    }
    Ok(experiment)
}

/// `metrics` with each listed `X=k` of a distribution family followed by
/// its `X>=k` (where a model reports it and the list does not already
/// have it), placed after the family's last listed member.
fn with_at_least_members(metrics: &[String], available: &[String]) -> Vec<String> {
    let tail_of = |m: &str| -> Option<String> {
        let (head, k) = m.split_once('=')?;
        k.parse::<i64>().ok()?;
        let tail = format!("{head}>={k}");
        (!head.ends_with(['>', '<']) && available.contains(&tail) && !metrics.contains(&tail))
            .then_some(tail)
    };
    let head_of = |m: &str| m.split_once('=').map(|(h, _)| h.to_string());
    let mut out = Vec::new();
    for (i, m) in metrics.iter().enumerate() {
        out.push(m.clone());
        let Some(head) = tail_of(m).and(head_of(m)) else {
            continue;
        };
        let last = !metrics[i + 1..]
            .iter()
            .any(|n| tail_of(n).is_some() && head_of(n).as_deref() == Some(head.as_str()));
        if last {
            out.extend(
                metrics[..=i]
                    .iter()
                    .filter(|n| head_of(n).as_deref() == Some(head.as_str()))
                    .filter_map(|n| tail_of(n)),
            );
        }
    }
    out
}

/// The family a distribution chart names: `hits`, `hits={k}`,
/// `hits>={k}` or a member (`hits=2`) all name `hits`.
fn family_head(metric: &str) -> String {
    let cut = metric.find(">=").or_else(|| metric.find('='));
    match cut {
        Some(i) => metric[..i].to_string(),
        None => metric.to_string(),
    }
}

/// Every parameter one model ran on, sweep axes aside: what the spec gave
/// (its source from `lines`, which name `base.`, `profile[i].`, `--variant`
/// or `sweep.`), the stats its presets filled in, and the declared defaults
/// of the rest.
fn ran_on(
    rules: &systems::RuleSet,
    decls: &[systems::ParamDecl],
    given: &Params,
    lines: &BTreeMap<String, (usize, String)>,
) -> Vec<Input> {
    let Ok(resolved) = rules.resolve(decls, given) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (name, value) in resolved.iter() {
        let source = match lines.get(name).map(|(_, f)| f.as_str()) {
            Some(f) if f.starts_with("sweep.") => continue,
            Some(f) if f.starts_with("base.") => Source::Base,
            Some(f) if f.starts_with("--variant") => Source::Override,
            Some(_) => Source::Profile,
            None => decls
                .iter()
                .find_map(|d| {
                    let systems::ParamKind::Preset { prefix, catalogue } = &d.kind else {
                        return None;
                    };
                    let stat = name.strip_prefix(prefix.as_str())?;
                    let chosen = resolved.given(&d.name)?.to_string();
                    rules
                        .presets_of(catalogue)
                        .any(|p| p.name == chosen && p.sets.iter().any(|(s, _)| *s == stat))
                        .then(|| Source::Preset {
                            param: d.name.clone(),
                            preset: chosen,
                        })
                })
                .unwrap_or(Source::Profile),
        };
        out.push(Input {
            name: name.clone(),
            value: Some(value.clone()),
            source,
        });
    }
    for d in decls {
        if let systems::Need::Default(text) = d.need
            && !resolved.iter().any(|(n, _)| *n == d.name)
            && !lines.contains_key(&d.name)
        {
            let value = d
                .check(&ParamValue::from_text(text))
                .unwrap_or_else(|_| ParamValue::from_text(text));
            out.push(Input {
                name: d.name.clone(),
                value: Some(value),
                source: Source::Default,
            });
        }
    }
    out
}

/// A value no metric of its kind can have.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ValueError {
    /// Not finite.
    #[error("{0} is not a number a metric can have")]
    NotFinite(f64),
    /// A probability outside [0, 1].
    #[error("{value} is impossible: '{metric}' is a probability, from 0 to 1")]
    NotAProbability {
        /// The metric.
        metric: String,
        /// The value given.
        value: f64,
    },
}

/// How far outside [0, 1] a probability may lie and still be read as one:
/// exact values are sums of many terms, and `check --update` writes them as
/// computed (a certain event can sum to 1.0000000000000002). Exact checks
/// match within 1e-9 too.
pub(crate) const PROBABILITY_ROUNDING: f64 = 1e-9;

/// Whether `value` is possible for a metric of `kind`: finite, and a
/// probability within [0, 1] (give or take [`PROBABILITY_ROUNDING`]). Used
/// for `[[expect]]` and baselines.
pub(crate) fn check_expected_value(
    metric: &str,
    kind: Option<systems::MetricKind>,
    value: f64,
) -> Result<(), ValueError> {
    if !value.is_finite() {
        return Err(ValueError::NotFinite(value));
    }
    let possible = -PROBABILITY_ROUNDING..=1.0 + PROBABILITY_ROUNDING;
    if kind == Some(systems::MetricKind::Probability) && !possible.contains(&value) {
        return Err(ValueError::NotAProbability {
            metric: metric.to_string(),
            value,
        });
    }
    Ok(())
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::MetricKind::{Mean, Probability};

    #[test]
    fn a_probability_off_by_rounding_is_still_one() {
        // `check --update` wrote this for certain events (exact sums)
        assert_eq!(
            check_expected_value("p", Some(Probability), 1.0000000000000002),
            Ok(())
        );
        assert_eq!(check_expected_value("p", Some(Probability), -1e-17), Ok(()));
        for impossible in [1.000001, -0.001, 2.0] {
            let e = check_expected_value("p", Some(Probability), impossible).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("{impossible} is impossible: 'p' is a probability, from 0 to 1")
            );
        }
        assert_eq!(check_expected_value("m", Some(Mean), 2.0), Ok(()));
        assert!(check_expected_value("m", Some(Mean), f64::NAN).is_err());
    }
}
