//! What a person reads in place of ids: metric labels from the registry
//! (`p_out_of_action` -> "P(out of action)"), axis titles from the
//! parameters' descriptions, and probabilities as percentages. The CSV
//! outputs keep the ids and raw numbers; everything else reads these.

use crate::experiment::Experiment;
use crate::systems::{MetricDef, MetricKind, ParamDecl, ParamKind, ParamValue, registry};

/// The metric `name` as the experiment's models declare it.
pub fn metric_def<'a>(exp: &'a Experiment, name: &str) -> Option<&'a MetricDef> {
    exp.models
        .iter()
        .flatten()
        .flat_map(|m| m.metrics())
        .find(|m| m.name == name)
}

/// The label of metric `name` (`P(out of action)`), or the id when the
/// registry has none.
pub fn metric_label(exp: &Experiment, name: &str) -> String {
    metric_def(exp, name)
        .map(|m| m.label.clone())
        .filter(|l| !l.is_empty())
        .unwrap_or_else(|| name.to_string())
}

/// A distribution family's label with `k` for its value (`P(k hits)`),
/// from the scenario's declaration (`P({k} hits)`), or `P(hits = k)`.
pub fn family_label(exp: &Experiment, id: &str, head: &str) -> String {
    registry::rule_set(&exp.system)
        .ok()
        .and_then(|rules| rules.scenario(&exp.scenario).ok())
        .and_then(|sc| (sc.metrics)().into_iter().find(|d| d.id == id))
        .map(|d| d.label.replace("{k}", "k"))
        .unwrap_or_else(|| format!("P({} = k)", head.replace('_', " ")))
}

/// Whether metric `name` is a probability (shown as a percentage).
pub fn is_probability(exp: &Experiment, name: &str) -> bool {
    metric_def(exp, name).is_some_and(|m| m.kind == MetricKind::Probability)
}

/// A value of metric `name` as a person reads it: a probability as a
/// percentage (`66.7%`), a mean with three decimals.
pub fn value_text(exp: &Experiment, name: &str, v: f64) -> String {
    if is_probability(exp, name) {
        percent(v, 1)
    } else {
        format!("{v:.3}")
    }
}

/// A value of metric `name` for detailed tables (one more decimal).
pub fn value_text_fine(exp: &Experiment, name: &str, v: f64) -> String {
    if is_probability(exp, name) {
        percent(v, 2)
    } else {
        format!("{v:.4}")
    }
}

/// A probability as a percentage with `decimals` decimals; more where that
/// would round a small or near-certain chance to 0% or 100%.
pub fn percent(p: f64, decimals: usize) -> String {
    let x = p * 100.0;
    // certain and impossible events, give or take float rounding
    // (an exact sum can be 0.9999999999999998)
    if p.abs() < 1e-12 || (p - 1.0).abs() < 1e-12 || !x.is_finite() {
        return format!("{:.0}%", x.round());
    }
    let mut d = decimals;
    // 0.04% must not read 0.0%, nor 99.96% read 100.0%
    while d < 4 && {
        let shown = format!("{x:.d$}").parse::<f64>().unwrap_or(x);
        shown == 0.0 || shown == 100.0
    } {
        d += 1;
    }
    let text = format!("{x:.d$}");
    match text.parse::<f64>() {
        Ok(0.0) => format!("< {:.d$}%", 0.1f64.powi(d as i32)),
        Ok(100.0) => format!("> {:.d$}%", 100.0 - 0.1f64.powi(d as i32)),
        _ => format!("{text}%"),
    }
}

/// A change of metric `name`: percentage points for a probability
/// (`−3.2 points`), a signed number for a mean.
pub fn change_text(exp: &Experiment, name: &str, d: f64) -> String {
    if is_probability(exp, name) {
        format!("{} points", signed(d * 100.0, 1))
    } else {
        signed(d, 3)
    }
}

/// A signed number with a real minus sign (`−3.2`, `+0.5`); one that
/// rounds to zero has no sign (`0.0`).
pub fn signed(x: f64, decimals: usize) -> String {
    let s = format!("{x:+.decimals$}");
    let digits = &s[1..];
    if !digits.chars().any(|c| c.is_ascii_digit() && c != '0') {
        digits.to_string()
    } else if s.starts_with('-') {
        format!("\u{2212}{digits}")
    } else {
        s
    }
}

/// The y-axis title of metric `name`: its label, with "(%)" for a
/// probability drawn on a percentage axis.
pub fn axis_metric_title(exp: &Experiment, name: &str) -> String {
    let label = metric_label(exp, name);
    if is_probability(exp, name) {
        format!("{label}, %")
    } else {
        label
    }
}

/// The registry's one-line description of parameter `name`, cut to its
/// first clause (`inches to the target`), or nothing.
fn param_about(exp: &Experiment, name: &str) -> Option<String> {
    let rules = registry::rule_set(&exp.system).ok()?;
    let scenario = rules.scenario(&exp.scenario).ok()?;
    let decls = (scenario.params)();
    let variants = rules.variant_decls();
    if let Some(decl) = decls.iter().chain(variants.iter()).find(|d| d.name == name) {
        return about_words(decl);
    }
    // one attacker's (`boyz.count`): what each attacker's means, by name
    let (who, own) = name.split_once('.')?;
    let each = format!("{}{own}", crate::systems::attackers::EACH);
    let decl = decls.iter().find(|d| d.name == each)?;
    about_words(decl).map(|about| format!("{who}: {about}"))
}

/// What a parameter is, from its about up to the first `;`, `:` or `(`.
fn about_words(decl: &ParamDecl) -> Option<String> {
    let about = &decl.about;
    let cut = about
        .find([';', ':', '('])
        .map_or(about.as_str(), |i| &about[..i])
        .trim()
        .trim_end_matches(',')
        .to_string();
    // an about that opens on its choices ("die: one D6 ...; keep: ...")
    // says what each value does, not what the parameter is
    let a_choice = matches!(decl.kind, ParamKind::Choice(words) if words.contains(&cut.as_str()));
    (!cut.is_empty() && cut.len() <= 60 && !a_choice).then_some(cut)
}

/// The title of sweep axis `name`: the parameter and what it means
/// (`range: inches to the target`), or the parameter alone.
pub fn axis_title(exp: &Experiment, name: &str) -> String {
    match param_about(exp, name) {
        Some(about) => format!("{name}: {about}"),
        None => name.to_string(),
    }
}

/// Sweep axis `name` in words for titles and legends: what the parameter
/// means (`the target's Toughness`), else its id with spaces.
pub fn axis_words(exp: &Experiment, name: &str) -> String {
    param_about(exp, name).unwrap_or_else(|| name.replace('_', " "))
}

/// One value of sweep axis `name` in words: `the target's Toughness: 3`.
pub fn axis_value_words(exp: &Experiment, name: &str, value: &ParamValue) -> String {
    format!("{}: {}", axis_words(exp, name), value_words(value))
}

/// A parameter value as a person reads it on a chart: a flag as `yes` or
/// `no` (not `true`/`false`), a choice with spaces (`head butt`, not
/// `head_butt`), numbers as they are.
pub fn value_words(value: &ParamValue) -> String {
    match value {
        ParamValue::Bool(true) => "yes".into(),
        ParamValue::Bool(false) => "no".into(),
        ParamValue::Str(s) => s.replace('_', " "),
        other => other.to_string(),
    }
}

/// A sweep cell as `range 6, cover partial` (`axis value` pairs).
pub fn cell_text(exp: &Experiment, cell: &[ParamValue]) -> String {
    exp.axes
        .iter()
        .zip(cell)
        .map(|(a, v)| format!("{} {v}", a.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What `krunch run` says when a report is written: the metrics in words
/// (the first four, then how many more), profiles, cells and the folder.
pub fn run_note(exp: &Experiment, rows: usize, dir: &std::path::Path) -> String {
    let metrics: Vec<String> = exp
        .metrics
        .iter()
        .take(4)
        .map(|m| metric_label(exp, m))
        .collect();
    let mut metrics = metrics.join(", ");
    if exp.metrics.len() > 4 {
        metrics.push_str(&format!(" and {} more", exp.metrics.len() - 4));
    }
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}: {} for {} over {} ({rows} rows) -> {}",
        exp.name,
        metrics,
        plural(exp.profiles.len(), "profile", "profiles"),
        plural(exp.models.len(), "sweep cell", "sweep cells"),
        dir.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parameter_whose_about_opens_on_its_choices_is_called_by_its_name() {
        let decls = (registry::rule_set("krygothic")
            .unwrap()
            .scenario("dice")
            .unwrap()
            .params)();
        let about = |name: &str| about_words(decls.iter().find(|d| d.name == name).unwrap());
        // "die: one D6 against the target; attribute: ..." names a value
        assert_eq!(about("check"), None);
        assert_eq!(about("target").as_deref(), Some("the target number"));
    }

    #[test]
    fn percentages_keep_small_chances_visible() {
        assert_eq!(percent(2.0 / 3.0, 1), "66.7%");
        assert_eq!(percent(0.0004, 1), "0.04%");
        assert_eq!(percent(0.99996, 1), "99.996%");
        assert_eq!(percent(0.0, 1), "0%");
        assert_eq!(percent(1.0, 1), "100%");
        assert_eq!(percent(0.9999999999999998, 1), "100%");
        assert_eq!(percent(1e-9, 1), "< 0.0001%");
        assert_eq!(percent(1.0 - 1e-9, 1), "> 99.9999%");
        assert_eq!(signed(-0.032 * 100.0, 1), "\u{2212}3.2");
        assert_eq!(signed(0.0, 1), "0.0");
        assert_eq!(signed(-0.00001, 1), "0.0");
        assert_eq!(signed(0.5, 3), "+0.500");
    }
}
