//! Stage two of loading a spec: the raw TOML checked against the rule set
//! without building a model. The report name, the rule set and scenario,
//! the limits (trials, confidence, cells, models), the rule variants (each
//! checked in one place, [`variant_value`]), the `[base]` and profile
//! parameters, the sweep axes and the command line's overrides. What needs
//! the models (metrics, charts, expectations) passes through for the last
//! stage.

use super::raw::{ChartToml, ExpectToml, RawSpec, SpecFile, Table, to_param};
use super::{Axis, SpecError, param_from_text};
use crate::systems::{self, ParamValue, RuleSet, Scenario, did_you_mean};
use std::collections::BTreeMap;
use toml::Spanned;

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

/// A parameter the spec gives, with its line.
#[derive(Clone)]
pub(super) struct Given {
    /// Parameter name.
    pub name: String,
    /// Its value as written.
    pub value: ParamValue,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// Where the spec gives it, as errors name it (`base.bs`,
    /// `profile[0].bs`; an `[[attacker]]` entry's value as sweeps and
    /// expects address it, `nob.bs`).
    pub field: String,
}

/// One `[[profile]]`, checked.
pub(super) struct CheckedProfile {
    /// Its name (given, or `profile N`).
    pub name: String,
    /// Its own parameters (the name and variants aside).
    pub params: Vec<Given>,
    /// Its first parameter's line: where an error that no parameter of
    /// its own explains points.
    pub first_line: usize,
    /// The rule variants in force for it: the spec's, then its own, then
    /// the command line's.
    pub variants: Vec<(String, String)>,
}

/// A spec whose every part that can be checked without a model holds.
pub(super) struct CheckedSpec {
    /// Where it came from, for errors.
    pub file: SpecFile,
    /// Report name (a checked folder name).
    pub name: String,
    /// Title (the name when none is given).
    pub title: String,
    /// Rule set's name.
    pub system: String,
    /// Scenario's name.
    pub scenario: String,
    /// The rule set.
    pub rules: &'static RuleSet,
    /// The scenario's declaration.
    pub scenario_decl: &'static Scenario,
    /// Trials per cell and profile, within the limit.
    pub trials: u64,
    /// Seed of all random streams.
    pub seed: u64,
    /// Confidence level, in [0.5, 1).
    pub confidence: f64,
    /// Every rule variant of the rule set with the spec's value (then the
    /// command line's), defaults filled in.
    pub variants: Vec<(String, String)>,
    /// `[base]`.
    pub base: Vec<Given>,
    /// Sweep axes, values distinct.
    pub axes: Vec<Axis>,
    /// Each sweep axis's line.
    pub axis_lines: BTreeMap<String, usize>,
    /// Number of sweep cells (within the limit, as is cells x profiles).
    pub cells: usize,
    /// Profiles, names distinct.
    pub profiles: Vec<CheckedProfile>,
    /// `--variant` parameter overrides (not rule variants, not sweep axes).
    pub overrides: Vec<(String, ParamValue)>,
    /// `metrics = [...]`, checked against the models.
    pub metrics: Option<Spanned<Vec<String>>>,
    /// `[[chart]]`s, checked against the metrics.
    pub charts: Vec<Spanned<ChartToml>>,
    /// `[[expect]]`s, checked against the models.
    pub expects: Vec<Spanned<ExpectToml>>,
}

/// Checks `raw` with `overrides` (`NAME=VALUE` from the command line): a
/// rule variant's name sets that variant in every profile, any other name
/// overrides that parameter.
pub(super) fn check(
    raw: RawSpec,
    overrides: &[(String, String)],
) -> Result<CheckedSpec, SpecError> {
    let RawSpec { file, toml } = raw;
    // The name becomes a folder under --out that is replaced whole: check it
    // before anything else, so no name can reach outside --out.
    let name = report_name(&file, toml.name.as_ref())?;
    let system = toml.system.get_ref().clone();
    let scenario = toml.scenario.get_ref().clone();
    let rules = systems::rule_set(&system)
        .map_err(|e| file.error(file.line(&toml.system.span()), "system", e.message))?;
    let scenario_decl = rules
        .scenario(&scenario)
        .map_err(|e| file.error(file.line(&toml.scenario.span()), "scenario", e.message))?;
    let trials = check_trials(&file, &toml.trials)?;
    let confidence = check_confidence(&file, toml.confidence.as_ref())?;
    let variant_rules = VariantRules {
        rules,
        system: &system,
    };
    let mut variants = variant_rules.defaults();
    variant_rules.apply(
        &file,
        &mut variants,
        toml.variants
            .iter()
            .map(|(k, sp)| (k.clone(), sp.get_ref().clone(), file.line(&sp.span()))),
        "variants",
    )?;
    no_top_keys_in_tables(&file, &toml.sweep, &toml.base)?;
    let volley = systems::attackers::is_volley(&(scenario_decl.params)());
    let mut base = given_params(
        &file,
        &dotted(&file, &toml.base, volley, ("[base]", 0)),
        "base",
    )?;
    let entries = attacker_params(&file, &toml.attacker, &scenario, volley, &base)?;
    // one attacker's value given twice, in [base] and in its entry, would
    // leave one of them unread
    if let Some(g) = entries
        .iter()
        .find(|g| base.iter().any(|b| b.name == g.name))
    {
        return Err(file.error(
            g.line,
            &g.field,
            format!(
                "{} is given in [base] too: give it once, in its [[attacker]] entry",
                g.name
            ),
        ));
    }
    base.extend(entries);
    let sweep = dotted(&file, &toml.sweep, volley, ("[sweep]", 0));
    no_attackers_list(&file, volley, &sweep, "sweep")?;
    let (axes, axis_lines) = sweep_axes(&file, &sweep)?;
    let cells = count_cells(&file, &axes, &axis_lines, toml.profile.len())?;
    let mut profile_tables: Vec<Table> = Vec::new();
    for (i, t) in toml.profile.iter().enumerate() {
        let t = dotted(&file, t, volley, ("[[profile]]", i));
        no_attackers_list(&file, volley, &t, &format!("profile[{i}]"))?;
        profile_tables.push(t);
    }
    let mut charts = toml.chart;
    for c in &mut charts {
        c.get_mut().at = flat(std::mem::take(&mut c.get_mut().at));
    }
    let mut expects = toml.expect;
    for e in &mut expects {
        e.get_mut().cell = flat(std::mem::take(&mut e.get_mut().cell));
    }
    let mut profiles = check_profiles(
        &file,
        &variant_rules,
        &profile_tables,
        &variants,
        &axis_lines,
    )?;
    let overrides = apply_overrides(
        &file,
        &variant_rules,
        overrides,
        &axis_lines,
        &mut variants,
        &mut profiles,
    )?;
    let title = toml.title.unwrap_or_default();
    Ok(CheckedSpec {
        title: if title.is_empty() {
            name.clone()
        } else {
            title
        },
        name,
        system,
        scenario,
        rules,
        scenario_decl,
        trials,
        seed: toml.seed.unwrap_or(0),
        confidence,
        variants,
        base,
        axes,
        axis_lines,
        cells,
        profiles,
        overrides,
        metrics: toml.metrics,
        charts,
        expects,
        file,
    })
}

/// The report name: `name = "..."`, `stdin` for standard input, else the
/// file's stem.
fn report_name(file: &SpecFile, given: Option<&Spanned<String>>) -> Result<String, SpecError> {
    match given {
        Some(n) => {
            check_name(n.get_ref())
                .map_err(|e| file.error(file.line(&n.span()), "name", e.to_string()))?;
            Ok(n.get_ref().clone())
        }
        None if file.from_stdin => Ok("stdin".to_string()),
        None => {
            let stem = file
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            check_name(&stem).map_err(|m| {
                file.error(
                    0,
                    "name",
                    format!("the file name gives the report name, and {m}: set name = \"...\""),
                )
            })?;
            Ok(stem)
        }
    }
}

/// `trials`, from 1 to [`MAX_TRIALS`](crate::limits::MAX_TRIALS).
fn check_trials(file: &SpecFile, trials: &Spanned<i64>) -> Result<u64, SpecError> {
    let n = *trials.get_ref();
    if !(1..=crate::limits::MAX_TRIALS as i64).contains(&n) {
        return Err(file.error(
            file.line(&trials.span()),
            "trials",
            format!(
                "{n} is impossible: must be from 1 to {}",
                crate::limits::MAX_TRIALS
            ),
        ));
    }
    Ok(n as u64)
}

/// `confidence`, in [0.5, 1); 0.95 when not given.
fn check_confidence(file: &SpecFile, given: Option<&Spanned<f64>>) -> Result<f64, SpecError> {
    match given {
        Some(c) if !(0.5..1.0).contains(c.get_ref()) => Err(file.error(
            file.line(&c.span()),
            "confidence",
            format!("{} must be in [0.5, 1)", c.get_ref()),
        )),
        Some(c) => Ok(*c.get_ref()),
        None => Ok(0.95),
    }
}

/// Why a `name = value` does not set a rule variant (the message says
/// what would).
enum NotAVariant {
    /// No rule variant has this name.
    Name(String),
    /// The variant does not take this value.
    Value(String),
}

/// The rule set's variants, as the spec names the rule set.
struct VariantRules<'a> {
    rules: &'static RuleSet,
    system: &'a str,
}

impl VariantRules<'_> {
    /// Every variant at its default (its first value).
    fn defaults(&self) -> Vec<(String, String)> {
        self.rules
            .variants
            .iter()
            .map(|v| (v.name.to_string(), v.values[0].to_string()))
            .collect()
    }

    /// The value `value` gives variant `name`: the one place a variant
    /// setting is checked, whether `[variants]`, a profile's own
    /// `variants = { ... }` or `--variant NAME=VALUE` gives it.
    fn variant_value(&self, name: &str, value: &toml::Value) -> Result<&'static str, NotAVariant> {
        let variants = self.rules.variants;
        let Some(def) = variants.iter().find(|v| v.name == name) else {
            let known: Vec<&str> = variants.iter().map(|v| v.name).collect();
            let listed = if known.is_empty() {
                format!("rule set '{}' has no rule variants", self.system)
            } else {
                format!("known: {}", known.join(", "))
            };
            return Err(NotAVariant::Name(format!(
                "unknown rule variant '{name}' ({listed}){}",
                did_you_mean(name, known.iter().copied())
            )));
        };
        if let Some(chosen) = value
            .as_str()
            .and_then(|s| def.values.iter().find(|v| **v == s))
        {
            return Ok(chosen);
        }
        // a word shown as written, not as TOML quotes it
        let shown = value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string);
        Err(NotAVariant::Value(format!(
            "'{shown}' is not one of: {}{}",
            def.values.join(", "),
            did_you_mean(&shown, def.values.iter().copied())
        )))
    }

    /// Sets each `(name, value, line)` of `entries` in `list`; errors name
    /// the field `section.name`.
    fn apply(
        &self,
        file: &SpecFile,
        list: &mut [(String, String)],
        entries: impl IntoIterator<Item = (String, toml::Value, usize)>,
        section: &str,
    ) -> Result<(), SpecError> {
        for (name, value, line) in entries {
            match self.variant_value(&name, &value) {
                Ok(chosen) => set_variant(list, &name, chosen),
                Err(NotAVariant::Name(message) | NotAVariant::Value(message)) => {
                    return Err(file.error(line, &format!("{section}.{name}"), message));
                }
            }
        }
        Ok(())
    }
}

/// Sets variant `name` to `value` in `list`.
fn set_variant(list: &mut [(String, String)], name: &str, value: &str) {
    for entry in list.iter_mut().filter(|(n, _)| n == name) {
        entry.1 = value.to_string();
    }
}

/// `metrics = [...]` written after `[sweep]` (or `[base]`) belongs to that
/// table in TOML: say so rather than call it a parameter.
fn no_top_keys_in_tables(file: &SpecFile, sweep: &Table, base: &Table) -> Result<(), SpecError> {
    for (section, table) in [("sweep", sweep), ("base", base)] {
        for key in ["metrics", "title", "trials", "seed", "name", "confidence"] {
            if let Some(sp) = table.get(key) {
                return Err(file.error(
                    file.line(&sp.span()),
                    &format!("{section}.{key}"),
                    format!(
                        "`{key}` is inside [{section}] here: in TOML a key after a [table] header belongs to that table; move `{key} = ...` above the first [table] header"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// `table` with one attacker's values written as TOML dotted keys
/// (`boyz.count = 6`, a table `boyz` in TOML) as the parameters they name
/// (`boyz.count`), each at its own line within the table `header` (its
/// `n`th, for an array of tables); only for a volley scenario, where such
/// names mean something (elsewhere a table stays an error).
fn dotted(file: &SpecFile, table: &Table, volley: bool, header: (&str, usize)) -> Table {
    if !volley {
        return table.clone();
    }
    let mut out = Table::new();
    for (k, sp) in table {
        match sp.get_ref() {
            toml::Value::Table(inner) if k != "variants" => {
                for (ik, v) in inner {
                    let name = format!("{k}.{ik}");
                    let span =
                        dotted_key_span(&file.text, header, &name).unwrap_or_else(|| sp.span());
                    out.insert(name, Spanned::new(span, v.clone()));
                }
            }
            _ => {
                out.insert(k.clone(), sp.clone());
            }
        }
    }
    out
}

/// A `cell` or `at` table with dotted keys (`cell = { boyz.count = 1 }`,
/// nested in TOML) flattened to the names they address (`boyz.count`).
fn flat(table: toml::Table) -> toml::Table {
    let mut out = toml::Table::new();
    for (k, v) in table {
        match v {
            toml::Value::Table(inner) => {
                for (ik, iv) in inner {
                    out.insert(format!("{k}.{ik}"), iv);
                }
            }
            v => {
                out.insert(k, v);
            }
        }
    }
    out
}

/// Where the line setting dotted key `name` (`boyz.count = ...`, with any
/// spaces around the dot) starts in `text`, looked for only inside the
/// table `header` opens (its `n`th, for an array of tables), for its error
/// line.
fn dotted_key_span(
    text: &str,
    (header, n): (&str, usize),
    name: &str,
) -> Option<std::ops::Range<usize>> {
    let mut offset = 0;
    let mut seen = 0;
    let mut inside = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            inside = trimmed == header && seen == n;
            if trimmed == header {
                seen += 1;
            }
        } else if inside {
            let key: String = line
                .split('=')
                .next()
                .unwrap_or("")
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '"')
                .collect();
            if line.contains('=') && key == name {
                return Some(offset..offset + line.len());
            }
        }
        offset += line.len();
    }
    None
}

/// A volley's attackers are listed by its `[[attacker]]` entries alone:
/// `attackers` in a profile or the sweep is refused at its line.
fn no_attackers_list(
    file: &SpecFile,
    volley: bool,
    table: &Table,
    section: &str,
) -> Result<(), SpecError> {
    match table.get(systems::attackers::ATTACKERS) {
        Some(sp) if volley => Err(file.error(
            file.line(&sp.span()),
            &format!("{section}.{}", systems::attackers::ATTACKERS),
            "the attackers are listed by their [[attacker]] entries, not in a profile or the sweep"
                .into(),
        )),
        _ => Ok(()),
    }
}

/// The parameters `[[attacker]]` entries give, as a volley's parameters
/// are named: `attackers` listing the names in order, and each entry's
/// values as `<name>.<parameter>`. A name is required, plain and used
/// once; entries belong only to a volley scenario.
fn attacker_params(
    file: &SpecFile,
    entries: &[Spanned<Table>],
    scenario: &str,
    volley: bool,
    base: &[Given],
) -> Result<Vec<Given>, SpecError> {
    use systems::attackers::{ATTACKERS, MAX_ATTACKERS, check_name};
    if let Some(g) = base.iter().find(|g| volley && g.name == ATTACKERS) {
        return Err(file.error(
            g.line,
            &format!("base.{ATTACKERS}"),
            "the attackers are listed by their [[attacker]] entries, not in [base]".into(),
        ));
    }
    let Some(first) = entries.first() else {
        return Ok(Vec::new());
    };
    if !volley {
        return Err(file.error(
            file.line(&first.span()),
            "attacker[0]",
            format!(
                "scenario '{scenario}' has one attacker, set in [base] and profiles: [[attacker]] entries are for a volley scenario (`krunch list` names them)"
            ),
        ));
    }
    if entries.len() > MAX_ATTACKERS {
        return Err(file.error(
            file.line(&entries[MAX_ATTACKERS].span()),
            &format!("attacker[{MAX_ATTACKERS}]"),
            format!(
                "{} [[attacker]] entries: at most {MAX_ATTACKERS} kinds fire in one volley (give a kind a count instead)",
                entries.len()
            ),
        ));
    }
    let mut names: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let table = dotted(file, entry.get_ref(), true, ("[[attacker]]", i));
        let entry_line = file.line(&entry.span());
        let Some(name_sp) = table.get("name") else {
            return Err(file.error(
                entry_line,
                &format!("attacker[{i}].name"),
                "missing: set name = \"...\" (what its parameters are called: name = \"boyz\" gives boyz.count, boyz.bs)".into(),
            ));
        };
        let name_line = file.line(&name_sp.span());
        let Some(name) = name_sp.get_ref().as_str() else {
            return Err(file.error(
                name_line,
                &format!("attacker[{i}].name"),
                "expected a word such as \"boyz\"".into(),
            ));
        };
        check_name(name).map_err(|m| file.error(name_line, &format!("attacker[{i}].name"), m))?;
        if let Some(j) = names.iter().position(|n| n == name) {
            return Err(file.error(
                name_line,
                &format!("attacker[{i}].name"),
                format!(
                    "attacker '{name}' is named twice (attacker[{j}] too): give each its own name"
                ),
            ));
        }
        names.push(name.to_string());
        let mut rest = table.clone();
        rest.remove("name");
        for g in given_params(file, &rest, &format!("attacker[{i}]"))? {
            // named as a sweep or expect names it, at its entry's line
            out.push(Given {
                name: format!("{name}.{}", g.name),
                value: g.value,
                line: g.line,
                field: format!("{name}.{}", g.name),
            });
        }
    }
    out.insert(
        0,
        Given {
            name: ATTACKERS.to_string(),
            value: ParamValue::Str(names.join(",")),
            line: file.line(&first.span()),
            field: "attacker".to_string(),
        },
    );
    Ok(out)
}

/// The parameters of a `[base]` or profile table, with their lines.
fn given_params(file: &SpecFile, table: &Table, section: &str) -> Result<Vec<Given>, SpecError> {
    table
        .iter()
        .map(|(k, sp)| {
            let value = to_param(sp.get_ref()).ok_or_else(|| {
                let message = match sp.get_ref() {
                    toml::Value::Table(_) if section.starts_with("profile") => format!(
                        "a table is not a parameter value{}",
                        did_you_mean(k, ["variants"])
                    ),
                    toml::Value::Table(_) => {
                        "a table is not a parameter value (rule variants go in [variants])"
                            .to_string()
                    }
                    _ => "expected a number, word or true/false".to_string(),
                };
                file.error(file.line(&sp.span()), &format!("{section}.{k}"), message)
            })?;
            Ok(Given {
                name: k.clone(),
                value,
                line: file.line(&sp.span()),
                field: format!("{section}.{k}"),
            })
        })
        .collect()
}

/// The `[sweep]` axes (each a non-empty list of distinct values) and the
/// line of each.
fn sweep_axes(
    file: &SpecFile,
    sweep: &Table,
) -> Result<(Vec<Axis>, BTreeMap<String, usize>), SpecError> {
    let mut axes = Vec::new();
    let mut axis_lines = BTreeMap::new();
    for (k, sp) in sweep {
        let line = file.line(&sp.span());
        let values = match sp.get_ref() {
            toml::Value::Array(a) if !a.is_empty() => a
                .iter()
                .map(to_param)
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    file.error(
                        line,
                        &format!("sweep.{k}"),
                        "values must be numbers, words or flags".into(),
                    )
                })?,
            _ => {
                return Err(file.error(
                    line,
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
            return Err(file.error(
                line,
                &format!("sweep.{k}"),
                format!(
                    "{v} is listed twice (values {} and {}): each value once",
                    values.iter().position(|w| w == v).unwrap_or(0) + 1,
                    i + 1
                ),
            ));
        }
        axis_lines.insert(k.clone(), line);
        axes.push(Axis {
            name: k.clone(),
            values,
        });
    }
    Ok((axes, axis_lines))
}

/// The number of sweep cells, within [`MAX_CELLS`], with at least one
/// profile and at most [`MAX_MODELS`] models in all.
///
/// [`MAX_CELLS`]: crate::limits::MAX_CELLS
/// [`MAX_MODELS`]: crate::limits::MAX_MODELS
fn count_cells(
    file: &SpecFile,
    axes: &[Axis],
    axis_lines: &BTreeMap<String, usize>,
    profiles: usize,
) -> Result<usize, SpecError> {
    let sweep_line = axis_lines.values().copied().min().unwrap_or(0);
    let cells = axes
        .iter()
        .try_fold(1usize, |n, a| n.checked_mul(a.values.len()))
        .filter(|&n| n <= crate::limits::MAX_CELLS)
        .ok_or_else(|| {
            let product: f64 = axes.iter().map(|a| a.values.len() as f64).product();
            file.error(
                sweep_line,
                "sweep",
                format!(
                    "{product:.0} sweep cells is more than the {} allowed: sweep fewer values, or split the spec",
                    crate::limits::MAX_CELLS
                ),
            )
        })?;
    if profiles == 0 {
        return Err(file.error(0, "profile", "at least one [[profile]] is needed".into()));
    }
    if cells.saturating_mul(profiles) > crate::limits::MAX_MODELS {
        return Err(file.error(
            sweep_line,
            "sweep",
            format!(
                "{cells} sweep cells x {profiles} profiles = {} models, more than the {} allowed: sweep fewer values or split the profiles over several specs",
                cells.saturating_mul(profiles),
                crate::limits::MAX_MODELS
            ),
        ));
    }
    Ok(cells)
}

/// Each `[[profile]]`: its own variants over the spec's `variants`, its
/// parameters, a name of 1 to [`MAX_NAME_LEN`] bytes used once, and no
/// parameter the sweep also sets.
fn check_profiles(
    file: &SpecFile,
    variant_rules: &VariantRules,
    tables: &[Table],
    variants: &[(String, String)],
    axis_lines: &BTreeMap<String, usize>,
) -> Result<Vec<CheckedProfile>, SpecError> {
    let mut profiles: Vec<CheckedProfile> = Vec::new();
    for (i, table) in tables.iter().enumerate() {
        let mut table = table.clone();
        let mut own_variants = variants.to_vec();
        if let Some(sp) = table.remove("variants") {
            let line = file.line(&sp.span());
            let toml::Value::Table(entries) = sp.into_inner() else {
                return Err(file.error(
                    line,
                    &format!("profile[{i}].variants"),
                    "expected a table such as { overwatch = \"original\" }".into(),
                ));
            };
            variant_rules.apply(
                file,
                &mut own_variants,
                entries.into_iter().map(|(k, v)| (k, v, line)),
                &format!("profile[{i}].variants"),
            )?;
        }
        let mut params = given_params(file, &table, &format!("profile[{i}]"))?;
        let (name, name_line) = match params.iter().position(|p| p.name == "name") {
            Some(pos) => {
                let given = params.remove(pos);
                (given.value.to_string(), given.line)
            }
            None => (format!("profile {}", i + 1), 0),
        };
        if name.is_empty() || name.len() > MAX_NAME_LEN {
            return Err(file.error(
                name_line,
                &format!("profile[{i}].name"),
                format!(
                    "a profile name has 1 to {MAX_NAME_LEN} bytes, not {}",
                    name.len()
                ),
            ));
        }
        if profiles.iter().any(|p| p.name == name) {
            return Err(file.error(
                name_line,
                &format!("profile[{i}].name"),
                format!("profile name '{name}' is used twice"),
            ));
        }
        // a sweep over the same field would replace the profile's own
        // value in every cell, silently
        if let Some(p) = params.iter().find(|p| axis_lines.contains_key(&p.name)) {
            let k = &p.name;
            return Err(file.error(
                p.line,
                &format!("profile[{i}].{k}"),
                format!(
                    "profile '{name}' sets {k} = {}, but [sweep] sweeps {k} (line {}), which would replace it in every cell: remove one of the two",
                    p.value,
                    axis_lines.get(k).copied().unwrap_or(0)
                ),
            ));
        }
        profiles.push(CheckedProfile {
            first_line: params.iter().map(|p| p.line).min().unwrap_or(0),
            name,
            params,
            variants: own_variants,
        });
    }
    Ok(profiles)
}

/// Applies `--variant NAME=VALUE`s: a rule variant's name sets it for the
/// spec and every profile; a sweep axis is an error; any other name is a
/// parameter override, returned.
fn apply_overrides(
    file: &SpecFile,
    variant_rules: &VariantRules,
    overrides: &[(String, String)],
    axis_lines: &BTreeMap<String, usize>,
    variants: &mut [(String, String)],
    profiles: &mut [CheckedProfile],
) -> Result<Vec<(String, ParamValue)>, SpecError> {
    let mut param_overrides = Vec::new();
    for (i, (name, value)) in overrides.iter().enumerate() {
        let field = format!("--variant {name}");
        // the last would win, silently
        if let Some((_, first)) = overrides[..i].iter().find(|(n, _)| n == name) {
            return Err(file.error(
                0,
                &field,
                format!("given twice ({name}={first}, then {name}={value}): give each once"),
            ));
        }
        match variant_rules.variant_value(name, &toml::Value::String(value.clone())) {
            Ok(chosen) => {
                for list in profiles
                    .iter_mut()
                    .map(|p| &mut p.variants[..])
                    .chain([&mut variants[..]])
                {
                    set_variant(list, name, chosen);
                }
            }
            Err(NotAVariant::Value(message)) => return Err(file.error(0, &field, message)),
            Err(NotAVariant::Name(_)) if axis_lines.contains_key(name) => {
                return Err(file.error(
                    0,
                    &field,
                    format!("'{name}' is a sweep axis of this spec: change the sweep instead"),
                ));
            }
            Err(NotAVariant::Name(_)) => {
                param_overrides.push((name.clone(), param_from_text(value)));
            }
        }
    }
    Ok(param_overrides)
}

#[cfg(test)]
mod tests {
    use crate::experiment::testing::{fire, scratch};
    use crate::experiment::{SpecError, load_with};

    /// Loads `text` as a spec with `overrides` and returns its error.
    fn refused(name: &str, text: &str, overrides: &[(String, String)]) -> SpecError {
        let path = scratch(name).join(format!("{name}.toml"));
        std::fs::write(&path, text).unwrap();
        match load_with(&path, overrides) {
            Ok(_) => panic!("{name}: loaded"),
            Err(e) => e,
        }
    }

    #[test]
    fn a_variant_value_is_refused_in_the_same_words_wherever_it_is_set() {
        // GCE's `overwatch` takes `current` or `original` (gce/mod.rs)
        let expected = "'curent' is not one of: current, original (did you mean 'current'?)";
        let spec = fire(100);
        let in_spec = refused(
            "variant-in-spec",
            &spec.replace("[base]", "[variants]\noverwatch = \"curent\"\n\n[base]"),
            &[],
        );
        let in_profile = refused(
            "variant-in-profile",
            &spec.replace(
                "name = \"on fire\"\n",
                "name = \"on fire\"\nvariants = { overwatch = \"curent\" }\n",
            ),
            &[],
        );
        let on_command_line = refused(
            "variant-on-command-line",
            &spec,
            &[("overwatch".to_string(), "curent".to_string())],
        );
        for (e, field) in [
            (&in_spec, "variants.overwatch"),
            (&in_profile, "profile[0].variants.overwatch"),
            (&on_command_line, "--variant overwatch"),
        ] {
            assert_eq!((e.field.as_str(), e.message.as_str()), (field, expected));
        }
    }
}
