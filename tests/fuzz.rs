//! Bounded fuzzing at fixed seeds (issue 15): mutated bundled specs and
//! random dice expressions must never panic or crash, only succeed or be
//! refused (exit 0 or 2); every distribution `prob` gives sums to 1; and
//! `exact` and `roll` agree on every expression that evaluates, at the
//! 64-bit limits too.

use krunch::dice::{BatchedRoller, stats};
// what `prob` and `roll` read: the kernel's parser with the rule sets' named dice (`sf`)
use krunch::systems::named_dice::parse;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use std::cell::Cell;
use std::path::PathBuf;
use std::process::Command;

fn runner(cases: u32, seed: u64) -> TestRunner {
    TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        // shrinking re-runs cases; a failure is reported as found
        max_shrink_iters: 0,
        ..Config::default()
    })
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bundled_specs() -> Vec<(String, String)> {
    let mut specs: Vec<(String, String)> = std::fs::read_dir(root().join("experiments"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    specs.sort();
    specs
}

/// Pieces a mutation inserts: TOML syntax, odd values, and keys specs use.
const TOKENS: &[&str] = &[
    "=",
    "[",
    "]",
    "[[",
    "]]",
    "\"",
    "\n",
    ",",
    "{",
    "}",
    "#",
    ".",
    "-1",
    "0",
    "1e300",
    "nan",
    "inf",
    "-inf",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "\"\"",
    "\"..\"",
    "true",
    "[]",
    "[[profile]]",
    "[sweep]",
    "[base]",
    "[[expect]]",
    "[[chart]]",
    "name = \"\"",
    "name = \"..\"",
    "trials = 0",
    "metrics = []",
    "range = [1, 2, 3]",
    "value = -1",
    "weapon = \"kannon\"",
    "toughness = 99",
    "x = \"range\"",
    "kind = \"heatmap\"",
    "overwatch = \"original\"",
    "cell = { range = 3 }",
    "\u{0}",
    "é",
    "save = \"varies\"",
    "seed = -1",
    "profile = \"Nobody\"",
];

#[derive(Clone, Debug)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, usize),
    DuplicateLine(usize),
    DropLine(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1usize..20).prop_map(|(a, n)| Edit::Delete(a, n)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(a, t)| Edit::Insert(a, t)),
        any::<usize>().prop_map(Edit::DuplicateLine),
        any::<usize>().prop_map(Edit::DropLine),
    ]
}

fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut s = text.to_string();
    for e in edits {
        let at = |a: usize, s: &str| {
            let mut i = a % (s.len() + 1);
            while !s.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        match *e {
            Edit::Delete(a, n) => {
                let i = at(a, &s);
                let j = at(i + n, &s).max(i);
                s.replace_range(i..j, "");
            }
            Edit::Insert(a, t) => {
                let i = at(a, &s);
                s.insert_str(i, TOKENS[t]);
            }
            Edit::DuplicateLine(a) | Edit::DropLine(a) => {
                let mut lines: Vec<&str> = s.lines().collect();
                if lines.is_empty() {
                    continue;
                }
                let k = a % lines.len();
                if matches!(e, Edit::DuplicateLine(_)) {
                    lines.insert(k, lines[k]);
                } else {
                    lines.remove(k);
                }
                s = lines.join("\n");
            }
        }
    }
    s
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krunch-fuzz-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Loading a mutated spec gives a validated experiment or an error naming
/// the file; never a panic. In-process, so hundreds take well under a second.
#[test]
fn mutated_specs_load_or_are_refused() {
    let specs = bundled_specs();
    let dir = scratch("load");
    let outcomes = [Cell::new(0usize), Cell::new(0usize)];
    // refusals that name no key: only where the line has none (`= 3`)
    let unnamed = Cell::new(0usize);
    let strategy = (0..specs.len(), proptest::collection::vec(edit(), 1..6));
    runner(1500, 15)
        .run(&strategy, |(k, edits)| {
            let text = mutate(&specs[k].1, &edits);
            let path = dir.join(format!("{}.toml", specs[k].0));
            std::fs::write(&path, &text).unwrap();
            let loaded = std::panic::catch_unwind(|| krunch::experiment::load(&path));
            match loaded {
                Ok(Ok(_)) => outcomes[0].set(outcomes[0].get() + 1),
                Ok(Err(e)) => {
                    let msg = e.to_string();
                    prop_assert!(msg.starts_with(&path.display().to_string()), "{msg}");
                    prop_assert!(!e.field.is_empty(), "{msg}");
                    outcomes[1].set(outcomes[1].get() + 1);
                    if e.field == "toml" {
                        unnamed.set(unnamed.get() + 1);
                    }
                }
                Err(_) => prop_assert!(false, "panicked on:\n{text}"),
            }
            Ok(())
        })
        .unwrap();
    // the mutations reach both sides
    let (ok, refused) = (outcomes[0].get(), outcomes[1].get());
    assert!(ok > 50 && refused > 500, "{ok} loaded, {refused} refused");
    assert!(
        unnamed.get() * 100 < refused,
        "{} of {refused} refusals name no field",
        unnamed.get()
    );
    eprintln!(
        "{ok} loaded, {refused} refused, {} naming no field",
        unnamed.get()
    );
}

/// A few mutated specs through the binary end to end (with few trials):
/// exit 0 or 2, never 101 (panic) or 134 (abort).
#[test]
fn mutated_specs_run_or_exit_2() {
    let specs = bundled_specs();
    let dir = scratch("run");
    let out = dir.join("out");
    let strategy = (0..specs.len(), proptest::collection::vec(edit(), 1..4));
    runner(40, 16)
        .run(&strategy, |(k, edits)| {
            let text = mutate(&specs[k].1, &edits);
            let path = dir.join("spec.toml");
            std::fs::write(&path, &text).unwrap();
            let o = Command::new(env!("CARGO_BIN_EXE_krunch"))
                .args(["run", path.to_str().unwrap(), "--quiet", "--trials", "300"])
                .arg("--out")
                .arg(&out)
                .output()
                .unwrap();
            let code = o.status.code();
            prop_assert!(
                code == Some(0) || code == Some(2),
                "exit {code:?}: {}\n{text}",
                String::from_utf8_lossy(&o.stderr)
            );
            Ok(())
        })
        .unwrap();
}

/// Well-formed expressions, small enough to evaluate quickly, with
/// constants at the 64-bit limits.
fn expression() -> impl Strategy<Value = String> {
    let pool = (1u32..5, 2u32..9, 0u32..5, 0u32..4, 0u32..3).prop_map(
        |(count, sides, keep, explode, reroll)| {
            let mut s = format!("{count}d{sides}");
            if reroll == 1 {
                s += "r1";
            } else if reroll == 2 {
                s += "r<3";
            }
            if explode > 0 {
                s += &format!("!{explode}");
            }
            if keep > 0 && count > 1 {
                let k = 1 + keep % count;
                s += &if keep % 2 == 0 {
                    format!("k{k}")
                } else {
                    format!("kl{k}")
                };
            }
            s
        },
    );
    let leaf = prop_oneof![
        4 => pool,
        2 => (0i64..20).prop_map(|n| n.to_string()),
        1 => prop_oneof![
            Just(i64::MAX),
            Just(i64::MAX - 1),
            Just(i64::MAX - 40),
            Just(1i64 << 62),
            Just(3_037_000_499),
        ]
        .prop_map(|n| n.to_string()),
        1 => prop_oneof![Just("sf"), Just("df"), Just("d{-2,0,0,5}"), Just("3sf")]
            .prop_map(String::from),
        1 => (
            1u32..5,
            prop_oneof![Just("d6"), Just("d{1,1,2}"), Just("df"), Just("sf")],
            prop_oneof![Just("<="), Just(">="), Just("<"), Just(">"), Just("=="), Just("!=")],
            -2i64..8,
        )
            .prop_map(|(n, die, c, k)| format!("count({n}{die}{c}{k})")),
    ];
    let sum = leaf.prop_recursive(3, 8, 2, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop_oneof![Just("+"), Just("-"), Just("*")],
                inner.clone()
            )
                .prop_map(|(a, o, b)| format!("{a}{o}{b}")),
            inner.clone().prop_map(|a| format!("({a})")),
            inner.prop_map(|a| format!("-{a}")),
        ]
    });
    (
        sum.clone(),
        prop_oneof![
            Just(""),
            Just("<="),
            Just(">="),
            Just("<"),
            Just(">"),
            Just("=="),
            Just("!=")
        ],
        sum,
    )
        .prop_map(|(a, c, b)| {
            if c.is_empty() {
                a
            } else {
                format!("{a}{c}{b}")
            }
        })
}

/// Anything at all from the expression alphabet.
fn noise() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("d"),
            Just("6"),
            Just("1"),
            Just("0"),
            Just("9"),
            Just("{"),
            Just("}"),
            Just(","),
            Just("("),
            Just(")"),
            Just("+"),
            Just("-"),
            Just("*"),
            Just("<"),
            Just(">"),
            Just("="),
            Just("!"),
            Just("k"),
            Just("h"),
            Just("l"),
            Just("r"),
            Just("sf"),
            Just("df"),
            Just("count("),
            Just("x"),
            Just(" "),
            Just("9223372036854775807"),
            Just("1000"),
            Just("é"),
        ],
        0..30,
    )
    .prop_map(|v| v.concat())
}

fn sums_to_one(text: &str) -> Result<bool, TestCaseError> {
    let Ok(e) = std::panic::catch_unwind(|| parse(text)) else {
        return Err(TestCaseError::fail(format!("parse panicked: {text}")));
    };
    let Ok(e) = e else { return Ok(false) };
    let Ok(d) = std::panic::catch_unwind(|| e.exact()) else {
        return Err(TestCaseError::fail(format!("exact panicked: {text}")));
    };
    let Ok(d) = d else { return Ok(false) };
    let total: f64 = d.iter().map(|(_, p)| p).sum();
    prop_assert!(d.iter().all(|(_, p)| p.is_finite() && p >= 0.0), "{text}");
    prop_assert!((total - 1.0).abs() < 1e-9, "{text}: sums to {total}");
    let (lo, hi) = e.bounds();
    prop_assert!(
        i128::from(d.min_value()) >= lo && i128::from(d.max_value()) <= hi,
        "{text}: outside its bounds"
    );
    Ok(true)
}

#[test]
fn random_expressions_never_panic_and_sum_to_one() {
    let evaluated = Cell::new(0usize);
    runner(3000, 17)
        .run(&prop_oneof![expression(), noise()], |text| {
            evaluated.set(evaluated.get() + usize::from(sums_to_one(&text)?));
            Ok(())
        })
        .unwrap();
    assert!(evaluated.get() > 1000, "only {} evaluated", evaluated.get());
}

/// The same through the binary: `prob --format json` exits 0 or 2, and its
/// outcomes sum to 1.
#[test]
fn prob_binary_exits_0_or_2_and_sums_to_one() {
    runner(40, 18)
        .run(&prop_oneof![expression(), noise()], |text| {
            let o = Command::new(env!("CARGO_BIN_EXE_krunch"))
                .args(["prob", "--format", "json", "--", &text])
                .output()
                .unwrap();
            let code = o.status.code();
            prop_assert!(code == Some(0) || code == Some(2), "{text}: exit {code:?}");
            if code == Some(0) {
                let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
                let total: f64 = json[0]["outcomes"]
                    .as_array()
                    .or_else(|| json["outcomes"].as_array())
                    .unwrap()
                    .iter()
                    .map(|x| x["p"].as_f64().unwrap())
                    .sum();
                prop_assert!((total - 1.0).abs() < 1e-9, "{text}: {total}");
            }
            Ok(())
        })
        .unwrap();
}

/// Whether `exact` and `sample` (what `roll` uses) agree on `text`: every
/// sampled value is a possible outcome, and at the exact quartiles the
/// share of samples at or below passes a binomial test at `level`. Returns
/// whether the expression evaluated.
fn agree(text: &str, seed: u64, level: f64) -> Result<bool, TestCaseError> {
    const ROLLS: u64 = 2000;
    let Ok(e) = parse(text) else {
        return Ok(false);
    };
    let Ok(d) = e.exact() else { return Ok(false) };
    let mut dice = BatchedRoller::new(seed, &[7]);
    let samples: Vec<i64> = (0..ROLLS).map(|_| e.sample(&mut dice)).collect();
    for &v in &samples {
        prop_assert!(d.pmf(v) > 0.0, "{text}: rolled {v}, impossible exactly");
    }
    for q in [0.25, 0.75] {
        // the smallest outcome whose cumulative probability reaches q
        let mut acc = 0.0;
        let Some((x, _)) = d.iter().find(|(_, p)| {
            acc += p;
            acc >= q
        }) else {
            continue;
        };
        let p = d.cdf(x).min(1.0);
        let at_or_below = samples.iter().filter(|&&v| v <= x).count() as u64;
        let pv = stats::binomial_p_value(at_or_below, ROLLS, p);
        prop_assert!(
            pv >= level,
            "{text}: P(X <= {x}) = {p} exactly, {at_or_below}/{ROLLS} rolled (p = {pv:.2e})"
        );
    }
    Ok(true)
}

/// Expressions that once disagreed or sit at the integer limits, then
/// generated ones; two tests each, Bonferroni over all of them at a
/// family-wise false-alarm rate of 1e-3, fixed seeds.
#[test]
fn exact_and_roll_agree_on_every_expression_that_evaluates() {
    const CASES: u32 = 400;
    const FIXED: &[&str] = &[
        // the extra dice of an explosion are rerolled like the first
        "4d2r1!2",
        "d6r<3!",
        "3d6r1!1k2",
        // the 64-bit limits
        "9223372036854775806+d1",
        "-9223372036854775807-d1",
        "9223372036854775800+d6",
        "-9223372036854775802-d6",
        "d6 < 9223372036854775806+d1",
        "-9223372036854775807-d1 < d6",
        "3037000499*3037000499",
        "3037000499*3037000499-d6",
        "-(9223372036854775807-d6)",
        "2*4611686018427387903+d1",
    ];
    let level = 1e-3 / (2.0 * (f64::from(CASES) + FIXED.len() as f64));
    for (i, text) in FIXED.iter().enumerate() {
        assert!(
            agree(text, 1000 + i as u64, level).unwrap(),
            "{text} no longer evaluates"
        );
    }
    let tested = Cell::new(0u64);
    let evaluated = Cell::new(0u64);
    runner(CASES, 19)
        .run(&expression(), |text| {
            tested.set(tested.get() + 1);
            if agree(&text, tested.get(), level)? {
                evaluated.set(evaluated.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    // The agreement was tested on the expressions that evaluated, not on
    // every one generated: count those (the Bonferroni level above divides
    // by every generated case, so it stays conservative).
    eprintln!(
        "{} of {} generated expressions evaluated",
        evaluated.get(),
        tested.get()
    );
    assert!(
        evaluated.get() >= u64::from(CASES) / 2,
        "only {} of {} generated expressions evaluated",
        evaluated.get(),
        tested.get()
    );
}
