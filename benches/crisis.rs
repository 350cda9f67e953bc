//! Crisis: every scenario's test points (Monte Carlo trials per second on
//! one core, and the exact evaluation), and two scenarios against a naive
//! loop rolling each die with `random_range`: a check (2d6 + 2 against DL
//! 4, Extras by fours) and one turn of three RoF attacks against DR 3
//! armour with Durability 10 (the `attack` scenario's first test point).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use krunch::dice::{BatchedRoller, Tally};
use krunch::systems::crisis::RULES;
use krunch::systems::{ParamValue, Params, build};
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

/// The check's first test point by hand: 2d6 + 2 against 4, Extras per 4
/// points, tallied as successes and Extras.
fn naive_checks(rng: &mut Xoshiro256PlusPlus, trials: u64) -> [u64; 2] {
    let mut t = [0u64; 2];
    for _ in 0..trials {
        let total = rng.random_range(1..=6) + rng.random_range(1..=6) + 2;
        if total >= 4 {
            t[0] += 1;
            t[1] += (total - 4) / 4;
        }
    }
    t
}

/// The attack's first test point by hand: skill 3, three attacks at 0, -2,
/// -4 against DL 4, damage 5 + Extras through DR 3 / Durability 10 on
/// Health 10; tallies hits and Health lost.
fn naive_turns(rng: &mut Xoshiro256PlusPlus, trials: u64) -> [u64; 2] {
    let mut t = [0u64; 2];
    for _ in 0..trials {
        let (mut health, mut durability, mut nonlethal) = (10i64, 10i64, 0i64);
        for i in 0..3 {
            let total = rng.random_range(1..=6) + rng.random_range(1..=6) + 3 - 2 * i;
            if total < 4 {
                continue;
            }
            t[0] += 1;
            let damage = 5 + (total - 4) / 4;
            let blocked = if durability > 0 {
                3.min(damage).min(durability)
            } else {
                0
            };
            durability -= blocked;
            if damage - blocked <= 0 {
                nonlethal += 1;
            } else {
                health = (health - (damage - blocked)).max(-10);
            }
        }
        t[1] += (10 - health) as u64 + nonlethal as u64;
    }
    t
}

fn scenarios(c: &mut Criterion) {
    let mut g = c.benchmark_group("crisis");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(300));
    for sc in RULES.scenarios {
        for (i, point) in sc.test_points.iter().enumerate() {
            let m = build(RULES.name, sc.name, &params(point), &Params::new())
                .expect("test points are valid");
            g.throughput(Throughput::Elements(TRIALS));
            g.bench_function(format!("{} {i} monte carlo", sc.name), |b| {
                let mut r = BatchedRoller::new(5, &[0]);
                b.iter(|| {
                    let mut t = Tally::new(m.metrics().len());
                    m.run_chunk(&mut r, TRIALS, &mut t);
                    black_box(t)
                })
            });
            g.throughput(Throughput::Elements(1));
            g.bench_function(format!("{} {i} exact", sc.name), |b| {
                b.iter(|| black_box(m.exact()))
            });
        }
    }
    g.throughput(Throughput::Elements(TRIALS));
    g.bench_function("check 0 naive per-die", |b| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        b.iter(|| black_box(naive_checks(&mut rng, TRIALS)))
    });
    g.bench_function("attack 0 naive per-die", |b| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        b.iter(|| black_box(naive_turns(&mut rng, TRIALS)))
    });
    g.finish();
}

criterion_group!(benches, scenarios);
criterion_main!(benches);
