//! Every registered scenario at its first test point: Monte Carlo trials
//! per second on one core beside its naive per-die loop (`Scenario::naive`)
//! and the exact evaluation per cell. Then GCE
//! hand-to-hand in detail: one round sampled against a naive per-die loop of
//! the same round, and the exact round and fight to the end for 4 dice
//! against 4 with 3 Wounds each (target under 10 ms).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use krunch::dice::{BatchedRoller, Tally};
use krunch::systems::gce::melee::{duel_model, outnumbered_model};
use krunch::systems::{Model, ParamValue, Params, RULE_SETS, build, naive, rule_set};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use std::time::Duration;

const TRIALS: u64 = 1 << 16;

fn params(pairs: &[(&str, &str)]) -> Params {
    let mut p = Params::new();
    for (k, v) in pairs {
        p.set(*k, ParamValue::from_text(v));
    }
    p
}

fn every_scenario(c: &mut Criterion) {
    let mut g = c.benchmark_group("scenario");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(300));
    for rules in RULE_SETS {
        for sc in rules.scenarios {
            let Some(point) = sc.test_points.first() else {
                continue;
            };
            let m = build(rules.name, sc.name, &params(point), &Params::new())
                .expect("test points are valid");
            g.throughput(Throughput::Elements(TRIALS));
            g.bench_function(format!("{}/{} naive per-die", rules.name, sc.name), |b| {
                let mut rng = naive::Rng::seed_from_u64(5);
                b.iter(|| black_box((sc.naive.run)(&mut rng, TRIALS)))
            });
            g.bench_function(format!("{}/{} monte carlo", rules.name, sc.name), |b| {
                let mut r = BatchedRoller::new(5, &[0]);
                b.iter(|| {
                    let mut t = Tally::new(m.metrics().len());
                    m.run_chunk(&mut r, TRIALS, &mut t);
                    black_box(t)
                })
            });
            g.throughput(Throughput::Elements(1));
            g.bench_function(format!("{}/{} exact", rules.name, sc.name), |b| {
                b.iter(|| black_box(m.exact()))
            });
        }
    }
    g.finish();
}

/// Four Attack Dice a side (A3 and a Choppa with the Knife), WS 3 against
/// WS 4, S3 +1 against T3, 3 Wounds and a 5+ save each.
const FOUR_V_FOUR: &[(&str, &str)] = &[
    ("a_ws", "3"),
    ("a_bs", "3"),
    ("a_attacks", "3"),
    ("a_initiative", "3"),
    ("a_strength", "3"),
    ("a_toughness", "3"),
    ("a_wounds", "3"),
    ("a_save", "5"),
    ("a_weapons", "choppa"),
    ("b_ws", "4"),
    ("b_bs", "3"),
    ("b_attacks", "3"),
    ("b_initiative", "3"),
    ("b_strength", "3"),
    ("b_toughness", "3"),
    ("b_wounds", "3"),
    ("b_save", "5"),
    ("b_weapons", "choppa"),
];

/// The same round written the obvious way: one `random_range` per die.
/// A (the attacker, charging) against B; strikes alternate Choppa (S4) and
/// Knife (S3) against T3 with a 5+ save (S4: 6+); Down stays Down (the
/// multiple-combat reading), so the round ends with each side's status.
fn naive_rounds(rng: &mut Xoshiro256PlusPlus, n: u64) -> [u64; 2] {
    let mut c = [0u64; 2];
    let d6 = |rng: &mut Xoshiro256PlusPlus| rng.random_range(1..=6u32) as i32;
    for _ in 0..n {
        let pool = |rng: &mut Xoshiro256PlusPlus| {
            let (mut hi, mut sixes, mut ones) = (0, 0, 0);
            for _ in 0..4 {
                let f = d6(rng);
                hi = hi.max(f);
                sixes += i32::from(f == 6);
                ones += i32::from(f == 1);
            }
            (hi, (sixes - 1).max(0), ones)
        };
        let a = pool(rng);
        let b = pool(rng);
        let sa = 3 + 1 + a.0 + a.1 + b.2;
        let sb = 4 + b.0 + b.1 + a.2;
        let (strikes, b_loses) = if sa > sb {
            (sa - sb, true)
        } else if sb > sa {
            (sb - sa, false)
        } else {
            (0, false) // equal Initiative: stalemate
        };
        let mut wounds = 3;
        let mut out = false;
        for k in 0..strikes {
            if out {
                break;
            }
            let (need, save) = if k % 2 == 0 { (3, 6) } else { (4, 5) };
            if d6(rng) < need || d6(rng) >= save {
                continue;
            }
            wounds -= 1;
            if wounds == 0 {
                out = true;
                match d6(rng) {
                    1 | 2 => {
                        out = false;
                        wounds = 1;
                    }
                    _ => {}
                }
            }
        }
        c[usize::from(b_loses)] += u64::from(out);
    }
    c
}

fn hand_to_hand(c: &mut Criterion) {
    let mut one_round = FOUR_V_FOUR.to_vec();
    one_round.extend([("attackers", "1"), ("attackers_charged", "true")]);
    let round = outnumbered_model(&params(&one_round)).expect("valid round");
    let duel = duel_model(&params(FOUR_V_FOUR)).expect("valid duel");
    let mut g = c.benchmark_group("gce_hand_to_hand");
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Elements(TRIALS * 8));
    g.bench_function("round, naive per-die", |b| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        b.iter(|| black_box(naive_rounds(&mut rng, TRIALS * 8)))
    });
    g.bench_function("round, the rule on real dice", |b| {
        let mut r = BatchedRoller::new(3, &[0]);
        b.iter(|| {
            let mut t = Tally::new(round.metrics().len());
            round.run_reference(&mut r, TRIALS * 8, &mut t);
            black_box(t)
        })
    });
    g.bench_function("round, fast sampler (chain walk)", |b| {
        let mut r = BatchedRoller::new(3, &[0]);
        b.iter(|| {
            let mut t = Tally::new(round.metrics().len());
            round.run_chunk(&mut r, TRIALS * 8, &mut t);
            black_box(t)
        })
    });
    g.bench_function("fight to the end 4v4 3 wounds, fast sampler", |b| {
        let mut r = BatchedRoller::new(3, &[0]);
        b.iter(|| {
            let mut t = Tally::new(duel.metrics().len());
            duel.run_chunk(&mut r, TRIALS * 8, &mut t);
            black_box(t)
        })
    });
    g.throughput(Throughput::Elements(1));
    g.bench_function("round 4v4, exact", |b| b.iter(|| black_box(round.exact())));
    g.bench_function("fight to the end 4v4 3 wounds, exact", |b| {
        b.iter(|| black_box(duel.exact()))
    });
    g.finish();
}

/// Shooting a Trukk: the scenario's sampler against the naive loop, same
/// run; and the boarding action's exact evaluation at three against three.
fn vehicles(c: &mut Criterion) {
    let mut g = c.benchmark_group("gce_vehicles");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(300));
    let volley = build(
        "gce",
        "vehicle_hits",
        &params(&[
            ("vehicle", "ork_trukk"),
            ("weapon", "shoota"),
            ("bs", "3"),
            ("range", "14"),
            ("shots", "2"),
        ]),
        &Params::new(),
    )
    .expect("a valid volley");
    g.throughput(Throughput::Elements(TRIALS));
    g.bench_function("shoota at a trukk, naive per-die", |b| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let naive = rule_set("gce")
            .and_then(|r| r.scenario("vehicle_hits"))
            .expect("registered")
            .naive;
        b.iter(|| black_box((naive.run)(&mut rng, TRIALS)))
    });
    g.bench_function("shoota at a trukk, the scenario's sampler", |b| {
        let mut r = BatchedRoller::new(5, &[0]);
        b.iter(|| {
            let mut t = Tally::new(volley.metrics().len());
            volley.run_chunk(&mut r, TRIALS, &mut t);
            black_box(t)
        })
    });
    let mut three = vec![
        ("vehicle", "ork_trukk"),
        ("boarder", "krixit"),
        ("boarder_bs", "3"),
        ("boarder_initiative", "3"),
        ("boarder_strength", "3"),
        ("boarder_toughness", "3"),
        ("boarder_wounds", "1"),
        ("defender", "grimgutz"),
        ("defender_bs", "3"),
        ("defender_initiative", "2"),
        ("defender_strength", "3"),
        ("defender_toughness", "4"),
        ("defender_wounds", "1"),
        ("boarders", "3"),
        ("crew", "3"),
    ];
    let boarding = build("gce", "boarding", &params(&three), &Params::new()).expect("valid");
    g.throughput(Throughput::Elements(1));
    g.bench_function("boarding 3 v 3, exact", |b| {
        b.iter(|| black_box(boarding.exact()))
    });
    three.push(("boarders_pile_on", "one_group"));
    let piled = build("gce", "boarding", &params(&three), &Params::new()).expect("valid");
    g.bench_function("boarding 3 v 3 pilin' on, exact", |b| {
        b.iter(|| black_box(piled.exact()))
    });
    g.finish();
}

criterion_group!(benches, hand_to_hand, vehicles, every_scenario);
criterion_main!(benches);
