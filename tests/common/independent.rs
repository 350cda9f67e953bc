//! Helpers for the `independent_*` tests: build a scenario, read one exact
//! metric by name, and enumerate raw dice. Nothing here imports rule code:
//! the values these tests compare against are derived by hand from the
//! seed texts or by brute force over plain dice in the test files.
#![allow(dead_code)]

use krunch::systems::{self, ParamValue, Params};

/// Exact comparisons against fractions.
pub const TOL: f64 = 1e-12;

/// One metric by name out of `exact_all`'s list, panicking with the names
/// there are when it is missing (a renamed metric fails loudly).
#[track_caller]
pub fn metric(all: &[(String, f64)], name: &str) -> f64 {
    all.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| *v)
        .unwrap_or_else(|| {
            let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
            panic!("no metric {name} among {names:?}")
        })
}

/// Builds `system scenario` at the given parameters (text values parsed as
/// the CLI and specs parse them) and returns every exact metric by name.
pub fn exact_all(system: &str, scenario: &str, pairs: &[(&str, &str)]) -> Vec<(String, f64)> {
    exact_all_with(system, scenario, pairs, &[])
}

/// As [`exact_all`], with rule variants.
pub fn exact_all_with(
    system: &str,
    scenario: &str,
    pairs: &[(&str, &str)],
    variants: &[(&str, &str)],
) -> Vec<(String, f64)> {
    let mut p = Params::new();
    for (k, v) in pairs {
        p.set(*k, ParamValue::from_text(v));
    }
    let mut var = Params::new();
    for (k, v) in variants {
        var.set(*k, ParamValue::from_text(v));
    }
    let model = systems::build(system, scenario, &p, &var)
        .unwrap_or_else(|e| panic!("{system} {scenario} {pairs:?}: {e}"));
    let exact = model
        .exact()
        .unwrap_or_else(|| panic!("{system} {scenario} {pairs:?}: no exact value"));
    model
        .metrics()
        .iter()
        .map(|m| m.name.clone())
        .zip(exact)
        .collect()
}

/// One exact metric by name.
pub fn exact(system: &str, scenario: &str, pairs: &[(&str, &str)], metric: &str) -> f64 {
    exact_with(system, scenario, pairs, &[], metric)
}

/// One exact metric by name, with rule variants.
pub fn exact_with(
    system: &str,
    scenario: &str,
    pairs: &[(&str, &str)],
    variants: &[(&str, &str)],
    metric: &str,
) -> f64 {
    let all = exact_all_with(system, scenario, pairs, variants);
    all.iter()
        .find(|(n, _)| n == metric)
        .map(|(_, v)| *v)
        .unwrap_or_else(|| {
            let names: Vec<_> = all.iter().map(|(n, _)| n.as_str()).collect();
            panic!("{system} {scenario} {pairs:?}: no metric {metric} in {names:?}")
        })
}

/// Asserts krunch's exact `metric` equals `want` to [`TOL`].
#[track_caller]
pub fn check(system: &str, scenario: &str, pairs: &[(&str, &str)], metric: &str, want: f64) {
    check_with(system, scenario, pairs, &[], metric, want)
}

/// As [`check`], with rule variants.
#[track_caller]
pub fn check_with(
    system: &str,
    scenario: &str,
    pairs: &[(&str, &str)],
    variants: &[(&str, &str)],
    metric: &str,
    want: f64,
) {
    let got = exact_with(system, scenario, pairs, variants, metric);
    assert!(
        (got - want).abs() < TOL,
        "{system} {scenario} {pairs:?} {variants:?} {metric}: krunch {got:.15}, derived {want:.15}"
    );
}

/// Every ordered roll of `n` dice with `sides` faces (each 1..=sides),
/// each with probability `sides^-n`.
pub fn rolls(n: usize, sides: u32) -> Vec<Vec<u32>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|r| {
                (1..=sides).map(move |f| {
                    let mut r = r.clone();
                    r.push(f);
                    r
                })
            })
            .collect();
    }
    out
}

/// P(`pred`) over every roll of `n` dice with `sides` faces.
pub fn prob(n: usize, sides: u32, pred: impl Fn(&[u32]) -> bool) -> f64 {
    let all = rolls(n, sides);
    let hits = all.iter().filter(|r| pred(r)).count();
    hits as f64 / all.len() as f64
}

/// E[`f`] over every roll of `n` dice with `sides` faces.
pub fn mean(n: usize, sides: u32, f: impl Fn(&[u32]) -> f64) -> f64 {
    let all = rolls(n, sides);
    all.iter().map(|r| f(r)).sum::<f64>() / all.len() as f64
}

/// P(sum of `n` D6 <= `target`) by counting.
pub fn p_sum_at_most(n: usize, target: i64) -> f64 {
    prob(n, 6, |r| r.iter().sum::<u32>() as i64 <= target)
}

/// Binomial coefficient as f64.
pub fn choose(n: u64, k: u64) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, j| acc * (n - j) as f64 / (j + 1) as f64)
}

/// P(Binomial(n, p) = k).
pub fn binom(n: u64, k: u64, p: f64) -> f64 {
    choose(n, k) * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

/// As [`check`] with an explicit tolerance, for evaluators that truncate
/// an unbounded chain (say why at the call).
#[track_caller]
pub fn check_tol(
    system: &str,
    scenario: &str,
    pairs: &[(&str, &str)],
    metric: &str,
    want: f64,
    tol: f64,
) {
    let got = exact(system, scenario, pairs, metric);
    assert!(
        (got - want).abs() < tol,
        "{system} {scenario} {pairs:?} {metric}: krunch {got:.15}, derived {want:.15} (tolerance {tol:e})"
    );
}

/// The text of seed `file` (`$KRUNCH_SEEDS/<file>` or `../shared/seeds`
/// beside the crate), or `None` with a printed note when it is missing;
/// under `CI=true` a missing seed fails instead.
pub fn seed_text(file: &str) -> Option<String> {
    let dir = std::env::var_os("KRUNCH_SEEDS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/seeds")
        });
    let path = dir.join(file);
    match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(e) => {
            let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
            assert!(
                !ci,
                "CI=true but the seed text {} is unreadable: {e}",
                path.display()
            );
            let why = format!(
                "the seed text {} is not here (set KRUNCH_SEEDS to check against it)",
                path.display()
            );
            eprintln!("skipped: {why}");
            record_skip(&why);
            None
        }
    }
}

/// Records a skipped test in the file `KRUNCH_SKIP_LOG` names (`make test`
/// lists them at the end, so a skip does not pass as a silent "ok"): the
/// test crate and name, and why.
pub fn record_skip(why: &str) {
    let Some(log) = std::env::var_os("KRUNCH_SKIP_LOG") else {
        return;
    };
    let name = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
    {
        use std::io::Write;
        let _ = writeln!(f, "{}::{name}: {why}", env!("CARGO_CRATE_NAME"));
    }
}

/// `text` with every run of whitespace (newlines included) as one space.
pub fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// GCE: two warriors at hand-to-hand (`gce hand_to_hand` and the scenarios
/// that share its parameters), A WS 3, 1 Attack, Initiative 3; B WS 2, 2
/// Attacks, Initiative 2; S3, T3, 1 Wound each, plus `extra`.
/// Both warriors fight with a double-handed S3 weapon (save modifier 0, 1
/// Damage), so their Attacks characteristic is their dice: "All Warriors
/// count as carrying a Knife ... If they carry another single-handed
/// Hand-to-Hand Combat Weapon that is enough to provide the bonus Attack
/// Dice"; "Uxolur ... carries a Demilune ... It’s a double-handed weapon
/// and so his Attacks characteristic shows how many Attack Dice he can
/// roll."
pub fn h2h<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v = vec![
        ("a_ws", "3"),
        ("a_bs", "10"),
        ("a_attacks", "1"),
        ("a_initiative", "3"),
        ("a_strength", "3"),
        ("a_toughness", "3"),
        ("a_wounds", "1"),
        ("a_weapons", "custom"),
        ("a_custom_strength", "3"),
        ("a_custom_save_mod", "0"),
        ("a_custom_damage", "1"),
        ("a_custom_double_handed", "true"),
        ("b_ws", "2"),
        ("b_bs", "10"),
        ("b_attacks", "2"),
        ("b_initiative", "2"),
        ("b_strength", "3"),
        ("b_toughness", "3"),
        ("b_wounds", "1"),
        ("b_weapons", "custom"),
        ("b_custom_strength", "3"),
        ("b_custom_save_mod", "0"),
        ("b_custom_damage", "1"),
        ("b_custom_double_handed", "true"),
    ];
    v.extend_from_slice(extra);
    v
}
