//! Kry-Gothic: every scenario's test points (Monte Carlo trials per second
//! on one core, and the exact evaluation), the to-hit pool's dynamic
//! programme against enumerating every roll, and the close-combat game
//! (building the 9 x 7 payoff matrix and solving it).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use krunch::dice::{BatchedRoller, Roller, Tally, enumerate, solve_zero_sum};
use krunch::systems::krygothic::RULES;
use krunch::systems::krygothic::dice::{Critical, Pool, Reading};
use krunch::systems::{ParamValue, Params, build};
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

fn scenarios(c: &mut Criterion) {
    let mut g = c.benchmark_group("krygothic");
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
            if sc.name == "close_combat_game" {
                g.bench_function(format!("{} {i} build and solve", sc.name), |b| {
                    b.iter(|| black_box(build(RULES.name, sc.name, &params(point), &Params::new())))
                });
            }
        }
    }
    g.finish();
}

fn pools(c: &mut Criterion) {
    let mut g = c.benchmark_group("krygothic pool");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(300));
    let pool = |dice, keep, target| Pool {
        dice,
        keep,
        target,
        reading: Reading::Table,
        critical: Critical::ThreeSixes,
    };
    let small = pool(6, 3, 7);
    g.bench_function("6 dice keep 3 against 7: dynamic programme", |b| {
        b.iter(|| black_box(small.law()))
    });
    g.bench_function("6 dice keep 3 against 7: every roll enumerated", |b| {
        b.iter(|| black_box(enumerate(1 << 24, |r| small.roll(r)).unwrap()))
    });
    let big = pool(30, 10, 11);
    g.bench_function("30 dice keep 10 against 11: dynamic programme", |b| {
        b.iter(|| black_box(big.law()))
    });
    let mut r = BatchedRoller::new(1, &[2]);
    let a: Vec<Vec<f64>> = (0..9)
        .map(|_| (0..7).map(|_| f64::from(r.roll(1000)) / 1000.0).collect())
        .collect();
    g.bench_function("simplex 9 x 7", |b| {
        b.iter(|| black_box(solve_zero_sum(&a)))
    });
    g.finish();
}

criterion_group!(benches, pools, scenarios);
criterion_main!(benches);
