//! Stage three of loading a spec: every model built from the checked spec
//! (one per sweep cell and profile), then what needs the models checked
//! against them: the metrics listed, the charts (or the default ones) and
//! the `[[expect]]` entries. The result is the [`Experiment`].

use super::checked::{CheckedProfile, CheckedSpec};
use super::raw::{ChartToml, ExpectToml, SpecFile, to_param};
use super::{ChartSpec, Expected, Experiment, Input, Source, SpecError};
use crate::experiment::at_least::{self, Listed};
use crate::experiment::quantiles::{QuantileOf, Tails};
use crate::systems::{self, ParamError, ParamValue, Params, did_you_mean};
use std::collections::BTreeMap;

/// Where each parameter of one model was given: its line and dotted field
/// (`base.bs`, `profile[1].weapon`, `--variant bs`, `sweep.helpers`).
type Lines = BTreeMap<String, (usize, String)>;

/// Builds the experiment `spec` describes.
pub(super) fn build(spec: CheckedSpec) -> Result<Experiment, SpecError> {
    let mut experiment = Experiment {
        name: spec.name.clone(),
        title: spec.title.clone(),
        file: spec.file.path.clone(),
        system: spec.system.clone(),
        scenario: spec.scenario.clone(),
        trials: spec.trials,
        seed: spec.seed,
        confidence: spec.confidence,
        variants: spec.variants.clone(),
        profile_variants: spec.profiles.iter().map(|p| p.variants.clone()).collect(),
        variants_read: Default::default(),
        profiles: spec.profiles.iter().map(|p| p.name.clone()).collect(),
        axes: spec.axes.clone(),
        metrics: Vec::new(),
        charts: Vec::new(),
        spec_hash: sha256_hex(spec.file.text.as_bytes()),
        overrides: spec.overrides.clone(),
        expectations: Vec::new(),
        models: Vec::with_capacity(spec.cells),
        notes: Vec::new(),
        base: spec
            .base
            .iter()
            .map(|g| (g.name.clone(), g.value.clone()))
            .collect(),
        inputs: Vec::new(),
    };
    build_models(&spec, &mut experiment)?;
    // every name must exist in some model (distribution rows such as
    // `hits=3` exist only where that many shots are possible)
    let mut available: Vec<String> = Vec::new();
    for m in experiment.models.iter().flatten().flat_map(|m| m.metrics()) {
        if !available.contains(&m.name) {
            available.push(m.name.clone());
        }
    }
    let chosen = chosen_metrics(&spec, &available)?;
    experiment.metrics = with_at_least_members(&chosen, &available);
    let families = at_least::listed(&experiment);
    let mut charts = Vec::new();
    for c in &spec.charts {
        charts.push(chart(
            &spec.file,
            &experiment,
            &families,
            spec.file.line(&c.span()),
            c.get_ref(),
        )?);
    }
    experiment.charts = charts;
    experiment.expectations = expectations(&spec, &experiment)?;
    if experiment.charts.is_empty() {
        experiment.charts = default_charts(&experiment, &families);
    }
    Ok(experiment)
}

/// Builds `models[cell][profile]`, and records the rule variants they
/// read, the parameters each profile ran on, and a note for each preset
/// stat the scenario does not read.
fn build_models(spec: &CheckedSpec, experiment: &mut Experiment) -> Result<(), SpecError> {
    let catalogue = (spec.scenario_decl.metrics)();
    let decls = (spec.scenario_decl.params)();
    let mut inputs: Vec<BTreeMap<String, Input>> = vec![BTreeMap::new(); spec.profiles.len()];
    for cell in 0..spec.cells {
        let values = experiment.cell_values(cell);
        let mut row = Vec::with_capacity(spec.profiles.len());
        for (pi, profile) in spec.profiles.iter().enumerate() {
            let (params, lines) = model_params(spec, experiment, pi, profile, &values);
            let mut variants = Params::new();
            for (k, v) in &profile.variants {
                variants.set(k, ParamValue::Str(v.clone()));
            }
            let model =
                systems::build(&spec.system, &spec.scenario, &params, &variants).map_err(|e| {
                    model_error(spec, experiment, (pi, profile), &values, &lines, &decls, e)
                })?;
            experiment.variants_read.extend(variants.names_read());
            let here = ran_on(spec.rules, &decls, &params, &lines);
            merge_inputs(&mut inputs[pi], here, cell == 0);
            if cell == 0 {
                for note in unread_stat_notes(spec, profile, &params, &lines) {
                    if !experiment.notes.contains(&note) {
                        experiment.notes.push(note);
                    }
                }
            }
            // every distribution family also gives its "at least k"
            row.push(at_least::with_at_least(model, &catalogue));
        }
        experiment.models.push(row);
    }
    experiment.inputs = inputs
        .into_iter()
        .map(|m| m.into_values().collect())
        .collect();
    Ok(())
}

/// The parameters of profile `pi` at the sweep cell of `values`: `[base]`,
/// then the profile's own, the command line's and the sweep's, each
/// replacing the one before; with where each was given.
fn model_params(
    spec: &CheckedSpec,
    experiment: &Experiment,
    pi: usize,
    profile: &CheckedProfile,
    values: &[ParamValue],
) -> (Params, Lines) {
    let mut params = Params::new();
    let mut lines = Lines::new();
    for g in &spec.base {
        params.set(&g.name, g.value.clone());
        lines.insert(g.name.clone(), (g.line, g.field.clone()));
    }
    for g in &profile.params {
        params.set(&g.name, g.value.clone());
        lines.insert(
            g.name.clone(),
            (g.line, format!("profile[{pi}].{}", g.name)),
        );
    }
    for (k, v) in &spec.overrides {
        params.set(k, v.clone());
        lines.insert(k.clone(), (0, format!("--variant {k}")));
    }
    for (axis, v) in experiment.axes.iter().zip(values) {
        params.set(&axis.name, v.clone());
        lines.insert(
            axis.name.clone(),
            (spec.axis_lines[&axis.name], format!("sweep.{}", axis.name)),
        );
    }
    (params, lines)
}

/// A model that would not build, as a spec error: at the line that gave
/// the parameter at fault, and naming the profile and sweep cell.
fn model_error(
    spec: &CheckedSpec,
    experiment: &Experiment,
    (pi, profile): (usize, &CheckedProfile),
    values: &[ParamValue],
    lines: &Lines,
    decls: &[systems::ParamDecl],
    e: ParamError,
) -> SpecError {
    let (line, field) = match lines.get(&e.field) {
        Some(found) => found.clone(),
        None => {
            // A missing parameter has no line of its own: point at the
            // preset that lacks it, or at the profile.
            let near = decls
                .iter()
                .find_map(|d| {
                    matches!(d.kind, systems::ParamKind::Preset { .. })
                        .then(|| lines.get(&d.name).map(|(l, _)| *l))
                        .flatten()
                })
                .unwrap_or(profile.first_line);
            (near, e.field.clone())
        }
    };
    let context = if values.is_empty() {
        format!("profile '{}'", experiment.profiles[pi])
    } else {
        let cell: Vec<String> = experiment
            .axes
            .iter()
            .zip(values)
            .map(|(a, v)| format!("{}={v}", a.name))
            .collect();
        format!(
            "profile '{}' at {}",
            experiment.profiles[pi],
            cell.join(", ")
        )
    };
    spec.file
        .error(line, &field, format!("{} ({context})", e.message))
}

/// Adds one cell's inputs `here` to a profile's inputs `seen`: a value
/// that differs between cells, or is set in some cells only (a swept
/// preset's stat), changes with the sweep (`None`).
fn merge_inputs(seen: &mut BTreeMap<String, Input>, here: Vec<Input>, first_cell: bool) {
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
            let value = if first_cell {
                input.value.clone()
            } else {
                None
            };
            seen.insert(input.name.clone(), Input { value, ..input });
        }
    }
}

/// A note for each preset whose stats the scenario does not read (they
/// are left out), naming the file, line and field that chose it.
fn unread_stat_notes(
    spec: &CheckedSpec,
    profile: &CheckedProfile,
    params: &Params,
    lines: &Lines,
) -> Vec<String> {
    let scenario = &spec.scenario;
    systems::registry::unread_preset_stats(&spec.system, scenario, params)
        .into_iter()
        .map(|(field, preset, unread)| {
            let (line, at) = lines
                .get(&field)
                .cloned()
                .unwrap_or((profile.first_line, field.clone()));
            format!(
                "{}:{line}: {at}: scenario '{scenario}' does not read {} of {field} '{preset}', so {} left out",
                spec.file.path.display(),
                unread.join(", "),
                if unread.len() == 1 {
                    "it is"
                } else {
                    "they are"
                }
            )
        })
        .collect()
}

/// `metrics = [...]` checked against the metrics the models report
/// (`available`): not empty, each once, each reported; all when not given.
fn chosen_metrics(spec: &CheckedSpec, available: &[String]) -> Result<Vec<String>, SpecError> {
    let file = &spec.file;
    let (system, scenario) = (&spec.system, &spec.scenario);
    match &spec.metrics {
        None => Ok(available.to_vec()),
        Some(list) if list.get_ref().is_empty() => Err(file.error(
            file.line(&list.span()),
            "metrics",
            "the list is empty: name at least one metric, or leave `metrics` out for all".into(),
        )),
        Some(list) => {
            let line = file.line(&list.span());
            let names = list.get_ref();
            if let Some((i, m)) = names
                .iter()
                .enumerate()
                .find(|(i, m)| names[..*i].contains(m))
            {
                return Err(file.error(
                    line,
                    "metrics",
                    format!(
                        "'{m}' is listed twice (entries {} and {}): each metric once",
                        names.iter().position(|n| n == m).unwrap_or(0) + 1,
                        i + 1
                    ),
                ));
            }
            for m in names {
                if !available.contains(m) {
                    return Err(file.error(
                        line,
                        "metrics",
                        format!(
                            "unknown metric '{m}'{} (`krunch list {system} {scenario}` lists the metrics)",
                            did_you_mean(m, available.iter().map(String::as_str))
                        ),
                    ));
                }
            }
            Ok(names.clone())
        }
    }
}

/// One `[[chart]]` (written at `line`) checked against the experiment's
/// metrics, axes and profiles, and its distribution `families`.
fn chart(
    file: &SpecFile,
    experiment: &Experiment,
    families: &[Listed],
    line: usize,
    c: &ChartToml,
) -> Result<ChartSpec, SpecError> {
    let err = |field: &str, message: String| file.error(line, field, message);
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
                &format!("chart.{field}"),
                "a distribution chart draws its family along k, a panel per sweep cell: it takes no `x`, `y`, `by` or `at`".into(),
            ));
        }
        let head = family_head(&c.metric);
        let Some(family) = families.iter().find(|f| f.head == head) else {
            let names: Vec<String> = families.iter().map(|f| f.id.to_string()).collect();
            return Err(err(
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
        return Ok(ChartSpec::Distribution {
            family: family.head.clone(),
            metric: family.headline(),
        });
    }
    if !experiment.metrics.contains(&c.metric) {
        return Err(err(
            "chart.metric",
            format!("metric '{}' is not among the spec's metrics", c.metric),
        ));
    }
    let axis = |a: &Option<String>, f: &str| -> Result<String, SpecError> {
        match a {
            Some(a) if experiment.axes.iter().any(|x| &x.name == a) => Ok(a.clone()),
            Some(a) => Err(err(f, format!("'{a}' is not a sweep axis"))),
            None => Err(err(f, "missing: name a sweep axis".into())),
        }
    };
    if c.kind != "line" && (c.by.is_some() || !c.at.is_empty()) {
        let field = if c.by.is_some() {
            "chart.by"
        } else {
            "chart.at"
        };
        return Err(err(
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
                    return Err(err("chart.by", format!("'{b}' is already the x axis")));
                }
                b => Some(axis(b, "chart.by")?),
            };
            let mut at = Vec::new();
            for (name, value) in &c.at {
                let Some(ai) = experiment.axes.iter().position(|a| &a.name == name) else {
                    return Err(err("chart.at", format!("'{name}' is not a sweep axis")));
                };
                if name == &x || by.as_ref() == Some(name) {
                    return Err(err(
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
                "chart.kind",
                format!("'{other}' is not one of: bar, line, heatmap, distribution"),
            ));
        }
    };
    Ok(chart)
}

/// The `[[expect]]` entries, each naming a profile, cell and metric the
/// experiment has, a tolerance in (0, 1e6) and a value the metric can have.
fn expectations(spec: &CheckedSpec, experiment: &Experiment) -> Result<Vec<Expected>, SpecError> {
    let file = &spec.file;
    let mut out = Vec::new();
    for e in &spec.expects {
        let line = file.line(&e.span());
        let e = e.get_ref();
        if let Some(q) = QuantileOf::parse(&e.metric) {
            out.push(quantile_expected(file, line, e, &q, experiment)?);
            continue;
        }
        let (profile, cell) = experiment
            .locate_metric(e.profile.as_deref(), &e.cell, &e.metric)
            .map_err(|e| file.error(line, &format!("expect.{}", e.field()), e.to_string()))?;
        if let Some(t) = e.tolerance.filter(|t| !(*t > 0.0 && *t < 1e6)) {
            return Err(file.error(
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
            .map_err(|e| file.error(line, "expect.value", e.to_string()))?;
        out.push(Expected {
            profile,
            cell,
            metric: e.metric.clone(),
            value: e.value,
            std_error: 0.0,
            tolerance: e.tolerance,
            source: format!("{}:{line}", file.path.display()),
        });
    }
    Ok(out)
}

/// An `[[expect]]` of a quantile (`metric = "median(hits)"`): the family
/// must be one the model there has, the value one of its `k`, whole, and
/// without a tolerance (a quantile is a value of `k`, matched or not).
fn quantile_expected(
    file: &SpecFile,
    line: usize,
    e: &ExpectToml,
    q: &QuantileOf,
    experiment: &Experiment,
) -> Result<Expected, SpecError> {
    let (profile, cell) = experiment
        .locate(e.profile.as_deref(), &e.cell)
        .map_err(|e| file.error(line, &format!("expect.{}", e.field()), e.to_string()))?;
    let metrics = experiment.models[cell][profile].metrics();
    let Some(tails) = Tails::of(metrics, &q.head) else {
        let mut heads: Vec<&str> = metrics
            .iter()
            .filter(|m| m.declared_as.ends_with(">={k}"))
            .filter_map(|m| m.declared_as.strip_suffix(">={k}"))
            .collect();
        heads.dedup();
        let known = if heads.is_empty() {
            "the scenario has no distribution family (a metric `X={k}`), so no quantile".to_string()
        } else {
            format!(
                "its families: {}",
                heads
                    .iter()
                    .map(|h| format!("'{h}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let hint = did_you_mean(&q.head, heads.iter().copied());
        return Err(file.error(
            line,
            "expect.metric",
            format!(
                "'{}' names no distribution family '{}'{hint}: {known}",
                e.metric, q.head
            ),
        ));
    };
    if e.tolerance.is_some() {
        return Err(file.error(
            line,
            "expect.tolerance",
            format!(
                "a quantile is a value of k, matched or not: '{}' takes no tolerance",
                e.metric
            ),
        ));
    }
    let ks = tails.ks();
    let (first, last) = (ks[0], ks[ks.len() - 1]);
    if e.value.fract() != 0.0 || e.value < first as f64 || e.value > last as f64 {
        return Err(file.error(
            line,
            "expect.value",
            format!(
                "{} is not a value '{}' takes here: the {} is a whole number from {first} to {last}",
                e.value,
                q.head,
                q.describe()
            ),
        ));
    }
    Ok(Expected {
        profile,
        cell,
        metric: e.metric.clone(),
        value: e.value,
        std_error: 0.0,
        tolerance: None,
        source: format!("{}:{line}", file.path.display()),
    })
}

/// The charts of a spec that asks for none: the first three metrics, and
/// each family (up to three) drawn whole as one distribution chart.
fn default_charts(experiment: &Experiment, families: &[Listed]) -> Vec<ChartSpec> {
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
    charts
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
            Some(f) if f.starts_with("profile[") => Source::Profile,
            // an [[attacker]] entry's value, given for every profile
            Some(_) => Source::Base,
            None => decls
                .iter()
                .find_map(|d| {
                    let systems::ParamKind::Preset { prefix, catalogue } = &d.kind else {
                        return None;
                    };
                    // an attacker's preset fills that attacker's stats
                    let (owner, preset_param) = match d.name.strip_prefix(systems::attackers::EACH)
                    {
                        Some(own) => {
                            let (who, _) = name.split_once('.')?;
                            (format!("{who}."), format!("{who}.{own}"))
                        }
                        None => (String::new(), d.name.clone()),
                    };
                    let stat = name.strip_prefix(&owner)?.strip_prefix(prefix.as_str())?;
                    let chosen = resolved.given(&preset_param)?.to_string();
                    rules
                        .presets_of(catalogue)
                        .any(|p| p.name == chosen && p.sets.iter().any(|(s, _)| *s == stat))
                        .then(|| Source::Preset {
                            param: preset_param.clone(),
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
    // a default each attacker takes is that attacker's (`boyz.coverage`)
    let attackers = systems::attackers::names_for(decls, given).unwrap_or_default();
    for d in decls {
        let names: Vec<String> = match d.name.strip_prefix(systems::attackers::EACH) {
            Some(own) => attackers.iter().map(|w| format!("{w}.{own}")).collect(),
            None => vec![d.name.clone()],
        };
        for name in names {
            if let systems::Need::Default(text) = d.need
                && !resolved.iter().any(|(n, _)| *n == name)
                && !lines.contains_key(&name)
            {
                let value = d
                    .check(&ParamValue::from_text(text))
                    .unwrap_or_else(|_| ParamValue::from_text(text));
                out.push(Input {
                    name,
                    value: Some(value),
                    source: Source::Default,
                });
            }
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
    use super::check_expected_value;
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
