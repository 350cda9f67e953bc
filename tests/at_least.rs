//! "At least k" curves (issue 26, item 1): every distribution family
//! `X={k}` also gives `X>={k}`, exact from its tail sums and estimated with
//! a binomial interval; reports show the family as one table and one
//! chart; `[[expect]]` and `check` take the new metrics; the same spec and
//! seed give the same bytes on any thread count and from shards.

use krunch::experiment::{self, Row, significance};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// An 'Eavy Shoota on full auto at BS 2 and 4, all metrics (so every
/// `hits=k` member up to six hits), plus a single shot.
const SHOOTING: &str = r#"title = "at least"
system = "gce"
scenario = "shooting"
trials = 200000
seed = 3

[base]
weapon = "eavy_shoota"
short_range = 18
long_range = 36
short_hit = 0
long_hit = 0
strength = 4
damage = "1"
ammo = "4"
range = 12
toughness = 4
wounds = 1
save = 5
target_ws = 3
target_bs = 3

[[profile]]
name = "single"
fire_mode = "single"

[[profile]]
name = "full auto"
fire_mode = "full_auto"

[sweep]
bs = [2, 4]
"#;

/// GCE's fire: turns until it is out, with the leftover `turns>6`.
const FIRE: &str = r#"title = "fire"
system = "gce"
scenario = "fire"
trials = 200000
seed = 5

[base]
wounds = 1
toughness = 4
target_ws = 3
target_bs = 3

[[profile]]
name = "on fire"

[sweep]
helpers = [0, 2]
"#;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-atleast-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_spec(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

fn krunch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_krunch"))
        .args(args)
        .output()
        .expect("krunch runs")
}

/// Each `>=` row's exact value is the sum of the family's members from k
/// up (and the leftover beyond the last shown), and its Monte Carlo
/// estimate agrees with it (exact binomial test, Bonferroni over every
/// tail at a 1e-3 chance of a false alarm; fixed seeds).
#[test]
fn at_least_is_the_tail_sum_exactly_and_by_monte_carlo() {
    let dir = scratch("exact");
    let mut tails = 0;
    let mut checked: Vec<(f64, String)> = Vec::new();
    for (name, text, head, first) in [
        ("shooting", SHOOTING, "hits", "hits>=0"),
        ("fire", FIRE, "turns", "turns>=1"),
    ] {
        let exp = experiment::load(&write_spec(&dir, name, text)).unwrap();
        let results = experiment::run(&exp, &|_| {});
        let at: HashMap<(&str, usize, &str), &Row> = results
            .rows
            .iter()
            .map(|r| ((r.profile.as_str(), r.cell_index, r.metric.as_str()), r))
            .collect();
        for r in &results.rows {
            let Some(k) = r.metric.strip_prefix(&format!("{head}>=")) else {
                continue;
            };
            let k: i64 = k.parse().unwrap();
            let members: f64 = results
                .rows
                .iter()
                .filter(|m| m.profile == r.profile && m.cell_index == r.cell_index)
                .filter_map(|m| {
                    let (h, j) = m.metric.split_once('=')?;
                    let j: i64 = j.parse().ok()?;
                    (h == head && j >= k).then(|| m.exact.unwrap())
                })
                .sum();
            let beyond: f64 = results
                .rows
                .iter()
                .filter(|m| m.profile == r.profile && m.cell_index == r.cell_index)
                .filter(|m| m.metric.starts_with(&format!("{head}>")) && !m.metric.contains(">="))
                .map(|m| m.exact.unwrap())
                .sum();
            let exact = r.exact.expect("an exact tail");
            assert!(
                (exact - (members + beyond)).abs() < 1e-12,
                "{} {} {}: {exact} vs {}",
                r.profile,
                r.cell_index,
                r.metric,
                members + beyond
            );
            let count = (r.value * r.trials as f64).round() as u64;
            checked.push((
                significance::binomial_exact_p(count, r.trials, exact),
                format!("{name} {} cell {} {}", r.profile, r.cell_index, r.metric),
            ));
            assert!(r.ci_low <= r.value && r.value <= r.ci_high);
            tails += 1;
        }
        // P(at least the first value) is every trial
        let first = at[&(exp.profiles[0].as_str(), 0, first)];
        assert_eq!((first.exact, first.value), (Some(1.0), 1.0));
    }
    assert!(tails > 20, "{tails} tails");
    let bound = 1e-3 / checked.len() as f64;
    for (p, what) in &checked {
        assert!(*p > bound, "{what}: p = {p:e} below {bound:e}");
    }
}

/// Every family taken for a distribution is one: at every test point of
/// every scenario, P(at least the first value) is at most 1 and the tails
/// never rise with k (a running total such as `broken_by_turn={k}` summed
/// as if its members were disjoint would pass 1).
#[test]
fn every_family_taken_for_a_distribution_is_one() {
    use krunch::systems::{ParamValue, Params, RULE_SETS, build};
    let mut families = 0;
    for r in RULE_SETS {
        for sc in r.scenarios {
            let catalogue = (sc.metrics)();
            for (i, point) in sc.test_points.iter().enumerate() {
                let mut p = Params::new();
                for (k, v) in point.iter() {
                    p.set(*k, ParamValue::from_text(v));
                }
                let model = build(r.name, sc.name, &p, &Params::new()).unwrap();
                let own = model.metrics().len();
                let model = experiment::at_least::with_at_least(model, &catalogue);
                let Some(exact) = model.exact() else { continue };
                let defs = model.metrics();
                let mut last: Option<(&str, f64)> = None;
                for (d, v) in defs[own..].iter().zip(&exact[own..]) {
                    let what = format!("{} {} point {i}: {} = {v}", r.name, sc.name, d.name);
                    assert!(*v <= 1.0 + 1e-9, "{what}");
                    if let Some((id, before)) = last.filter(|(id, _)| *id == d.declared_as) {
                        assert!(*v <= before + 1e-12, "{what} rises from {before} ({id})");
                    } else {
                        families += 1;
                    }
                    last = Some((d.declared_as, *v));
                }
            }
        }
    }
    assert!(families > 20, "{families} families");
}

/// The same spec and seed give the same data.csv on one thread and two,
/// and merged from shards, tails included.
#[test]
fn at_least_rows_do_not_depend_on_threads_or_shards() {
    let dir = scratch("threads");
    let spec = write_spec(&dir, "same", &SHOOTING.replace("200000", "150000"));
    let spec = spec.to_str().unwrap();
    let csv = |threads: &str| {
        let out = dir.join(format!("t{threads}"));
        let o = krunch(&[
            "run",
            spec,
            "-q",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(out.join("same/data.csv")).unwrap()
    };
    let one = csv("1");
    assert!(String::from_utf8_lossy(&one).contains(",hits>=2,"));
    assert_eq!(one, csv("2"), "one thread and two differ");
    let shards = dir.join("shards");
    for i in 1..=2 {
        let o = krunch(&[
            "run",
            spec,
            "-q",
            "--shard",
            &format!("{i}/2"),
            "--out",
            shards.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let merged = dir.join("merged");
    let files: Vec<String> = (1..=2)
        .map(|i| {
            shards
                .join(format!("same.shard-{i}-of-2.json"))
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let mut args = vec!["merge", spec, "-q", "--out", merged.to_str().unwrap()];
    args.extend(files.iter().map(String::as_str));
    let o = krunch(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(one, std::fs::read(merged.join("same/data.csv")).unwrap());
}

/// `[[expect]]` pins a tail like any metric: `check` passes the exact
/// value (and the Monte Carlo against it) and fails a wrong one.
#[test]
fn expect_and_check_take_at_least_metrics() {
    let dir = scratch("check");
    // full auto at BS 2: P(at least 2 hits) = 8/81 + ... from the exact run
    let exp = experiment::load(&write_spec(&dir, "probe", SHOOTING)).unwrap();
    let (p, c) = exp
        .locate_metric(
            Some("full auto"),
            &toml::from_str("bs = 2").unwrap(),
            "hits>=2",
        )
        .unwrap();
    let exact = experiment::exact_values(exp.models[c][p].as_ref()).unwrap();
    let mi = exp.models[c][p]
        .metrics()
        .iter()
        .position(|m| m.name == "hits>=2")
        .unwrap();
    let value = exact[mi];
    let pinned = |v: f64| {
        format!(
            "{SHOOTING}\n[[expect]]\nmetric = \"hits>=2\"\nprofile = \"full auto\"\ncell = {{ bs = 2 }}\nvalue = {v}\n"
        )
    };
    let good = write_spec(&dir, "good", &pinned(value));
    let good = good.to_str().unwrap();
    for extra in [None, Some("--monte-carlo")] {
        let mut args = vec!["check", good];
        args.extend(extra);
        let o = krunch(&args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{extra:?}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let bad = write_spec(&dir, "bad", &pinned(value + 0.05));
    let o = krunch(&["check", bad.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// A spec that lists `hits=k` gets `hits>=k` beside it; its report shows
/// the family as one section (k down, profiles across, then the median
/// and 90th percentile) and, with no charts asked for, a distribution
/// chart of it; a spec may ask for one by the family's name.
#[test]
fn reports_show_a_family_as_one_table_and_one_chart() {
    let dir = scratch("report");
    let listed = SHOOTING.replace(
        "seed = 3\n",
        "seed = 3\nmetrics = [\"p_hit\", \"hits=0\", \"hits=1\", \"hits=2\"]\n",
    );
    let exp = experiment::load(&write_spec(&dir, "listed", &listed)).unwrap();
    assert_eq!(
        exp.metrics,
        [
            "p_hit", "hits=0", "hits=1", "hits=2", "hits>=0", "hits>=1", "hits>=2"
        ]
    );
    assert_eq!(
        exp.charts
            .iter()
            .map(|c| format!("{c:?}"))
            .collect::<Vec<_>>(),
        [
            "Line { metric: \"p_hit\", x: \"bs\", by: None, at: [] }",
            "Distribution { family: \"hits\", metric: \"hits>=1\" }"
        ]
    );
    let asked = format!("{listed}\n[[chart]]\nkind = \"distribution\"\nmetric = \"hits={{k}}\"\n");
    let spec = write_spec(&dir, "asked", &asked);
    let out = dir.join("out");
    let o = krunch(&[
        "run",
        spec.to_str().unwrap(),
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = out.join("asked");
    for file in ["distribution_hits.svg", "distribution_hits.png"] {
        assert!(report.join(file).is_file(), "{file}");
    }
    let svg = std::fs::read_to_string(report.join("distribution_hits.svg")).unwrap();
    assert!(svg.contains("P(≥ k)"), "the chart says P(≥ k), not ids");
    assert!(!svg.contains("hits&gt;=") && !svg.contains("hits>="));
    let md = std::fs::read_to_string(report.join("summary.md")).unwrap();
    assert_eq!(md.matches("## P(k hits)").count(), 1, "one section");
    assert!(!md.contains("## P(at least"), "no section per member");
    assert!(md.contains("| k | single: P(= k) | single: P(≥ k) |"));
    // full auto at BS 4 hits at least twice more often than not
    assert!(md.contains("Median and 90th percentile"));
    let median_row = md
        .lines()
        .find(|l| l.starts_with("| 4 |") && l.contains("median"))
        .unwrap();
    assert!(median_row.contains("median 1 · 90th 1"), "{median_row}");
}

/// `krunch list` (text and JSON) and the rule reference name the derived
/// `X>={k}` of each family where a spec author looks for metrics, right
/// after the family's own members, and nothing for a scenario without a
/// family.
#[test]
fn list_and_the_rule_reference_name_the_at_least_metrics() {
    let o = krunch(&["list", "gce", "fire"]);
    let text = String::from_utf8_lossy(&o.stdout);
    let ids: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("  metrics:"))
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let at = |id: &str| ids.iter().position(|m| *m == id);
    assert!(at("turns={k}").is_some(), "{text}");
    assert!(at("turns>={k}") > at("turns={k}"), "{text}");
    assert!(text.contains("P(over after at least {k} turns)"), "{text}");
    let json =
        String::from_utf8_lossy(&krunch(&["list", "gce", "fire", "--format", "json"]).stdout)
            .to_string();
    assert!(json.contains("\"turns>={k}\""), "{json}");
    // a scenario of no family lists none
    let text = String::from_utf8_lossy(&krunch(&["list", "krygothic", "fear"]).stdout).to_string();
    assert!(!text.contains(">={k}"), "{text}");
    let reference = krunch::report::reference_markdown();
    assert!(
        reference.contains("| `turns>={k}` | P(over after at least {k} turns) | probability |")
    );
}
