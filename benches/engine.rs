//! The engine's table for docs/BENCHMARKS.md: every registered scenario at
//! its first test point, on one core, in one run:
//!
//! - trials per second of the sampler the engine picks (`run_chunk`) and of
//!   the reference sampler (the rule on real dice, trial by trial);
//! - random words per trial, and that rate's share of what the generator
//!   alone delivers in the same run (xoshiro256++ words per second, measured
//!   first): the share says how close a sampler runs to its dice;
//! - the ratio to the scenario's naive per-die loop (`Scenario::naive`);
//! - the exact evaluation of a fresh model, build included (the first call,
//!   as a run makes it: no law cached yet).
//!
//! Each rate is the best of `ROUNDS` interleaved rounds of about
//! `ROUND_SECONDS` each, so a burst of load on a shared machine lowers
//! nothing but the spread. Prints a Markdown table: `cargo bench --bench
//! engine` (or `make bench`).

use krunch::dice::{BatchedRoller, Tally};
use krunch::systems::{Model, ParamValue, Params, RULE_SETS, build, naive};
use rand::SeedableRng;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Rows beside the first test points: the named mechanics a later test
/// point exercises (system, scenario, test point, what it is).
const NAMED: &[(&str, &str, usize, &str)] = &[
    (
        "gce",
        "multiple_combat",
        2,
        "three Terror-causing Stupid attackers, a Stupid Hating Fear-causing defender",
    ),
    (
        "gce",
        "shooting",
        3,
        "full auto at 18\", 2 Sustained Fire dice, D3 damage on 2 Wounds",
    ),
    (
        "krygothic",
        "dice",
        3,
        "keep dice: 4 dice keep 3, exploding, against 16",
    ),
];

/// The trials a benchmarked model is told its run will draw
/// (`Model::plan`): a long run, such as a CI pin of a rare outcome, for
/// which the engine may lay out its largest tables.
const LONG_RUN: u64 = 1 << 30;

const ROUNDS: usize = 3;
const ROUND_SECONDS: f64 = 0.12;
const CHUNK: u64 = 1 << 16;

fn params(pairs: &[(&str, &str)]) -> Params {
    let mut p = Params::new();
    for (k, v) in pairs {
        p.set(*k, ParamValue::from_text(v));
    }
    p
}

/// Runs `f` (which does `per_call` units) for about `seconds`; units a
/// second.
fn rate(seconds: f64, per_call: u64, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut done = 0u64;
    while start.elapsed().as_secs_f64() < seconds || done == 0 {
        f();
        done += per_call;
    }
    done as f64 / start.elapsed().as_secs_f64()
}

fn millions(x: f64) -> String {
    if x >= 100e6 {
        format!("{:.0} M", x / 1e6)
    } else if x >= 10e6 {
        format!("{:.1} M", x / 1e6)
    } else {
        format!("{:.2} M", x / 1e6)
    }
}

fn duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

struct Row {
    name: String,
    sampler: String,
    fast: f64,
    reference: f64,
    naive: Option<f64>,
    words: f64,
    exact: Option<Duration>,
}

fn main() {
    // cargo bench passes --bench; a filter narrows the scenarios
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    // the generator alone: words a second on this core
    let mut r = BatchedRoller::new(1, &[0]);
    let generator = (0..ROUNDS)
        .map(|_| {
            rate(ROUND_SECONDS, 1 << 20, || {
                let mut x = 0u64;
                for _ in 0..1 << 20 {
                    x ^= r.next_word();
                }
                black_box(x);
            })
        })
        .fold(0.0, f64::max);
    let mut rows = Vec::new();
    let mut cases: Vec<(&str, &str, usize, String)> = Vec::new();
    for rules in RULE_SETS {
        for sc in rules.scenarios {
            cases.push((
                rules.name,
                sc.name,
                0,
                format!("{}/{}", rules.name, sc.name),
            ));
            for &(system, scenario, point, what) in NAMED {
                if (system, scenario) == (rules.name, sc.name) {
                    cases.push((
                        system,
                        scenario,
                        point,
                        format!("{system}/{scenario}: {what}"),
                    ));
                }
            }
        }
    }
    for (system, scenario, index, name) in cases {
        {
            if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
                continue;
            }
            let rules = krunch::systems::rule_set(system).expect("registered");
            let sc = rules.scenario(scenario).expect("registered");
            let point = params(sc.test_points[index]);
            let m: Box<dyn Model> =
                build(rules.name, sc.name, &point, &Params::new()).expect("a valid test point");
            // measured as a long run samples: told of its trials first
            m.plan(LONG_RUN);
            // words a trial: one chunk on a fresh roller
            let mut counted = BatchedRoller::new(5, &[0]);
            m.run_chunk(&mut counted, CHUNK, &mut Tally::new(m.metrics().len()));
            let words = counted.words() as f64 / CHUNK as f64;
            // the naive loops are written for the first test point
            let naive_loop = Some(sc.naive).filter(|_| index == 0);
            let (mut fast, mut reference, mut naive) = (0.0f64, 0.0f64, None::<f64>);
            let mut roller = BatchedRoller::new(5, &[1]);
            let mut rng = naive::Rng::seed_from_u64(5);
            for _ in 0..ROUNDS {
                fast = fast.max(rate(ROUND_SECONDS, CHUNK, || {
                    let mut t = Tally::new(m.metrics().len());
                    m.run_chunk(&mut roller, CHUNK, &mut t);
                    black_box(t);
                }));
                reference = reference.max(rate(ROUND_SECONDS, CHUNK, || {
                    let mut t = Tally::new(m.metrics().len());
                    m.run_reference(&mut roller, CHUNK, &mut t);
                    black_box(t);
                }));
                if let Some(l) = &naive_loop {
                    let n = rate(ROUND_SECONDS, CHUNK, || {
                        black_box((l.run)(&mut rng, CHUNK));
                    });
                    naive = Some(naive.unwrap_or(0.0).max(n));
                }
            }
            // exact on a fresh model, build included: the best of three
            let exact = (0..3)
                .map(|_| {
                    let start = Instant::now();
                    let fresh = build(rules.name, sc.name, &point, &Params::new()).expect("valid");
                    fresh.exact().map(|_| start.elapsed())
                })
                .min()
                .flatten();
            eprintln!("{name}: {}", millions(fast));
            rows.push(Row {
                name,
                sampler: m.sampler().to_string(),
                fast,
                reference,
                naive,
                words,
                exact,
            });
        }
    }
    println!(
        "generator alone: {} words/s on one core (xoshiro256++, the kernel's roller)\n",
        millions(generator)
    );
    println!(
        "| scenario | sampler | trials/s/core | reference sampler | words/trial | share of the generator | naive per-die loop: ratio | exact, fresh model |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        let share = r.fast * r.words / generator;
        println!(
            "| {} | {} | {} | {} | {:.2} | {:.0}% | {} | {} |",
            r.name,
            r.sampler,
            millions(r.fast),
            millions(r.reference),
            r.words,
            100.0 * share,
            r.naive.map_or("no loop".into(), |n| format!(
                "{}: **{:.1}x**",
                millions(n),
                r.fast / n
            )),
            r.exact.map_or("none".into(), duration),
        );
    }
}
